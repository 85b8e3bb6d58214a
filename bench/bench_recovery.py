#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Fault recovery time inside the real OpenSM on ibsim: how long after a
switch-to-switch cable goes down the switches hold new tables, for psssp and
OpenSM's own engines, on the same fabric and the same cables in the same run.

For every engine: a fresh ibsim (with its console) and a resident OpenSM
route the fabric; then, for each of --cables cables (a seeded choice, the
same for every engine), the cable is unlinked through ibsim's console and
three times are read from OpenSM's log (flags 0x03, and 0x07 for
osm_ucast_mgr.c and osm_state_mgr.c through per_module_logging_file; time
stamps in microseconds), counted from the moment the unlink was written to the console:

  configured  OpenSM logs "<engine> tables configured on all switches": the
              routing is done and the changed LFT blocks are queued;
  acked       OpenSM logs "SWITCHES CONFIGURED FOR UNICAST", which it does
              only once every LFT block it sent has been answered (it waits
              for all pending MADs first; with -Q, as dfsssp runs, the QoS
              setup's MADs are included);
  routing     the routing window of that re-sweep: "building routing with"
              to "tables configured";
  before      the unlink to "building routing with": the trap, OpenSM's
              discovery (twice when the second end's trap arrives while it
              discovers) and its LID and port set-up, the same for every
              engine;
  share       the engine's share: its routing window plus the upload of the
              blocks it changed (configured to acked).

OpenSM's discovery sends max_wire_smps SMPs at a time (default 4);
--opensm-conf 'max_wire_smps 32' shortens it equally for every engine.
The cable is then relinked and the fabric left to settle before the next one.
Medians over the cables, and ratios psssp / engine, are printed: over all
re-sweeps and over those where OpenSM discovered the fabric once.

  PYTHONPATH=scripts bench/bench_recovery.py               # 16-ary 3-tree
  PYTHONPATH=scripts bench/bench_recovery.py --topology "kary-ntree --k 4 --n 3" \
      --engines psssp,minhop --cables 1
"""

import argparse
import collections
import os
import random
import shlex
import signal
import statistics
import sys
import tempfile
import time
from datetime import datetime

try:  # scripts/ on PYTHONPATH (see above)
    from ibsim_session import IBSIM_LIMITS, IbsimFabric, SessionError
    from opensm_engines import EngineSetup
    from opensm_log import CONFIGURED, ROUTING_STARTS, SUBNET_UP, log_time, parse_log
    from psssp_tools import binary, run
except ImportError as e:
    sys.exit("bench_recovery.py: %s; run it as PYTHONPATH=scripts bench/bench_recovery.py" % e)

from bench_churn import switch_cables, tables_check
ACKED = "SWITCHES CONFIGURED FOR UNICAST"


Recovery = collections.namedtuple(
    "Recovery", "configured acked window before_routing discoveries engine")
HEAVY_SWEEP = "INITIATING HEAVY SWEEP"


def sweep_times(text, start, year):
    """Recovery of the first re-sweep in `text` (log written after the unlink
    at wall time `start`); None where a line is missing. before_routing is
    the unlink to "building routing with" (the trap, OpenSM's discovery and
    its LID and port set-up: the same work for every engine); discoveries
    counts OpenSM's heavy-sweep discoveries in that time (a trap arriving
    while it discovers makes it discover again)."""
    routing_start = configured = acked = window = None
    engine = last = None
    discoveries = 0
    for line in text.splitlines():
        # A message box's text follows its time-stamped first line.
        last = log_time(line, year) or last
        if routing_start is None and HEAVY_SWEEP in line:
            discoveries += 1
        if routing_start is None and ROUTING_STARTS in line:
            routing_start = log_time(line, year)
        elif configured is None and CONFIGURED.search(line):
            t = log_time(line, year)
            engine = CONFIGURED.search(line).group(1)
            configured = t - start
            if routing_start is not None:
                window = t - routing_start
        elif configured is not None and ACKED in line:
            acked = last - start
            break
    before = None if routing_start is None else routing_start - start
    return Recovery(configured, acked, window, before, discoveries, engine)


def engine_share(r):
    """The part of a recovery an engine decides: its routing window plus the
    upload of the LFT blocks it changed (configured to acked)."""
    if r.window is None or r.acked is None:
        return None
    return r.window + (r.acked - r.configured)


def settle(sm, offset, timeout, quiet=2.0):
    """Waits for the re-sweep started after `offset` to end (SUBNET UP), and then
    until the log stays free of new routings for `quiet` seconds."""
    sm.wait_for_log(SUBNET_UP, timeout=timeout, since=offset)
    while True:
        mark = sm.log_offset()
        time.sleep(quiet)
        if ROUTING_STARTS not in sm.log_since(mark):
            return
        sm.wait_for_log(SUBNET_UP, timeout=timeout, since=mark)


def measure_engine(args, net, engine, cables, workdir, plugin_dir=None):
    """(seconds to subnet up, routing window of that first sweep, [(cable,
    Recovery, tables check or None)])
    for one engine."""
    setup = EngineSetup(engine if plugin_dir is None else "psssp")
    env = dict(setup.env)
    if plugin_dir is not None:
        env["LD_LIBRARY_PATH"] = plugin_dir
    rows = []
    extra = shlex.split(args.ibsim_args)
    os.makedirs(workdir, exist_ok=True)
    # Global log level ERROR + INFO; VERBOSE only where the lines timed here
    # come from: VERBOSE everywhere logs ~300k discovery lines per sweep at
    # 4096 hosts and slows every sweep down.
    modules = os.path.join(workdir, "per-module-logging.conf")
    with open(modules, "w") as f:
        f.write("osm_ucast_mgr.c 0x07\nosm_state_mgr.c 0x07\n")
    conf = (setup.conf or "") + "per_module_logging_file %s\n" % modules
    conf += "".join("%s\n" % line for line in args.opensm_conf)
    fabric = IbsimFabric(net, workdir, console=True, extra_args=extra)
    fabric.start(timeout=args.timeout)  # loading 32768 hosts takes ibsim minutes
    try:
        sm = fabric.start_opensm(args=setup.args + ["-D", "0x03"], conf=conf, env_extra=env)
        t0 = time.monotonic()
        sm.wait_for_log(SUBNET_UP, timeout=args.timeout)
        up = time.monotonic() - t0
        settle(sm, 0, args.timeout)
        first_window = parse_log(sm.log_since(0)).routing_seconds  # the full routing
        year = datetime.now().year
        for cable in cables:
            sw, port = cable[0], cable[1]
            offset = sm.log_offset()
            start = time.time()
            fabric.console('Unlink "%s"[%d]' % (sw, port))
            sm.wait_for_log(ACKED, timeout=args.timeout, since=offset)
            recovery = sweep_times(sm.log_since(offset), start, year)
            settle(sm, offset, args.timeout)
            check = tables_check(fabric, workdir, "after-fault") if args.check else None
            rows.append(("%s[%d]" % (sw, port), recovery, check))
            offset = sm.log_offset()
            fabric.console('ReLink "%s"[%d]' % (sw, port))
            sm.wait_for_log(ROUTING_STARTS, timeout=args.timeout, since=offset)
            settle(sm, offset, args.timeout)
    finally:
        fabric.stop()
    return up, first_window, rows


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt(v, digits=3):
    return "-" if v is None else "%.*f" % (digits, v)


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--topology", default="kary-ntree --k 16 --n 3")
    p.add_argument("--engines", default="psssp,minhop,ftree,sssp,dfsssp")
    p.add_argument("--cables", type=int, default=3, help="cables to fail, one at a time")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=int, default=900, help="seconds per wait")
    p.add_argument("--ibsim-args", default="",
                   help="extra ibsim arguments, e.g. '-N 40000 -S 2000 -P 400000' "
                   "(later -N/-S/-P override the defaults %s)" % " ".join(IBSIM_LIMITS))
    p.add_argument("--baseline-plugin", metavar="DIR",
                   help="also run psssp from the libpsssp.so in DIR, as engine 'psssp-base'")
    p.add_argument("--check", action="store_true",
                   help="after each recovery, check the switches' tables deliver every "
                   "connected pair on the fabric without the cable (dump_fts, psssp-sim check; "
                   "slow on large fabrics)")
    p.add_argument("--workdir", help="keep logs here (default: a new temporary directory)")
    p.add_argument("--opensm-conf", action="append", default=[], metavar="'KEY VALUE'",
                   help="an opensm.conf line for every engine, e.g. 'max_wire_smps 32' "
                   "(repeatable)")
    args = p.parse_args()
    engines = [e for e in args.engines.split(",") if e]
    if args.baseline_plugin:
        engines.append("psssp-base")
    work = args.workdir or tempfile.mkdtemp(prefix="psssp-recovery-")
    os.makedirs(work, exist_ok=True)
    net = os.path.join(work, "fabric.net")
    run([binary("psssp-topo")] + shlex.split(args.topology) + ["-o", net])
    all_cables = switch_cables(net)
    cables = random.Random(args.seed).sample(all_cables, min(args.cables, len(all_cables)))
    print("fabric: %s (%d switch cables); cables failed one at a time: %s; logs in %s" % (
        args.topology, len(all_cables), ", ".join("%s[%d]" % c[:2] for c in cables), work),
        flush=True)
    results = {}
    failed = 0
    for engine in engines:
        wd = os.path.join(work, engine)
        plugin = os.path.abspath(args.baseline_plugin) if engine == "psssp-base" else None
        try:
            up, first, rows = measure_engine(args, net, engine, cables, wd, plugin)
        except SessionError as e:  # e.g. a time-out at a size the engine cannot handle
            print("  %-10s gave no result: %s" % (engine, e), flush=True)
            results[engine] = (None, None, [])
            continue
        results[engine] = (up, first, rows)
        for cable, r, check in rows:
            print("  %-10s %-24s configured %s s, acked %s s, routing window %s s, "
                  "before routing %s s (%d discoveries)%s%s" % (
                      engine, cable, fmt(r.configured), fmt(r.acked), fmt(r.window),
                      fmt(r.before_routing), r.discoveries,
                      "" if r.engine in (None, engine.split("-")[0])
                      else " (tables by %s)" % r.engine,
                      "" if check is None else "; tables check %s" % ("ok" if check else "FAILED")),
                  flush=True)
            failed += check is False or r.configured is None
    print("\n| engine | subnet up s | first routing window s | recovery to tables configured s "
          "| to last LFT acked s | re-sweep routing window s | before routing s "
          "| engine's share s |")
    print("|---|---|---|---|---|---|---|---|")
    med = {}
    for engine, (up, first, rows) in results.items():
        recoveries = [r for _, r, _ in rows]
        med[engine] = tuple(median(values) for values in (
            [r.configured for r in recoveries], [r.acked for r in recoveries],
            [r.window for r in recoveries], [engine_share(r) for r in recoveries]))
        print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            engine, fmt(up, 1), fmt(first), *(fmt(v) for v in med[engine][:3]),
            fmt(median([r.before_routing for r in recoveries])), fmt(med[engine][3])))
    if "psssp" in med:
        print("\nratios psssp / engine (medians, same run; < 1 means psssp is faster):")
        print("| engine | configured | acked | re-sweep routing window | engine's share |")
        print("|---|---|---|---|---|")
        for engine, values in med.items():
            if engine == "psssp":
                continue
            print("| %s | %s |" % (engine, " | ".join(
                fmt(a / b, 2) if a is not None and b else "-"
                for a, b in zip(med["psssp"], values))))
        # Whether OpenSM discovers once or twice is a race between the two
        # ends' traps, not the engine's doing; it moves a recovery by
        # seconds. The same ratios over the sweeps with one discovery:
        once = {engine: [r for _, r, _ in rows if r.discoveries == 1]
                for engine, (_, _, rows) in results.items()}
        print("\nthe same over the re-sweeps with one OpenSM discovery (%s):" % ", ".join(
            "%s %d" % (engine, len(rs)) for engine, rs in once.items()))
        print("| engine | configured | acked |")
        print("|---|---|---|")
        base = [median([r.configured for r in once["psssp"]]),
                median([r.acked for r in once["psssp"]])]
        for engine, rs in once.items():
            if engine == "psssp":
                continue
            values = [median([r.configured for r in rs]), median([r.acked for r in rs])]
            print("| %s | %s |" % (engine, " | ".join(
                fmt(a / b, 2) if a is not None and b else "-" for a, b in zip(base, values))))
    if failed:
        print("\n%d recoveries without tables or with tables that fail the check" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
