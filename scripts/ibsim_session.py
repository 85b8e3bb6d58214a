# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Run real OpenSM and infiniband-diags against a fabric emulated by ibsim.

One IbsimFabric owns one ibsim process with its own IBSIM_SOCKNAME, so any
number of sessions (tests, comparison runs) can run side by side. Everything
it starts is stopped by PID, never by name.

    with IbsimFabric("fabric.net", workdir) as fabric:
        run = fabric.run_opensm(["-R", "minhop"])
        tables = fabric.dump_fts()
"""

import glob
import os
import re
import shutil
import signal
import subprocess
import sysconfig
import time
import uuid

from opensm_log import SUBNET_UP
from psssp_tools import ToolFailed, UsageError, sigterm_held

# ibsim's default limits are too small for thousands of hosts.
IBSIM_LIMITS = ["-N", "20000", "-S", "4000", "-P", "200000"]

# The sweep interval (seconds) of a run-once OpenSM (-o). Its main thread
# waits for SUBNET UP in slices of the interval, and with -s 0 a slice is
# no wait at all: it spins on one core for the whole sweep, taking that core
# from the routing engine (a 5256-host dragonfly: psssp's two threads got
# about one core). 4000 s: no periodic sweep comes within any run's
# time-out, and the wait, in microseconds, still fits its 32 bits (4294 s).
ONCE_SWEEP_INTERVAL = 4000

# The programs a session runs, with the Debian package that has each. OpenSM
# and the diagnostics live in /usr/sbin, which a user's PATH may lack.
# opensm.conf keys that name where OpenSM writes. A session replaces them
# with its run directory, so a production conf (`opensm -c` writes
# dump_files_dir /var/log/) never touches the live SM's files, and the dumps
# a caller reads are this run's.
OUTPUT_KEYS = ("dump_files_dir", "log_file", "sa_db_file", "event_db_dump_file")
# Ways to make OpenSM fork into the background, where a session could not stop it.
DAEMON_ARGS = ("-B", "--daemon")

TOOLS = {"ibsim": "ibsim-utils", "opensm": "opensm", "dump_fts": "infiniband-diags",
         "ibnetdiscover": "infiniband-diags", "smpdump": "infiniband-diags"}
SBIN = ["/usr/local/sbin", "/usr/sbin", "/sbin"]


class SessionError(ToolFailed):
    """ibsim or OpenSM did not do what was asked; the message says what."""


class MissingPrerequisite(SessionError, UsageError):
    """A program or library the session needs is not installed."""


class FabricRejected(SessionError, UsageError):
    """ibsim cannot load the fabric file."""


def find_tool(name):
    """Full path of one of TOOLS, searching PATH and then the sbin directories."""
    search = os.pathsep.join([os.environ.get("PATH", os.defpath)] + SBIN)
    path = shutil.which(name, path=search)
    if path is None:
        raise MissingPrerequisite("%s not found on PATH or in %s (Debian package %s)" % (
            name, ", ".join(SBIN), TOOLS[name]))
    return path


def find_umad2sim():
    """libumad2sim.so (package libumad2sim0): this machine's multiarch directory
    first, else the one copy a glob over /usr/lib finds."""
    multiarch = sysconfig.get_config_var("MULTIARCH")
    native = "/usr/lib/%s/umad2sim/libumad2sim.so" % multiarch if multiarch else None
    if native and os.path.exists(native):
        return native
    found = sorted(glob.glob("/usr/lib/*/umad2sim/libumad2sim.so") +
                   glob.glob("/usr/lib/umad2sim/libumad2sim.so"))
    if len(found) == 1:
        return found[0]
    if not found:
        raise MissingPrerequisite("libumad2sim.so not found under /usr/lib/*/umad2sim "
                                  "(Debian package libumad2sim0)")
    raise MissingPrerequisite("several libumad2sim.so and none for this machine (%s): %s" % (
        multiarch, ", ".join(found)))


def check_prerequisites():
    """Raises MissingPrerequisite for the first program or library that is missing,
    so a script can say so before it starts anything."""
    for name in TOOLS:
        find_tool(name)
    find_umad2sim()


class OpensmRun:
    """The outcome of one OpenSM run: log, dump directory, timing."""

    def __init__(self, workdir, log_path, returncode, seconds):
        self.workdir = workdir
        self.log_path = log_path
        self.returncode = returncode
        self.seconds = seconds

    @property
    def log(self):
        """The log's text; empty when OpenSM wrote none (it refused its arguments)."""
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return ""

    @property
    def output(self):
        """What OpenSM printed on stdout and stderr (opensm.out)."""
        try:
            with open(os.path.join(self.workdir, "opensm.out"), errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def dump(self, name):
        """Path of a dump file OpenSM wrote (opensm-lfts.dump, guid2lid, ...)."""
        return os.path.join(self.workdir, name)

    @property
    def subnet_up(self):
        return SUBNET_UP in self.log


class IbsimFabric:
    def __init__(self, net_path, workdir, console=False, extra_args=()):
        self.net_path = os.path.abspath(net_path)
        self.workdir = os.path.abspath(workdir)
        os.makedirs(self.workdir, exist_ok=True)
        # Socket names are global on the machine: make them unique per session.
        self.sockname = "psssp-%d-%s" % (os.getpid(), uuid.uuid4().hex[:8])
        self.console_enabled = console
        self.extra_args = list(extra_args)
        self._ibsim = None
        self._log = None
        self._console_fd = None
        self._children = []  # OpenSM processes, stopped with the session

    # -- lifecycle ---------------------------------------------------------
    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def start(self, timeout=120):
        try:
            self._start(timeout)
        except BaseException:
            self.stop()  # also on SIGTERM's SystemExit: nothing is left running
            raise

    def _start(self, timeout):
        log_path = os.path.join(self.workdir, "ibsim.log")
        args = [find_tool("ibsim"), "-s"] + IBSIM_LIMITS + self.extra_args
        if self.console_enabled:
            # The console reads stdin: feed it from a FIFO we keep open for
            # writing, so it never sees end-of-file (which makes it spin).
            fifo = os.path.join(self.workdir, "ibsim.console")
            if not os.path.exists(fifo):
                os.mkfifo(fifo, 0o600)
            self._console_fd = os.open(fifo, os.O_RDWR)
            stdin = self._console_fd
        else:
            args.append("-n")
            stdin = subprocess.DEVNULL
        args.append(self.net_path)
        self._log = open(log_path, "w")
        with sigterm_held():
            self._ibsim = subprocess.Popen(
                args, stdin=stdin, stdout=self._log, stderr=subprocess.STDOUT,
                env=self._env(preload=False), cwd=self.workdir)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            exited = self._ibsim.poll() is not None
            with open(log_path, errors="replace") as f:
                text = f.read()
            if "simulator ready" in text:
                return
            if exited:
                status = self._ibsim.returncode
                raise FabricRejected("ibsim cannot load %s (exit status %d): %s" % (
                    self.net_path, status, _ibsim_complaint(text)))
            time.sleep(0.05)
        raise SessionError("ibsim did not become ready within %ds on %s" % (timeout, self.net_path))

    def stop(self):
        for child in self._children:
            _terminate(child)
        self._children = []
        if self._ibsim is not None:
            _terminate(self._ibsim)
            self._ibsim = None
        if self._log is not None:
            self._log.close()
            self._log = None
        if self._console_fd is not None:
            os.close(self._console_fd)
            self._console_fd = None

    # -- clients -----------------------------------------------------------
    def _env(self, preload=True, extra=None):
        env = dict(os.environ)
        env["IBSIM_SOCKNAME"] = self.sockname
        if preload:
            env["LD_PRELOAD"] = find_umad2sim()
        else:
            env.pop("LD_PRELOAD", None)
        if extra:
            env.update(extra)
        return env

    def client_env(self, extra=None):
        """Environment for any umad client (saquery, ibroute, ...) on this fabric."""
        return self._env(True, extra)

    def _opensm_args(self, args, conf, rundir, sweep_interval=0):
        daemon = [a for a in args if a in DAEMON_ARGS]
        if daemon:
            raise UsageError("OpenSM argument %s: the harness runs OpenSM in the foreground "
                             "and stops it itself; a daemon would outlive it" % daemon[0])
        # A fresh run directory: nothing an earlier run left (layer tables,
        # path-SL dumps, guid2lid) can pass for this run's.
        shutil.rmtree(rundir, ignore_errors=True)
        os.makedirs(rundir)
        log_path = os.path.join(rundir, "opensm.log")
        cmd = [find_tool("opensm"), "-e", "-f", log_path, "-s", str(sweep_interval), "-D", "0x43"]
        # Flushing the log lets callers wait for its lines while OpenSM runs.
        text = "force_log_flush TRUE\n"
        if conf is not None:
            text += conf if isinstance(conf, str) else "".join(
                "%s %s\n" % kv for kv in conf.items())
        text = _own_outputs(text, rundir)
        conf_path = os.path.join(rundir, "opensm.conf")
        with open(conf_path, "w") as f:
            f.write(text)
        cmd += ["-F", conf_path]
        env = self._env(extra={"OSM_TMP_DIR": rundir, "OSM_CACHE_DIR": rundir})
        return cmd + list(args), env, log_path

    def run_opensm(self, args=(), conf=None, rundir=None, timeout=600, env_extra=None,
                   waiting=None, every=30):
        """Runs OpenSM once (-o): one sweep, routing, LFTs programmed, exit.
        waiting(seconds so far) is called every `every` seconds while it runs."""
        rundir = rundir or os.path.join(self.workdir, "opensm-%s" % uuid.uuid4().hex[:6])
        cmd, env, log_path = self._opensm_args(list(args) + ["-o"], conf, rundir,
                                               ONCE_SWEEP_INTERVAL)
        if env_extra:
            env.update(env_extra)
        start = time.monotonic()
        with open(os.path.join(rundir, "opensm.out"), "w") as out:
            with sigterm_held():
                proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env,
                                        cwd=rundir, start_new_session=True)
                self._children.append(proc)
            try:
                while True:
                    left = start + timeout - time.monotonic()
                    try:
                        proc.wait(timeout=max(0, min(every, left)))
                        break
                    except subprocess.TimeoutExpired:
                        if time.monotonic() >= start + timeout:
                            # No log path: callers keep the log where it outlives them.
                            raise SessionError("opensm did not finish within %ds" % timeout)
                        if waiting:
                            waiting(time.monotonic() - start)
            finally:
                _terminate(proc)  # after a time-out, or an exception such as SIGTERM's
                self._children.remove(proc)
        return OpensmRun(rundir, log_path, proc.returncode, time.monotonic() - start)

    def start_opensm(self, args=(), conf=None, rundir=None, env_extra=None):
        """Starts a resident OpenSM (re-sweeps on changes); stopped with the session."""
        rundir = rundir or os.path.join(self.workdir, "opensm-%s" % uuid.uuid4().hex[:6])
        cmd, env, log_path = self._opensm_args(args, conf, rundir)
        if env_extra:
            env.update(env_extra)
        with open(os.path.join(rundir, "opensm.out"), "w") as out, sigterm_held():
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env,
                                    cwd=rundir, start_new_session=True)
            self._children.append(proc)
        return ResidentOpensm(proc, OpensmRun(rundir, log_path, None, 0.0))

    def _tool(self, args, timeout=600, failed_reads=None, attempts=3):
        """A diagnostic's standard output. failed_reads: a text the tool prints
        on standard error when a MAD went unanswered while its exit status
        stays 0 (dump_fts then prints the block it did not get as port 0
        entries, black holes that are not there): the tool runs again, up to
        `attempts` times, then fails."""
        args = [find_tool(args[0])] + list(args[1:])
        for _ in range(attempts):
            proc = subprocess.run(args, env=self._env(), capture_output=True, text=True,
                                  timeout=timeout, cwd=self.workdir)
            if proc.returncode != 0:
                raise SessionError("%s failed (%d): %s" % (" ".join(args), proc.returncode,
                                                            proc.stderr[-2000:]))
            if failed_reads is None or failed_reads not in proc.stderr:
                return proc.stdout
        raise SessionError("%s: %s, %d times: %s" % (" ".join(args), failed_reads, attempts,
                                                      proc.stderr.strip()[-2000:]))

    def dump_fts(self, *args):
        """The LFTs as the emulated switches hold them (dump_fts output).

        dump_fts of infiniband-diags 44 leaves out two kinds of entries:
        - ports above 127: it holds the block in signed chars, so such a port
          reads as beyond the switch and is dropped as "illegal" (with -a it
          is printed, its true number intact). So dump_fts runs with -a, and
          only the unrouted entries (255) are dropped, as plain dump_fts does;
          an entry to a port the switch lacks stays, for the check to find.
        - the LID equal to a switch's LinearFDBTop when that LID is a multiple
          of 64 (it skips the last 64-entry block); ibsim forwards it
          correctly (its console's `Route` shows so). That entry is read from
          the switch with smpdump (LinearForwardingTable, attribute 0x19) and
          added in dump_fts -n form.
        """
        text = _drop_unrouted(self._tool(["dump_fts", "-a"] + list(args),
                                         failed_reads="SubnGet(LFT) failed"))
        return _complete_top_lids(text, self._read_lft_block)

    def _read_lft_block(self, dr_path, block):
        out = self._tool(["smpdump", "-D", dr_path, "0x19", str(block)])
        return bytes.fromhex("".join(out.split("SMP status")[0].split()))

    def ibnetdiscover(self, *args):
        return self._tool(["ibnetdiscover"] + list(args))

    def console(self, command):
        """Sends one command to ibsim's console (needs console=True)."""
        if self._console_fd is None:
            raise SessionError("this ibsim session was started without a console")
        os.write(self._console_fd, (command.strip() + "\n").encode())


class ResidentOpensm:
    def __init__(self, proc, run):
        self.proc = proc
        self.run = run

    def log_offset(self):
        """The log's size now: pass it as `since` to wait for what comes next."""
        return os.path.getsize(self.run.log_path) if os.path.exists(self.run.log_path) else 0

    def log_since(self, offset):
        """The log's text after byte `offset`."""
        if not os.path.exists(self.run.log_path):
            return ""
        with open(self.run.log_path, errors="replace") as f:
            f.seek(offset)
            return f.read()

    def wait_for_log(self, pattern, count=1, timeout=120, since=0):
        """Waits until `pattern` (regex) has appeared `count` times in the log
        after byte `since`."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(regex.findall(self.log_since(since))) >= count:
                return
            if self.proc.poll() is not None:
                raise SessionError("opensm exited (status %d) waiting for %r; log %s" % (
                    self.proc.returncode, pattern, self.run.log_path))
            time.sleep(0.1)
        raise SessionError("%r did not appear %d times in %s within %ds" % (
            pattern, count, self.run.log_path, timeout))

    def stop(self):
        _terminate(self.proc)


_FTS_ENTRY = re.compile(r"^0x[0-9a-f]+ (\d+)")
_FTS_TRAILER = re.compile(r"^(\d+) lids dumped")


def _drop_unrouted(text):
    """dump_fts -a output as plain dump_fts prints it, except for the entries
    plain dump_fts drops by mistake: unrouted entries (port 255) out, each
    switch's count of the rest in its "valid lids dumped" line."""
    out, count = [], 0
    for line in text.splitlines(keepends=True):
        entry = _FTS_ENTRY.match(line)
        if entry and int(entry.group(1)) == 255:
            continue
        if entry:
            count += 1
        trailer = _FTS_TRAILER.match(line)
        if trailer:
            line = "%d valid lids dumped \n" % count
            count = 0
        if line.startswith("Unicast lids"):
            count = 0
        out.append(line)
    return "".join(out)


_FTS_HEADER = re.compile(r"^Unicast lids \[0x0-0x([0-9a-f]+)\] of switch DR path "
                         r"slid \d+; dlid \d+; ([\d,]+) guid")


def _complete_top_lids(text, read_block):
    """Adds each switch's top LID entry that dump_fts left out (see dump_fts)."""
    out, top, path, seen_top = [], None, None, False
    for line in text.splitlines(keepends=True):
        m = _FTS_HEADER.match(line)
        if m:
            top, path, seen_top = int(m.group(1), 16), m.group(2), False
        elif top is not None and line.startswith("0x%04x " % top):
            seen_top = True
        elif top is not None and "valid lids dumped" in line:
            if top and top % 64 == 0 and not seen_top:
                port = read_block(path, top // 64)[0]
                if port != 0xFF:
                    out.append("0x%04x %03u \n" % (top, port))
                    count = int(line.split()[0]) + 1
                    line = line.replace(line.split()[0], str(count), 1)
            top = None
        out.append(line)
    return "".join(out)


def _own_outputs(conf_text, rundir):
    """conf_text with OUTPUT_KEYS and `daemon` taken out, and the dumps sent to
    rundir. A conf that asks for a daemon is refused, as -B is."""
    kept = []
    for line in conf_text.splitlines():
        words = line.split()
        key = words[0] if words else ""
        if key == "daemon" and len(words) > 1 and words[1].upper() == "TRUE":
            raise UsageError("opensm.conf says 'daemon TRUE': the harness runs OpenSM in "
                             "the foreground and stops it itself")
        if key not in OUTPUT_KEYS:
            kept.append(line)
    kept.append("dump_files_dir %s" % rundir)
    return "\n".join(kept) + "\n"


def _ibsim_complaint(log_text):
    """ibsim's warnings and errors from its log, on one line."""
    lines = [re.sub(r"^(ib\w+): \[\d+\] ", r"\1: ", l.strip()) for l in log_text.splitlines()
             if l.startswith(("ibwarn", "ibpanic", "iberror"))]
    return "; ".join(lines[-5:]) or log_text.strip()[-500:] or "no message"


def _terminate(proc, grace=5):
    if proc.poll() is not None:
        return
    try:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
