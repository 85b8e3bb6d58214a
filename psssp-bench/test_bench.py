# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""psssp-bench under Open MPI on this machine: 4-8 ranks over shared memory,
each given a host port of a generated fabric by a map file. The flows of
every run are psssp-sim score's for the same fabric, seed, pattern and
mapping; every flow is measured; the JSON is complete; bad input, a dead
rank and the time limit stop every rank with no result file."""

import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import pytest

from psssp_tools import UsageError, binary, generate, run

HERE = os.path.dirname(os.path.abspath(__file__))
MPIRUN = shutil.which("mpirun")
pytestmark = pytest.mark.skipif(MPIRUN is None, reason="Open MPI's mpirun is not installed")

# Root in a container without a network: shared memory only, oversubscribed.
MPI_ENV = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_btl": "self,vader",
    "OMPI_MCA_pml": "ob1",
    "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
    "OMPI_MCA_mpi_yield_when_idle": "1",
}
# Small transfers: the test checks flows and bookkeeping, not bandwidth.
FAST = ["--bytes", "64K", "--iterations", "2", "--warmup", "1"]


def bench_binary():
    try:
        return binary("psssp-bench")
    except UsageError as e:
        pytest.fail(str(e))


def mpirun(ranks, *args, timeout=60, **kwargs):
    env = dict(os.environ, **MPI_ENV)
    cmd = [MPIRUN, "-np", str(ranks), bench_binary()] + [str(a) for a in args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout, **kwargs)



@pytest.fixture(scope="module")
def fabric(tmp_path_factory):
    """A 4-ary 2-tree (16 hosts), its P-SSSP tables and its host ports."""
    d = tmp_path_factory.mktemp("bench")
    net = generate("kary-ntree", str(d / "f.net"), "--k", 4, "--n", 2)
    lfts = str(d / "f.lfts")
    run([binary("psssp-sim"), "route", net, "-o", lfts])
    return {"dir": d, "net": net, "lfts": lfts, "hosts": host_ports(net)}


def host_ports(net):
    """(port GUID, LID) of every host port in psssp-sim's host order: GUIDs
    from the net file (a CA's port p has its node GUID + p, as in ibsim),
    LIDs from psssp-sim's flows of the ring pattern (rank i on host i)."""
    guids = []
    with open(net) as f:
        node_guid = None
        for line in f:
            if line.startswith("caguid="):
                node_guid = int(line.split("=")[1], 16)
            elif line.startswith("Ca") and node_guid is not None:
                guids.append(node_guid + 1)
    out = run([binary("psssp-sim"), "score", net, "--pattern", "ring", "--dump-patterns", "-"])
    lids = [int(pair.split(":")[0]) for pair in out.stdout.splitlines()[1].split()]
    assert len(guids) == len(lids) == 16, (guids, lids)
    return list(zip(guids, lids))


def write_maps(fabric, name, picks, by_lid=()):
    """The bench's map ("RANK GUID|LID") and psssp-sim's --mapping file (one
    GUID or LID per rank) for ranks on the hosts `picks`; ranks in `by_lid`
    are named by their LID, the others by port GUID."""
    d = fabric["dir"]
    bench_map, sim_map = d / (name + ".map"), d / (name + ".mapping")
    lines, sim_lines = [], []
    for rank, host in enumerate(picks):
        guid, lid = fabric["hosts"][host]
        value = str(lid) if rank in by_lid else "0x%016x" % guid
        lines.append("%d %s" % (rank, value))
        sim_lines.append(value)
    bench_map.write_text("# rank port\n" + "\n".join(reversed(lines)) + "\n")
    sim_map.write_text("\n".join(sim_lines) + "\n")
    return str(bench_map), str(sim_map)


def sim_flows(fabric, sim_map, pattern, seed, runs):
    out = run([binary("psssp-sim"), "score", fabric["net"], "--pattern", pattern, "--seed", seed,
               "--runs", runs, "--mapping", sim_map, "--dump-patterns", "-"])
    return out.stdout.splitlines()[1:]


def json_flows(report):
    return [" ".join("%d:%d" % (f["src_lid"], f["dst_lid"]) for f in r["flows"])
            for r in report["runs"]]


PICKS = [3, 12, 7, 0, 9, 14, 5, 10]  # hosts of ranks 0..7: every leaf, out of order


def positive(value):
    return isinstance(value, float) and math.isfinite(value) and value > 0


def test_bisect_same_flows_as_simulator_every_flow_measured(fabric):
    bench_map, sim_map = write_maps(fabric, "bisect", PICKS, by_lid=(2, 5))
    d = fabric["dir"]
    out = {k: d / ("bisect." + k) for k in ("json", "csv", "flows")}
    proc = mpirun(8, "--fabric", fabric["net"], "--routes", fabric["lfts"], "--map", bench_map,
                  "--pattern", "bisect", "--runs", 30, "--seed", 7, *FAST,
                  "--json", out["json"], "--csv", out["csv"], "--dump-patterns", out["flows"])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(out["json"].read_text())

    # The same flows as psssp-sim score, run by run, in the JSON and the dump.
    expected = sim_flows(fabric, sim_map, "bisect", 7, 30)
    assert len(expected) == 30
    assert json_flows(report) == expected
    assert out["flows"].read_text().splitlines()[1:] == expected

    # Complete: every documented field; every rank's port; every flow measured.
    for key in ("version", "measured_ebb", "predicted_ebb", "correlation", "reference_gbps",
                "reference", "timing", "rank_ports", "runs", "run_count", "seed", "pattern"):
        assert key in report, key
    assert report["run_count"] == 30 and len(report["runs"]) == 30
    assert [p["lid"] for p in report["rank_ports"]] == [fabric["hosts"][h][1] for h in PICKS]
    assert [int(p["guid"], 16) for p in report["rank_ports"]] == \
        [fabric["hosts"][h][0] for h in PICKS]
    assert positive(report["reference_gbps"])
    assert len(report["reference"]["gbps"]) == 3
    assert report["reference_gbps"] == max(report["reference"]["gbps"])
    for r in report["runs"]:
        assert len(r["flows"]) == 4  # 8 ranks: 4 pairs
        ends = {f["src_rank"] for f in r["flows"]} | {f["dst_rank"] for f in r["flows"]}
        assert ends == set(range(8))
        assert all(positive(f["gbps"]) for f in r["flows"]), r
        mean = sum(f["gbps"] for f in r["flows"]) / 4 / report["reference_gbps"]
        assert r["measured_ebb"] == pytest.approx(mean, rel=1e-12)
        assert 0 < r["predicted_ebb"] <= 1
    assert report["measured_ebb"] == pytest.approx(
        sum(r["measured_ebb"] for r in report["runs"]) / 30, rel=1e-12)
    for key in ("loop_seconds", "transfer_seconds", "allreduce_us"):
        assert positive(report["timing"][key]), report["timing"]

    # Predicted: what psssp-sim score says for the same runs.
    sim = json.loads(run([binary("psssp-sim"), "score", fabric["net"], "--routes", fabric["lfts"],
                          "--pattern", "bisect", "--seed", 7, "--runs", 30, "--mapping", sim_map,
                          "--json"]).stdout)
    assert report["predicted_ebb"] == pytest.approx(sim["results"][0]["ebb"], rel=1e-12)

    # CSV: one line per run with both values; the summary names both.
    rows = out["csv"].read_text().splitlines()
    assert rows[0] == "run,flows,measured_ebb,predicted_ebb" and len(rows) == 31
    assert float(rows[1].split(",")[2]) == pytest.approx(report["runs"][0]["measured_ebb"])
    assert "measured eBB" in proc.stdout and "predicted eBB" in proc.stdout
    assert "correlation" in proc.stdout

    # Measured against predicted per run, as a PNG.
    png = d / "bisect.png"
    run([sys.executable, os.path.join(HERE, "plot_bench.py"), str(out["json"]), "-o", str(png)])
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("pattern,ranks", [("permutation", 5), ("shift", 4),
                                           ("recursive-doubling", 6)])
def test_other_patterns_same_flows_as_simulator(fabric, pattern, ranks):
    bench_map, sim_map = write_maps(fabric, pattern, PICKS[:ranks])
    out = fabric["dir"] / (pattern + ".json")
    proc = mpirun(ranks, "--fabric", fabric["net"], "--map", bench_map, "--pattern", pattern,
                  "--runs", 8, "--seed", 3, *FAST, "--json", out)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(out.read_text())
    assert json_flows(report) == sim_flows(fabric, sim_map, pattern, 3, 8)
    assert report["predicted_ebb"] is None
    assert all(positive(f["gbps"]) for r in report["runs"] for f in r["flows"])


def assert_failed(proc, out, *needles):
    assert proc.returncode != 0, proc.stdout + proc.stderr
    for needle in needles:
        assert needle in proc.stderr, proc.stderr
    assert not os.path.exists(out), "a result file was written"
    assert "Traceback" not in proc.stderr and "terminate called" not in proc.stderr


def test_map_errors(fabric):
    d = fabric["dir"]
    out = d / "bad.json"
    stranger = d / "stranger.map"
    stranger.write_text("0 0x%016x\n1 0x0000000012345678\n2 %d\n3 %d\n" % (
        fabric["hosts"][0][0], fabric["hosts"][1][1], fabric["hosts"][2][1]))
    proc = mpirun(4, "--fabric", fabric["net"], "--map", stranger, "--json", out)
    assert_failed(proc, out, "stranger.map:2: port GUID 0x0000000012345678 (rank 1) is not in")
    assert proc.stderr.count("is not in") == 1, proc.stderr  # said once, by rank 0

    shared = d / "shared.map"
    guid, lid = fabric["hosts"][4]
    shared.write_text("0 0x%016x\n1 %d\n2 %d\n3 %d\n" % (
        guid, fabric["hosts"][5][1], lid, fabric["hosts"][6][1]))
    proc = mpirun(4, "--fabric", fabric["net"], "--map", shared, "--json", out)
    assert_failed(proc, out, "ranks 0 and 2 are on the same port")

    odd, _ = write_maps(fabric, "odd", PICKS[:5])
    proc = mpirun(5, "--fabric", fabric["net"], "--map", odd, "--pattern", "bisect", "--json", out)
    assert_failed(proc, out, "5 ranks is odd")

    quad, _ = write_maps(fabric, "quad", PICKS[:4])
    proc = mpirun(4, "--fabric", fabric["net"], "--map", quad, "--json",
                  d / "no" / "such" / "dir.json")
    assert_failed(proc, out, "no/such/dir.json")
    assert "reference" not in proc.stdout  # refused before measuring

    proc = mpirun(2, "--map", stranger, "--bogus", "--json", out)
    assert_failed(proc, out, "unknown option --bogus")
    assert proc.stderr.count("unknown option") == 1, proc.stderr
    proc = mpirun(2, "--routes", fabric["lfts"], "--json", out)
    assert_failed(proc, out, "--routes needs --fabric")
    assert proc.stderr.count("--routes needs --fabric") == 1, proc.stderr


def test_sysfs_ports(fabric, tmp_path):
    out = tmp_path / "r.json"
    proc = mpirun(2, "--sysfs", tmp_path / "none", "--json", out)
    assert_failed(proc, out, "rank 0: no InfiniBand devices", "rank 1: no InfiniBand devices")
    # Every rank finds the same HCA port: one rank per host port.
    port = tmp_path / "ib" / "mlx5_0" / "ports" / "1"
    (port / "gids").mkdir(parents=True)
    (port / "state").write_text("4: ACTIVE\n")
    (port / "link_layer").write_text("InfiniBand\n")
    (port / "lid").write_text("0x%x\n" % fabric["hosts"][0][1])
    (port / "gids" / "0").write_text("fe80:0000:0000:0000:5053:4800:0000:0001\n")
    proc = mpirun(2, "--sysfs", tmp_path / "ib", "--json", out)
    assert_failed(proc, out, "ranks 0 and 1 are on the same port (0x5053480000000001")


def test_time_limit_stops_every_rank(fabric):
    bench_map, _ = write_maps(fabric, "limit", PICKS[:4])
    out = fabric["dir"] / "limit.json"
    start = time.monotonic()
    # Default transfers (64 MiB per flow and run): 2000 runs outlast 1 s anywhere.
    proc = mpirun(4, "--fabric", fabric["net"], "--map", bench_map, "--runs", 2000,
                  "--time-limit", 1, "--json", out)
    assert_failed(proc, out, "--time-limit 1 s: run ", "stopped on every rank")
    assert proc.returncode == 2
    assert time.monotonic() - start < 20


def bench_ranks(mpirun_pid):
    """PIDs of the psssp-bench processes mpirun started."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
            with open("/proc/%s/cmdline" % entry) as f:
                command = f.read()
        except OSError:
            continue
        if parent == mpirun_pid and "psssp-bench" in command:
            found.append(int(entry))
    return sorted(found)


def test_rank_dying_mid_run_ends_the_job(fabric):
    bench_map, _ = write_maps(fabric, "die", PICKS[:4])
    out = fabric["dir"] / "die.json"
    env = dict(os.environ, **MPI_ENV)
    proc = subprocess.Popen([MPIRUN, "-np", "4", bench_binary(), "--fabric", fabric["net"],
                             "--map", bench_map, "--runs", "2000", "--json", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 20
        ranks = []
        while len(ranks) < 4 and time.monotonic() < deadline:
            time.sleep(0.2)
            ranks = bench_ranks(proc.pid)
        assert len(ranks) == 4, ranks
        time.sleep(2)  # well into the runs
        assert proc.poll() is None, proc.communicate()
        os.kill(ranks[2], signal.SIGKILL)
        stdout, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode != 0, stdout + stderr
    assert not os.path.exists(out), "a result file was written"


def test_help_and_man_page_name_every_option():
    env = dict(os.environ, **MPI_ENV)
    usage = subprocess.run([bench_binary(), "--help"], capture_output=True, text=True, env=env,
                           timeout=60, check=True).stdout
    options = set(re.findall(r"^  (?:-h,)?(--[a-z-]+)", usage, re.M))
    assert {"--fabric", "--routes", "--map", "--pattern", "--bytes", "--json"} <= options, usage
    with open(os.path.join(HERE, "psssp-bench.1")) as f:
        page = f.read().replace("\\-", "-")
    assert [o for o in sorted(options) if o not in page] == []
