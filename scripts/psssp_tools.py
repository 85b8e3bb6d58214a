# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Where the project's own binaries are, small wrappers around them, and what
the command-line scripts share: errors, exit statuses, --version, progress."""

import argparse
import contextlib
import dataclasses
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUBDIRS = {"psssp-sim": "simulator", "psssp-topo": "topologies", "psssp-bench": "psssp-bench"}

EXIT_USAGE = 2


class UsageError(Exception):
    """The command cannot run as asked: a bad option, file or missing tool (exit 2)."""


class ToolFailed(RuntimeError):
    """A tool ran and failed; the message has its command and stderr (exit 1)."""


def build_dir():
    """$PSSSP_BUILD; else the source tree's build/ if there is one; else None
    (installed tools, found on PATH)."""
    explicit = os.environ.get("PSSSP_BUILD")
    if explicit:
        return os.path.abspath(explicit)
    default = os.path.join(ROOT, "build")
    return default if os.path.isdir(default) else None


def build_env():
    """PSSSP_BUILD for a child process, so that it finds the build tree this one
    found (absolute: the child may run elsewhere); {} for installed tools."""
    build = build_dir()
    return {"PSSSP_BUILD": build} if build else {}


def binary(name):
    """Path of a tool (psssp-sim, psssp-topo, psssp-bench): from the build tree,
    or from PATH when there is none. Raises UsageError naming where it looked."""
    build = build_dir()
    if build is None:
        found = shutil.which(name)
        if found:
            return found
        raise UsageError("%s not found: no build tree (%s; run make or set PSSSP_BUILD) and "
                         "not on PATH" % (name, os.path.join(ROOT, "build")))
    path = os.path.join(build, SUBDIRS[name], name)
    if not os.access(path, os.X_OK):
        raise UsageError("%s not found: %s does not exist (build %s%s)" % (
            name, path, build, ", from PSSSP_BUILD" if os.environ.get("PSSSP_BUILD") else ""))
    return path


def plugin_env():
    """Environment that makes OpenSM load libpsssp.so from the build tree; empty
    for installed tools (the system library directory has it)."""
    build = build_dir()
    return {"LD_LIBRARY_PATH": os.path.join(build, "opensm-plugin")} if build else {}


def run(args, check=True, **kwargs):
    """Runs a tool, capturing text output; raises ToolFailed with its stderr on failure.
    Bytes that are not UTF-8 (a node name map in Latin-1) read as U+FFFD."""
    args = [str(a) for a in args]
    proc = subprocess.run(args, capture_output=True, text=True, errors="replace", **kwargs)
    if check and proc.returncode != 0:
        raise ToolFailed("%s exited %d:\n%s" % (" ".join(args), proc.returncode,
                                                proc.stderr[-3000:].rstrip()))
    return proc


def kept_routes(work, engine):
    """The LFT dump compare-engines --keep leaves for one engine in OUT/work."""
    return os.path.join(work, "routes", engine + ".fts")


def score_kept(work, engines, options):
    """psssp-sim score's JSON over the tables compare-engines --keep left in
    `work` (its fabric.topo and one dump per engine, named by engine), with
    the score options `options` (pattern, runs, seed, ...)."""
    cmd = [binary("psssp-sim"), "score", os.path.join(work, "fabric.topo"), "--json"] + options
    for e in engines:
        cmd += ["--routes", kept_routes(work, e), "--name", e]
    return json.loads(run(cmd).stdout)


def generate(family, path, *options):
    """Writes an ibsim net file with psssp-topo; returns the path."""
    run([binary("psssp-topo"), family] + [str(o) for o in options] + ["-o", path])
    return path


@dataclasses.dataclass
class Replay:
    """What ibsim loads for a fabric file, and how faithful that is."""
    net: str                 # the file given to ibsim
    captured: bool           # converted from a capture (ibnetdiscover, opensm-subnet.lst)
    rates: dict              # the capture's cables by rate, e.g. {"4xQDR": 120, "1xSDR": 2}
    substituted: dict        # rates ibsim cannot run: {"4xNDR as 4xHDR": 3}
    roots: str = None        # root GUID file of a fat tree (psssp-sim convert --roots), if any

    @property
    def mixed_rates(self):
        return len(self.rates) > 1

    def describe(self):
        """One line for a report: the rates and what the replay changed, never silent."""
        mix = ", ".join("%s %d" % (r, n) for r, n in sorted(self.rates.items()))
        text = "cables by rate: %s" % (mix or "none")
        if self.substituted:
            text += "; ibsim replays %s, scored at the captured rates" % ", ".join(
                "%d cables %s" % (n, what) for what, n in sorted(self.substituted.items()))
        return text


def replay_net(fabric, work):
    """The ibsim net file for `fabric`. A capture is written as a net file by
    psssp-sim convert, so that each cable keeps its width and speed (ibsim
    brings a raw capture up at other rates where its two ends disagree); an
    ibsim net file is used as it is, and so is a file psssp-sim cannot read
    (ibsim's own syntax beyond ours, such as port aliases): ibsim decides.
    Where the fabric is a fat tree, `roots` names its root switches (rule:
    psssp-sim(1), convert --roots)."""
    sim = binary("psssp-sim")
    res = run([sim, "info", fabric, "--json"], check=False)
    if res.returncode != 0:
        return Replay(os.path.abspath(fabric), False, {}, {})
    info = json.loads(res.stdout)
    captured = info["format"] != "ibsim net"
    net = os.path.join(work, "replay.net") if captured else os.devnull
    roots = os.path.join(work, "replay-roots.guids")
    res = run([sim, "convert", fabric, "-o", net, "--roots", roots, "--json"], check=False)
    if res.returncode != 0:
        raise UsageError((res.stderr.strip().splitlines() or ["cannot convert " + fabric])[0])
    report = json.loads(res.stdout)
    return Replay(net if captured else os.path.abspath(fabric), captured,
                  info["cables"]["by_rate"], report["substituted"] if captured else {},
                  roots if report["roots"] else None)


# psssp-sim score's patterns (psssp-sim(1)); file:PATH is checked separately.
# scripts/test_script_arguments.py holds this list to `psssp-sim score --help`.
PATTERNS = ("bisect", "bisect-fb", "permutation", "shift", "ring", "recursive-doubling",
            "dissemination", "halo2d", "halo3d", "gather", "incast")


ORCS_PATTERNS = ("rand", "ring", "recdbl", "tree", "bruck", "scatter", "gather", "neighbor2d")
ORCS_K_PATTERNS = ("neighbor", "receivers")  # orcs:NAME:K


def check_pattern(pattern):
    """Raises UsageError unless psssp-sim score takes `pattern`."""
    if pattern.startswith("orcs:"):
        name, _, k = pattern[5:].partition(":")
        if (name in ORCS_PATTERNS and not k) or (name in ORCS_K_PATTERNS and k.isdigit()
                                                 and int(k) > 0):
            return
        raise UsageError("--pattern %s: unknown (orcs:%s, orcs:%s)" % (
            pattern, ", orcs:".join(ORCS_PATTERNS), ":K, orcs:".join(ORCS_K_PATTERNS) + ":K"))
    if pattern.startswith("file:"):
        if not os.path.isfile(pattern[5:]):
            raise UsageError("--pattern %s: no such file" % pattern)
        return
    if pattern not in PATTERNS:
        raise UsageError("--pattern %s: unknown (known: %s, file:PATH)" % (
            pattern, ", ".join(PATTERNS)))


def add_scoring_arguments(parser):
    """The psssp-sim score options compare-engines and check-fabric pass through."""
    parser.add_argument("--maxmin", action="store_true",
                        help="also the max-min fair eBB (psssp-sim score --maxmin)")
    hosts = parser.add_mutually_exclusive_group()
    hosts.add_argument("--hosts-regex", metavar="RE",
                       help="score only hosts whose node description matches RE")
    hosts.add_argument("--hosts-file", metavar="GUIDS",
                       help="score only the hosts listed by port or node GUID")
    parser.add_argument("--mapping", metavar="M",
                        help="rank -> host mapping of psssp-sim score: linear, hostname, random "
                             "or FILE")
    parser.add_argument("--grid", metavar="AxB[xC]", help="grid of halo2d/halo3d")
    parser.add_argument("--node-name-map", metavar="FILE",
                        help="name nodes in findings by this infiniband-diags node name map")


def check_scoring_files(args):
    """Raises UsageError for a file option of add_scoring_arguments that names no file,
    before anything runs."""
    mapping_file = args.mapping if args.mapping not in (None, "linear", "random", "hostname") \
        else None
    for option, path in (("--hosts-file", args.hosts_file),
                         ("--node-name-map", args.node_name_map), ("--mapping", mapping_file)):
        if path and not os.path.isfile(path):
            raise UsageError("%s %s: no such file" % (option, path))


def check_traffic(fabric, patterns, args):
    """Raises UsageError when psssp-sim score would refuse one of `patterns` or
    a scoring option on this fabric (host selection, grid, ORCS's K against
    the host count), so that a script says so before OpenSM runs. A mapping
    file is not tried here: its LIDs may be the ones OpenSM has yet to assign.
    A fabric psssp-sim cannot read (ibsim's own syntax), or with fewer than
    two host ports (nothing to score, which the run reports), is left to the
    run."""
    for pattern in patterns:
        check_pattern(pattern)
    sim = binary("psssp-sim")
    info = run([sim, "info", fabric, "--json"], check=False)
    if info.returncode != 0 or json.loads(info.stdout)["host_ports"] < 2:
        return
    options = score_options(args, mapping_file=False, maxmin=False)
    for pattern in patterns:
        res = run([sim, "score", fabric, "--pattern", pattern, "--runs", 1, "--dump-patterns",
                   os.devnull] + options, check=False)
        if res.returncode != 0:
            why = res.stderr.strip().splitlines() or ["exit status %d" % res.returncode]
            raise UsageError("--pattern %s: %s" % (pattern,
                                                   why[0].replace("psssp-sim score: ", "")))


def fabric_options(args):
    """The psssp-sim options on the fabric that a script passes to check and score."""
    return ["--node-name-map", args.node_name_map] if args.node_name_map else []


def score_options(args, mapping_file=True, maxmin=True):
    """The psssp-sim score options a script passes through, besides --pattern;
    without a --mapping FILE (mapping_file=False) or --maxmin (maxmin=False)."""
    mapping = args.mapping
    if not mapping_file and mapping not in ("linear", "random", "hostname"):
        mapping = None
    options = fabric_options(args)
    for flag, value in (("--hosts-regex", args.hosts_regex), ("--hosts-file", args.hosts_file),
                        ("--mapping", mapping), ("--grid", args.grid)):
        if value:
            options += [flag, value]
    return options + (["--maxmin"] if args.maxmin and maxmin else [])


def psssp_conf(options=""):
    """opensm.conf lines that load the plugin and select its engine."""
    if "\n" in options or "\r" in options:
        raise UsageError("psssp options must be one line (they become one opensm.conf line)")
    text = "event_plugin_name psssp\nrouting_engine psssp\n"
    if options:
        text += "event_plugin_options %s\n" % options
    return text


VERSION_RE = re.compile(r"\b(\d+\.\d+\.\d+\S*)")
CMAKE_VERSION_RE = re.compile(r"project\s*\(\s*psssp\s+VERSION\s+(\d+\.\d+\.\d+)", re.I)


def version():
    """The project version: what `psssp-sim --version` prints, else (a source
    tree whose psssp-sim predates --version or is not built) CMakeLists.txt's."""
    try:
        proc = subprocess.run([binary("psssp-sim"), "--version"], capture_output=True,
                              text=True, timeout=30)
        found = VERSION_RE.search(proc.stdout) if proc.returncode == 0 else None
        if found:
            return found.group(1)
        why = "psssp-sim --version printed no version"
    except (UsageError, OSError, subprocess.TimeoutExpired) as e:
        why = str(e)
    cmake = os.path.join(ROOT, "CMakeLists.txt")
    try:
        with open(cmake) as f:
            found = CMAKE_VERSION_RE.search(f.read())
        if found:
            return found.group(1)
    except OSError:
        pass
    raise UsageError("cannot tell the version: %s, and %s has no project(psssp VERSION ...)"
                     % (why, cmake))


class ArgumentParser(argparse.ArgumentParser):
    """argparse with one line for a bad argument ("PROG: MESSAGE"), exit 2."""

    def error(self, message):
        self.exit(EXIT_USAGE, "%s: %s (see %s --help)\n" % (self.prog, message, self.prog))


class VersionAction(argparse.Action):
    """--version: looks the version up only when asked."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                 help="print the version and exit"):
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        try:
            print("%s (psssp) %s" % (parser.prog, version()))
        except UsageError as e:
            parser.exit(EXIT_USAGE, "%s: %s\n" % (parser.prog, e))
        parser.exit(0)


def _whole_number(text):
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("'%s' is not a whole number" % text)


def positive_int(text):
    """argparse type: an integer >= 1."""
    value = _whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1, not %s" % text)
    return value


def seed(text):
    """argparse type: psssp-sim's seed, 0 .. 2^64-1."""
    value = _whole_number(text)
    if not 0 <= value < 2 ** 64:
        raise argparse.ArgumentTypeError("must be 0 .. 2^64-1, not %s" % text)
    return value


def progress(message):
    """A time-stamped progress line on standard error."""
    print("[%s] %s" % (time.strftime("%H:%M:%S"), message), file=sys.stderr, flush=True)


_held = None  # SIGTERMs received while sigterm_held() is active
# The signals that end a run cleanly: a CI time limit (SIGTERM), a dropped
# ssh session (SIGHUP), Ctrl-C (SIGINT). Each unwinds like an exception, so
# ibsim and OpenSM are stopped and temporary directories removed.
ENDING_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


def _terminated(signum, frame):
    if _held is not None:
        _held.append(signum)
        return
    raise SystemExit(128 + signum)


@contextlib.contextmanager
def sigterm_held():
    """Holds ENDING_SIGNALS back (until the block ends) while a long-lived child starts
    and is registered for clean-up, so that it never runs on unowned."""
    global _held
    outer = _held
    if outer is None:
        _held = []
    try:
        yield
    finally:
        if outer is None:
            pending, _held = _held, None
            if pending:
                raise SystemExit(128 + pending[0])


def exit_on_error(prog, main, argv):
    """Runs main(argv); a UsageError is one message and exit 2, a failed tool or
    an I/O error one message and exit 1, never a traceback. SIGTERM (a CI time limit)
    unwinds like an exception, so ibsim and OpenSM are stopped and temporary
    directories removed; so do SIGHUP and SIGINT (ENDING_SIGNALS)."""
    for signum in ENDING_SIGNALS:
        signal.signal(signum, _terminated)
    try:
        return main(argv)
    except UsageError as e:
        print("%s: %s" % (prog, e), file=sys.stderr)
        return EXIT_USAGE
    except (ToolFailed, OSError) as e:  # OSError: a file that cannot be written, a full disk
        print("%s: %s" % (prog, e), file=sys.stderr)
        return 1


def layer_dump(directory):
    """The psssp plugin's layer table in an OpenSM dump directory, or None:
    psssp-layers.dump, or psssp-layers.0xPORTGUID.dump when OpenSM ran with
    --guid (one per SM instance)."""
    found = sorted(glob.glob(os.path.join(directory, "psssp-layers*.dump")))
    return found[0] if found else None
