#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Route churn after cable faults, in the real OpenSM on ibsim.

For every engine, in the same run: a resident OpenSM routes the fabric; then,
for each failure count, that many random switch-to-switch cables are unlinked
through ibsim's console, OpenSM re-sweeps, the tables are read back with
dump_fts and compared entry by entry with those before, and scored (eBB with
psssp-sim score on the fabric as ibnetdiscover sees it); then the cables are
relinked and the same is measured against the original tables.

    PYTHONPATH=scripts bench/bench_churn.py --topology "kary-ntree --k 8 --n 3" \\
        --engines minhop,ftree,sssp,dfsssp,psssp --failures 1,2,5,10

For psssp, "eBB full" is a full psssp routing of the same degraded fabric
(psssp-sim route on the fabric as ibnetdiscover sees it), scored the same
way: the incremental re-route's target is to stay within 0.5% of it.

With --soak N, psssp alone goes through N unlink/relink cycles of random
cables; after every step the tables must deliver every connected pair and
use no dead cable (psssp-sim check), and OpenSM must still run.
"""

import argparse
import os
import random
import re
import shlex
import signal
import sys
import tempfile
import time

try:
    from ibsim_session import IbsimFabric, SessionError
    from opensm_engines import EngineSetup
    from psssp_tools import binary, run
except ImportError as missing:
    sys.exit("bench_churn.py: %s; run it with PYTHONPATH=scripts (the project's scripts "
             "directory)" % missing)

CONFIGURED = r"\S+ tables configured on all switches"


def entries(dump_text):
    """{(switch GUID, LID): port} of dump_fts text."""
    out, guid = {}, None
    for line in dump_text.splitlines():
        if line.startswith("Unicast lids"):
            guid = int(line.split(" guid ")[1].split()[0], 16)
        elif guid is not None and line.startswith("0x"):
            lid, port = line.split()[:2]
            out[(guid, int(lid, 16))] = int(port)
    return out


def switch_cables(net_path):
    """[(switch, port, remote, remote port, switch GUID, remote GUID)] once per cable."""
    guids, records, switch, guid = {}, [], None, None
    for line in open(net_path):
        line = line.strip()
        if line.startswith("switchguid="):
            guid = int(line.split("=")[1], 16)
        elif line.startswith("Switch"):
            switch = line.split('"')[1]
            guids[switch] = guid
        elif switch and line.startswith("[") and '"' in line:
            remote = line.split('"')[1]
            rport = int(line.split('"')[2].split("[")[1].split("]")[0])
            records.append((switch, int(line[1:line.index("]")]), remote, rport))
        elif not line:
            switch = None
    cables = []
    for sw, port, remote, rport in records:
        if remote in guids and (sw, port) < (remote, rport):
            cables.append((sw, port, remote, rport, guids[sw], guids[remote]))
    return cables


def score(topo, fts, runs):
    out = run([binary("psssp-sim"), "score", topo, "--routes", fts, "--runs", runs, "--csv"],
              check=False)
    if out.returncode != 0:
        return None
    rows = [l.split(",") for l in out.stdout.splitlines() if l.strip()]
    header = rows[0]
    return float(rows[1][header.index("ebb")])


def ebb(fabric, workdir, name, fts_text, runs, full=False):
    """eBB of the tables; with full, also that of a full psssp routing of
    the same fabric (else None)."""
    topo = os.path.join(workdir, name + ".topo")
    fts = os.path.join(workdir, name + ".fts")
    with open(topo, "w") as f:
        f.write(fabric.ibnetdiscover())
    with open(fts, "w") as f:
        f.write(fts_text)
    full_ebb = None
    if full:
        full_fts = os.path.join(workdir, name + "-full.lfts")
        routed = run([binary("psssp-sim"), "route", topo, "-o", full_fts], check=False)
        if routed.returncode == 0:
            full_ebb = score(topo, full_fts, runs)
    return score(topo, fts, runs), full_ebb


class Sweeps:
    """A resident OpenSM and the count of routings it has logged."""

    def __init__(self, fabric, setup):
        self.sm = fabric.start_opensm(args=setup.args, conf=setup.conf or None,
                                      env_extra=setup.env)
        self.done = 0
        self.hangups = 0

    def next(self, timeout=600, trap_wait=30):
        """Waits for the next routing. OpenSM runs without periodic sweeps
        (-s 0) and re-sweeps on the port-state trap of a changed link; if no
        routing follows within trap_wait seconds, a SIGHUP asks for the sweep
        (counted in self.hangups)."""
        self.done += 1
        try:
            self.sm.wait_for_log(CONFIGURED, count=self.done, timeout=trap_wait)
        except SessionError:
            if self.sm.proc.poll() is not None:
                raise
            self.hangups += 1
            os.kill(self.sm.proc.pid, signal.SIGHUP)
            self.sm.wait_for_log(CONFIGURED, count=self.done, timeout=timeout)
        return self.sm


def churn(args, net, engine, workdir, cables):
    setup = EngineSetup(engine, psssp_options=args.psssp_options)
    rows = []
    with IbsimFabric(net, workdir, console=True) as fabric:
        sweeps = Sweeps(fabric, setup)
        sweeps.next()
        seen = [0]

        def read_tables():
            """dump_fts; under load it can catch a switch before OpenSM has
            programmed it: a read with fewer entries than seen before is
            repeated (at most 3 times, 2 s apart); the first read is
            repeated until its count stops growing."""
            text, found = None, {}
            for attempt in range(4):
                previous = len(found)
                text = fabric.dump_fts()
                found = entries(text)
                if seen[0] == 0 and attempt < 3 and len(found) > previous:
                    time.sleep(2)
                    continue
                if len(found) >= seen[0] or attempt == 3:
                    break
                time.sleep(2)
            seen[0] = max(seen[0], len(found))
            return text, found

        base_text, base = read_tables()
        base_ebb, _ = ebb(fabric, workdir, engine + "-base", base_text, args.runs)
        rng = random.Random(args.seed)
        def toggle(cables, command, name, full=False):
            """Unlinks or relinks cables, waits for the re-route; its tables,
            eBB and (with full) a full psssp routing's eBB."""
            for sw, port, _, _, _, _ in cables:
                fabric.console('%s "%s"[%d]' % (command, sw, port))
            sweeps.next()
            text, found = read_tables()
            return (found,) + ebb(fabric, workdir, name, text, args.runs, full)

        for n in args.failures:
            dead = rng.sample(cables, n)
            used = sum(1 for c in dead for (g, _), p in base.items()
                       if (g, p) in ((c[4], c[1]), (c[5], c[3])))
            now, down_ebb, full_ebb = toggle(dead, "Unlink", "%s-down%d" % (engine, n),
                                             full=engine == "psssp")
            changed = sum(1 for k, p in now.items() if base.get(k) != p)
            back, back_ebb, _ = toggle(dead, "ReLink", "%s-up%d" % (engine, n))
            moved_back = sum(1 for k, p in back.items() if now.get(k) != p)
            rows.append((n, used, changed, len(base), down_ebb, full_ebb, moved_back, back_ebb))
            base = back  # the next step starts from here
        log = sweeps.sm.run.log
    return base_ebb, rows, log


def soak(args, net, workdir, cables):
    setup = EngineSetup("psssp", psssp_options=args.psssp_options)
    rng = random.Random(args.seed)
    failures = 0
    with IbsimFabric(net, workdir, console=True) as fabric:
        sweeps = Sweeps(fabric, setup)
        sweeps.next()
        for cycle in range(args.soak):
            cable = rng.choice(cables)
            for step, command in (("down", "Unlink"), ("up", "ReLink")):
                fabric.console('%s "%s"[%d]' % (command, cable[0], cable[1]))
                sweeps.next()
                ok = tables_check(fabric, workdir, "soak") and sweeps.sm.proc.poll() is None
                failures += 0 if ok else 1
                print("soak cycle %2d %-4s %-22s %s" % (cycle + 1, step,
                                                        "%s[%d]" % (cable[0], cable[1]),
                                                        "ok" if ok else "FAILED"), flush=True)
        alive = sweeps.sm.proc.poll() is None
        log = sweeps.sm.run.log
        print("re-sweeps started by SIGHUP (no trap-driven sweep within 30 s): %d"
              % sweeps.hangups)
    return failures, alive, log.count("psssp: incremental re-route"), log


def tables_check(fabric, workdir, name):
    """psssp-sim check of the switches' tables (dump_fts) on the fabric as
    ibnetdiscover sees it now: True when every connected pair is delivered,
    which also means no route uses a dead cable (it is not in the fabric)."""
    topo = os.path.join(workdir, name + ".topo")
    fts = os.path.join(workdir, name + ".fts")
    with open(topo, "w") as f:
        f.write(fabric.ibnetdiscover())
    with open(fts, "w") as f:
        f.write(fabric.dump_fts())
    return run([binary("psssp-sim"), "check", topo, "--routes", fts], check=False).returncode == 0


def main():
    # A stopped benchmark must not leave ibsim and OpenSM running: SIGTERM
    # unwinds through the IbsimFabric context managers, which stop them.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--topology", default="kary-ntree --k 8 --n 3")
    p.add_argument("--engines", default="minhop,ftree,sssp,dfsssp,psssp")
    p.add_argument("--failures", default="1,2,5,10")
    p.add_argument("--runs", default="1000")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--soak", type=int, default=0)
    p.add_argument("--psssp-options", default="",
                   help="the plugin's options, e.g. rebalance=4x (psssp(8))")
    args = p.parse_args()
    args.failures = [int(x) for x in args.failures.split(",")]
    work = tempfile.mkdtemp(prefix="psssp-churn-")
    net = os.path.join(work, "fabric.net")
    spec = shlex.split(args.topology)
    run([binary("psssp-topo")] + spec + ["-o", net])
    cables = switch_cables(net)
    print("fabric: %s (%d switch cables); failures %s; %s bisections%s" % (
        args.topology, len(cables), args.failures, args.runs,
        "; psssp options: " + args.psssp_options if args.psssp_options else ""))
    if args.soak:
        failures, alive, incremental, _ = soak(args, net, os.path.join(work, "soak"), cables)
        print("soak: %d cycles, %d failed checks, OpenSM %s, %d incremental re-routes" % (
            args.soak, failures, "running" if alive else "GONE", incremental))
        return 1 if failures or not alive else 0
    print("| engine | failures | used the cables | changed | of entries | eBB down | "
          "eBB full | moved on relink | eBB after relink | eBB before |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for engine in args.engines.split(","):
        wd = os.path.join(work, engine)
        os.makedirs(wd)
        base_ebb, rows, log = churn(args, net, engine, wd, cables)
        engines_used = sorted(set(re.findall(r"(\S+) tables configured on all switches", log)))
        def number(x):
            return "%.4f" % x if x is not None else "-"
        for n, used, changed, total, down_ebb, full_ebb, moved_back, back_ebb in rows:
            print("| %s | %d | %d | %d (%.2f%%) | %d | %s | %s | %d | %s | %s |" % (
                engine + ("" if engines_used == [engine] else " (%s)" % "+".join(engines_used)),
                n, used, changed, 100.0 * changed / max(1, total), total, number(down_ebb),
                number(full_ebb), moved_back, number(back_ebb), number(base_ebb)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
