"""Run real OpenSM and infiniband-diags against a fabric emulated by ibsim.

One IbsimFabric owns one ibsim process with its own IBSIM_SOCKNAME, so any
number of sessions (tests, comparison runs) can run side by side. Everything
it starts is stopped by PID, never by name.

    with IbsimFabric("fabric.net", workdir) as fabric:
        run = fabric.run_opensm(["-R", "minhop"])
        tables = fabric.dump_fts()
"""

import os
import re
import signal
import subprocess
import time
import uuid

UMAD2SIM = "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so"
OPENSM = "/usr/sbin/opensm"

# ibsim's default limits are too small for thousands of hosts.
IBSIM_LIMITS = ["-N", "20000", "-S", "4000", "-P", "200000"]


class SessionError(RuntimeError):
    """ibsim or OpenSM did not do what was asked; the message says what."""


class OpensmRun:
    """The outcome of one OpenSM run: log, dump directory, timing."""

    def __init__(self, workdir, log_path, returncode, seconds):
        self.workdir = workdir
        self.log_path = log_path
        self.returncode = returncode
        self.seconds = seconds

    @property
    def log(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def dump(self, name):
        """Path of a dump file OpenSM wrote (opensm-lfts.dump, guid2lid, ...)."""
        return os.path.join(self.workdir, name)

    @property
    def subnet_up(self):
        return "SUBNET UP" in self.log

    def errors(self):
        return [line for line in self.log.splitlines() if " ERR " in line]


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
        self._console_fd = None
        self._children = []

    # -- lifecycle ---------------------------------------------------------
    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def start(self, timeout=120):
        log_path = os.path.join(self.workdir, "ibsim.log")
        args = ["ibsim", "-s"] + IBSIM_LIMITS + self.extra_args
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
        self._ibsim = subprocess.Popen(
            args, stdin=stdin, stdout=self._log, stderr=subprocess.STDOUT,
            env=self._env(preload=False), cwd=self.workdir)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with open(log_path, errors="replace") as f:
                text = f.read()
            if "simulator ready" in text:
                return
            if self._ibsim.poll() is not None:
                raise SessionError("ibsim exited (status %d) on %s:\n%s" % (
                    self._ibsim.returncode, self.net_path, text[-2000:]))
            time.sleep(0.05)
        self.stop()
        raise SessionError("ibsim did not become ready within %ds on %s" % (timeout, self.net_path))

    def stop(self):
        for child in self._children:
            _terminate(child)
        self._children = []
        if self._ibsim is not None:
            _terminate(self._ibsim)
            self._ibsim = None
            self._log.close()
        if self._console_fd is not None:
            os.close(self._console_fd)
            self._console_fd = None

    # -- clients -----------------------------------------------------------
    def _env(self, preload=True, extra=None):
        env = dict(os.environ)
        env["IBSIM_SOCKNAME"] = self.sockname
        if preload:
            env["LD_PRELOAD"] = UMAD2SIM
        else:
            env.pop("LD_PRELOAD", None)
        if extra:
            env.update(extra)
        return env

    def client_env(self, extra=None):
        """Environment for any umad client (saquery, ibroute, ...) on this fabric."""
        return self._env(True, extra)

    def _opensm_args(self, args, conf, rundir):
        os.makedirs(rundir, exist_ok=True)
        log_path = os.path.join(rundir, "opensm.log")
        cmd = [OPENSM, "-e", "-f", log_path, "-s", "0", "-D", "0x43"]
        # Flushing the log lets callers wait for its lines while OpenSM runs.
        text = "force_log_flush TRUE\n"
        if conf is not None:
            text += conf if isinstance(conf, str) else "".join(
                "%s %s\n" % kv for kv in conf.items())
        conf_path = os.path.join(rundir, "opensm.conf")
        with open(conf_path, "w") as f:
            f.write(text)
        cmd += ["-F", conf_path]
        env = self._env(extra={"OSM_TMP_DIR": rundir, "OSM_CACHE_DIR": rundir})
        return cmd + list(args), env, log_path

    def run_opensm(self, args=(), conf=None, rundir=None, timeout=600, env_extra=None):
        """Runs OpenSM once (-o): one sweep, routing, LFTs programmed, exit."""
        rundir = rundir or os.path.join(self.workdir, "opensm-%s" % uuid.uuid4().hex[:6])
        cmd, env, log_path = self._opensm_args(list(args) + ["-o"], conf, rundir)
        if env_extra:
            env.update(env_extra)
        start = time.monotonic()
        with open(os.path.join(rundir, "opensm.out"), "w") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env,
                                    cwd=rundir, start_new_session=True)
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                _terminate(proc)
                raise SessionError("opensm did not finish within %ds (log %s)" % (timeout, log_path))
        return OpensmRun(rundir, log_path, proc.returncode, time.monotonic() - start)

    def start_opensm(self, args=(), conf=None, rundir=None, env_extra=None):
        """Starts a resident OpenSM (re-sweeps on changes); stopped with the session."""
        rundir = rundir or os.path.join(self.workdir, "opensm-%s" % uuid.uuid4().hex[:6])
        cmd, env, log_path = self._opensm_args(args, conf, rundir)
        if env_extra:
            env.update(env_extra)
        out = open(os.path.join(rundir, "opensm.out"), "w")
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=rundir,
                                start_new_session=True)
        out.close()
        self._children.append(proc)
        return ResidentOpensm(proc, OpensmRun(rundir, log_path, None, 0.0))

    def _tool(self, args, timeout=600):
        proc = subprocess.run(args, env=self._env(), capture_output=True, text=True,
                              timeout=timeout, cwd=self.workdir)
        if proc.returncode != 0:
            raise SessionError("%s failed (%d): %s" % (" ".join(args), proc.returncode,
                                                        proc.stderr[-2000:]))
        return proc.stdout

    def dump_fts(self, *args):
        """The LFTs as the emulated switches hold them (dump_fts output).

        dump_fts of infiniband-diags 44 never prints the LID equal to a
        switch's LinearFDBTop when that LID is a multiple of 64 (it skips the
        last 64-entry block); ibsim forwards it correctly (its console's
        `Route` shows so). That entry is read from the switch with smpdump
        (LinearForwardingTable, attribute 0x19) and added in dump_fts -n form.
        """
        return _complete_top_lids(self._tool(["dump_fts"] + list(args)), self._read_lft_block)

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

    def wait_for_log(self, pattern, count=1, timeout=120):
        """Waits until `pattern` (regex) has appeared `count` times in the log."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if os.path.exists(self.run.log_path) and len(regex.findall(self.run.log)) >= count:
                return
            if self.proc.poll() is not None:
                raise SessionError("opensm exited (status %d) waiting for %r; log %s" % (
                    self.proc.returncode, pattern, self.run.log_path))
            time.sleep(0.1)
        raise SessionError("%r did not appear %d times in %s within %ds" % (
            pattern, count, self.run.log_path, timeout))

    def stop(self):
        _terminate(self.proc)


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


def _terminate(proc, grace=5):
    if proc.poll() is not None:
        return
    try:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
