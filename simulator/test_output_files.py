# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Outputs are complete or absent: a failed write (full disk, size limit,
missing directory) leaves no truncated file and exits non-zero with the
path named; standard output is checked the same way; devices are written
in place, never replaced."""

import os
import resource
import signal
import stat
import subprocess

from psssp_tools import binary, generate, run


def limited(max_bytes):
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes past the limit fail with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (max_bytes, max_bytes))
    return apply


def test_route_write_failure_leaves_nothing(tmp_path):
    net = generate("kary-ntree", str(tmp_path / "f.net"), "--k", 4, "--n", 3)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    target = out_dir / "r.lfts"
    proc = subprocess.run([binary("psssp-sim"), "route", net, "-o", str(target)],
                          capture_output=True, text=True, preexec_fn=limited(4096))
    assert proc.returncode != 0
    assert str(target) in proc.stderr, proc.stderr
    assert list(out_dir.iterdir()) == [], "partial or temporary file left behind"


def test_route_to_full_device_and_missing_directory(tmp_path):
    net = generate("kary-ntree", str(tmp_path / "f.net"), "--k", 4, "--n", 2)
    full = run([binary("psssp-sim"), "route", net, "-o", "/dev/full"], check=False)
    assert full.returncode != 0 and "cannot write /dev/full" in full.stderr, full.stderr
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode), "/dev/full was replaced"
    missing = tmp_path / "no" / "r.lfts"
    proc = run([binary("psssp-sim"), "route", net, "-o", missing], check=False)
    assert proc.returncode != 0 and str(missing) in proc.stderr


def test_route_dash_is_standard_output(tmp_path):
    net = generate("kary-ntree", str(tmp_path / "f.net"), "--k", 4, "--n", 2)
    proc = run([binary("psssp-sim"), "route", net, "-o", "-"], cwd=tmp_path)
    assert "Unicast lids" in proc.stdout
    assert not (tmp_path / "-").exists()


def test_lost_standard_output_is_an_error(tmp_path):
    net = generate("kary-ntree", str(tmp_path / "f.net"), "--k", 4, "--n", 2)
    with open("/dev/full", "w") as full:
        for args in (["info", net], ["route", net, "-o", "-"]):
            proc = subprocess.run([binary("psssp-sim")] + args, stdout=full,
                                  stderr=subprocess.PIPE, text=True)
            assert proc.returncode != 0, args
            assert "standard output" in proc.stderr, proc.stderr
        topo = subprocess.run([binary("psssp-topo"), "torus", "--dims", "4x4", "-o", "-"],
                              stdout=full, stderr=subprocess.PIPE, text=True)
        assert topo.returncode != 0 and "standard output" in topo.stderr


def test_topo_side_files_only_with_the_net_file(tmp_path):
    roots = tmp_path / "roots.txt"
    proc = run([binary("psssp-topo"), "kary-ntree", "--k", 4, "--n", 2, "-o",
                tmp_path / "no" / "f.net", "--roots", roots], check=False)
    assert proc.returncode != 0
    assert not roots.exists(), "--roots written although -o failed"
    assert [p.name for p in tmp_path.iterdir()] == []


def test_out_of_range_numbers_are_usage_errors(tmp_path):
    net = generate("kary-ntree", str(tmp_path / "f.net"), "--k", 4, "--n", 2)
    lfts = tmp_path / "r.lfts"
    run([binary("psssp-sim"), "route", net, "-o", lfts])
    for args in (["check", net, "--routes", lfts, "--threads", "4294967296"],
                 ["check", net, "--routes", lfts, "--threads", "100000"],
                 ["score", net, "--routes", lfts, "--runs", "18446744073709551615"]):
        proc = run([binary("psssp-sim")] + args, check=False)
        assert proc.returncode == 2, (args, proc.returncode, proc.stderr)
        assert "out of range" in proc.stderr and "bad_alloc" not in proc.stderr, proc.stderr
    topo = run([binary("psssp-topo"), "kary-ntree", "--k", 4, "--n", 99, "-o", tmp_path / "x"],
               check=False)
    assert topo.returncode == 2 and "more than 100000 switches" in topo.stderr, topo.stderr


def test_hosts_regex_on_a_huge_description(tmp_path):
    """std::regex recursed once per character and crashed on a 20,000-character
    node description; RE2 matches in linear time."""
    net = tmp_path / "f.net"
    generate("kary-ntree", str(net), "--k", 4, "--n", 2)
    text = net.read_text().replace('"h-0"\t# "h-0"', '"h-0"\t# "%s"' % ("x" * 20000), 1)
    assert "x" * 20000 in text
    net.write_text(text)
    lfts = tmp_path / "r.lfts"
    run([binary("psssp-sim"), "route", net, "-o", lfts])
    for pattern in ("(x|y)*$", "^h-1"):
        proc = run([binary("psssp-sim"), "score", net, "--routes", lfts, "--runs", 10,
                    "--hosts-regex", pattern, "--pattern", "shift"], check=False)
        assert proc.returncode == 0, proc.stderr
    bad = run([binary("psssp-sim"), "score", net, "--routes", lfts, "--hosts-regex", "(x"],
              check=False)
    assert bad.returncode != 0 and "bad --hosts-regex '(x'" in bad.stderr, bad.stderr


def test_binary_input_is_refused_before_it_is_read(tmp_path):
    """A NUL byte in the first 64 KiB: refused at once, whatever the size (3 GB of
    zero bytes used to be read whole first: 37 s, 6.3 GB of memory)."""
    blob = tmp_path / "disk.img"
    with open(blob, "wb") as f:
        f.seek(200 * 1024 * 1024 - 1)  # sparse: 200 MB that cost nothing to make
        f.write(b"\0")
    # An address-space limit below the file's size proves it is not read
    # whole; sanitizer builds (ASAN_OPTIONS set) need the space for shadow memory.
    limit = None if "ASAN_OPTIONS" in os.environ else (
        lambda: resource.setrlimit(resource.RLIMIT_AS, (256 << 20, 256 << 20)))
    proc = subprocess.run([binary("psssp-sim"), "info", str(blob)], capture_output=True,
                          text=True, timeout=10, preexec_fn=limit)
    assert proc.returncode == 2, proc.stderr
    assert "disk.img: binary data (a NUL byte at offset 0)" in proc.stderr, proc.stderr


def test_large_text_in_no_fabric_format_is_refused_before_it_is_read(tmp_path):
    """Text, but nothing like a fabric in the first 64 KiB: refused before the
    other 200 MB are read."""
    log = tmp_path / "server.log"
    line = b"Nov 23 10:00:00 host kernel: nothing to see here, moving on\n"
    with open(log, "wb") as f:
        f.write(line * (200 * 1024 * 1024 // len(line)))
    limit = None if "ASAN_OPTIONS" in os.environ else (
        lambda: resource.setrlimit(resource.RLIMIT_AS, (256 << 20, 256 << 20)))
    for command in (["info", str(log)], ["route", str(log), "-o", str(tmp_path / "r")]):
        proc = subprocess.run([binary("psssp-sim")] + command, capture_output=True, text=True,
                              timeout=10, preexec_fn=limit)
        assert proc.returncode == 2, proc.stderr
        assert "server.log: not an ibnetdiscover, ibsim net or opensm-subnet.lst file " \
               "(nothing like one in its first 64 KiB)" in proc.stderr, proc.stderr


def test_net_file_ibsim_would_refuse_is_warned_about(tmp_path):
    net = tmp_path / "tight.net"
    net.write_text('Switch 2 "s"\n[1] "a"[1]\nHca 1 "a"\n[1] "s"[1]\n')
    proc = run([binary("psssp-sim"), "info", net])
    assert "tight.net:3: no blank line before this line; ibsim will not load the file" \
        in proc.stdout + proc.stderr
    routed = run([binary("psssp-sim"), "route", net, "-o", tmp_path / "t.lfts"])
    assert "warning: " in routed.stderr and "ibsim will not load the file" in routed.stderr
    fine = tmp_path / "fine.net"
    fine.write_text('Switch 2 "s"\n[1] "a"[1]\n\nHca 1 "a"\n[1] "s"[1]\n')
    assert "blank line" not in run([binary("psssp-sim"), "info", fine]).stdout
