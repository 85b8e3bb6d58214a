"""How to run each OpenSM routing engine fairly, and how to read its outcome
from OpenSM's log."""

import re
from datetime import datetime

from psssp_tools import plugin_env, psssp_conf

ALL_ENGINES = ["minhop", "updn", "dnup", "ftree", "dor", "lash", "torus-2QoS", "nue", "sssp",
               "dfsssp", "psssp"]

# Engines that put routes on SLs need QoS on so OpenSM programs SL-to-VL maps.
NEEDS_QOS = {"lash", "dfsssp", "nue", "torus-2QoS"}

LOG_TIME = re.compile(r"^(\w{3} +\d+ \d\d:\d\d:\d\d) (\d{6}) ")


class EngineSetup:
    """Command-line arguments, config text and environment for one engine."""

    def __init__(self, engine, roots=None, torus_conf=None, psssp_options=""):
        self.engine = engine
        self.args = []
        self.conf = ""
        self.env = {}
        self.notes = []
        if engine == "psssp":
            self.conf = psssp_conf(psssp_options)
            self.env = plugin_env()
            self.notes.append("plugin" + (" (%s)" % psssp_options if psssp_options else ""))
        else:
            self.args += ["-R", engine]
        if engine in ("updn", "dnup", "ftree") and roots:
            self.args += ["-a", roots]
            self.notes.append("root_guid_file")
        if engine == "torus-2QoS":
            if torus_conf:
                self.args += ["--torus_config", torus_conf]
                self.notes.append("torus-2QoS.conf")
            else:
                self.notes.append("no torus-2QoS.conf (not a generated torus)")
        # VERBOSE (0x04) brackets the engine's compute time in the log.
        self.log_flags = "0x07"
        if engine in NEEDS_QOS or (engine == "psssp" and "vls=" in psssp_options):
            self.args.append("-Q")
            self.notes.append("-Q")
            self.log_flags = "0x47"  # also dump opensm-sl2vl.dump for the credit-loop check

    def describe(self):
        return ", ".join(self.notes) or "defaults"


def _stamp(line):
    m = LOG_TIME.match(line)
    if not m:
        return None
    t = datetime.strptime(m.group(1), "%b %d %H:%M:%S")
    return t.day * 86400 + t.hour * 3600 + t.minute * 60 + t.second + int(m.group(2)) / 1e6


class Outcome:
    """configured / fell back to minhop / failed / timed out, with evidence."""

    def __init__(self, engine, log_text, returncode, timed_out=False):
        self.engine = engine
        self.evidence = ""
        self.compute_seconds = None
        configured = re.findall(r"(\S+) tables configured on all switches", log_text)
        errors = [l for l in log_text.splitlines() if " ERR " in l]
        if timed_out:
            self.status = "timed out"
        elif configured and configured[-1].lower() == engine.lower():
            self.status = "configured"
        elif configured:
            self.status = "fell back to %s" % configured[-1]
        else:
            self.status = "failed"
        if timed_out:
            self.evidence = "no result within the time limit"
        elif self.status != "configured":
            if errors:
                self.evidence = re.sub(r"^.*?-> ", "", errors[0]).strip()
            elif configured:
                self.evidence = "%s gave no tables (no ERR line in the log)" % engine
            else:
                self.evidence = "exit status %s, no tables configured" % returncode
        self._timing(log_text)

    def _timing(self, log_text):
        start = end = None
        for line in log_text.splitlines():
            if "ucast_mgr_route: building routing with" in line and start is None:
                start = _stamp(line)
            elif "tables configured on all switches" in line and start is not None:
                end = _stamp(line)
                break
        if start is not None and end is not None:
            self.compute_seconds = end - start

    @property
    def usable(self):
        """Tables exist on the switches (configured, or a fallback's)."""
        return self.status == "configured" or self.status.startswith("fell back")
