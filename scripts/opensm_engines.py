# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""How to run each OpenSM routing engine fairly, and what its run came to."""

from dataclasses import dataclass
from typing import Optional

from opensm_log import complaint
from psssp_tools import plugin_env, psssp_conf

ALL_ENGINES = ["minhop", "updn", "dnup", "ftree", "dor", "lash", "torus-2QoS", "nue", "sssp",
               "dfsssp", "psssp"]

# Engines that put routes on SLs need QoS on so OpenSM programs SL-to-VL maps.
NEEDS_QOS = {"lash", "dfsssp", "nue", "torus-2QoS"}

# The event plugin (opensm-plugin/path_sl_dump.c) loaded with every engine:
# after routing it writes PATH_SL_DUMP, the SL the SA gives each host pair's
# path, in the SL file format of psssp-sim check --sl-file.
PATH_SL_PLUGIN = "psssp_pathsl"
PATH_SL_DUMP = "psssp-path-sl.dump"


def with_path_sl_plugin(conf):
    """opensm.conf text that also loads PATH_SL_PLUGIN: added to the conf's
    event_plugin_name line (OpenSM takes several names, space-separated), or
    a line of its own."""
    lines, added = [], False
    for line in (conf or "").splitlines():
        words = line.split()
        if words[:1] == ["event_plugin_name"] and not added:
            if PATH_SL_PLUGIN not in words[1:]:
                line = line.rstrip() + " " + PATH_SL_PLUGIN
            added = True
        lines.append(line)
    if not added:
        lines.append("event_plugin_name " + PATH_SL_PLUGIN)
    return "\n".join(lines) + "\n"


class EngineSetup:
    """Command-line arguments, config text and environment for one engine."""

    def __init__(self, engine, roots=None, torus_conf=None, psssp_options=""):
        self.engine = engine
        self.args = []
        self.conf = ""
        self.env = {}
        self.notes = []
        self.env = plugin_env()
        if engine == "psssp":
            self.conf = with_path_sl_plugin(psssp_conf(psssp_options))
            self.notes.append("plugin" + (" (%s)" % psssp_options if psssp_options else ""))
        else:
            self.conf = with_path_sl_plugin("")
            self.args += ["-R", engine]
        if engine == "nue":
            # The credit-loop check follows routes to switch LIDs too (SA and
            # performance queries travel on data VLs); by default Nue leaves
            # them out of its deadlock avoidance.
            self.conf += "nue_include_switches TRUE\n"
            self.notes.append("nue_include_switches")
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


@dataclass(frozen=True)
class Outcome:
    """configured / fell back to ENGINE / failed / timed out, with the evidence."""
    status: str
    evidence: str = ""
    compute_seconds: Optional[float] = None  # the engine's routing time in the log

    @property
    def usable(self):
        """Tables exist on the switches (configured, or a fallback's)."""
        return self.status == "configured" or self.status.startswith("fell back")


def outcome(engine, log, returncode, timed_out=False, output=""):
    """The Outcome of one OpenSM run of `engine` from its parsed log (OpensmLog)
    and what OpenSM printed (`output`: the reason when it refused its arguments
    and wrote no log)."""
    if timed_out:
        return Outcome("timed out", "no result within the time limit")
    if log.engine and log.engine.lower() == engine.lower():
        return Outcome("configured", "", log.routing_seconds)
    status = "fell back to %s" % log.engine if log.engine else "failed"
    said = complaint(output)
    if log.errors:
        evidence = log.errors[0]
    elif log.engine:
        evidence = "%s gave no tables (no ERR line in the log)" % engine
    elif said:
        evidence = "exit status %s: %s" % (returncode, said)
    else:
        evidence = "exit status %s, no tables configured" % returncode
    return Outcome(status, evidence, log.routing_seconds)
