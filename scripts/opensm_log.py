# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""What an OpenSM log says about a routing run: which engine configured the
tables, the ERR lines, the engine's compute time, and the psssp plugin's own
records. The one place the scripts read OpenSM's and the plugin's log lines."""

import re
from dataclasses import dataclass
from datetime import datetime
from typing import List, Optional

# "Nov 23 06:03:10 123456 [7F2A...] 0x02 -> message"
LOG_TIME = re.compile(r"^(\w{3} +\d+ \d\d:\d\d:\d\d) (\d{6}) ")
SUBNET_UP = "SUBNET UP"
CONFIGURED = re.compile(r"(\S+) tables configured on all switches")
ROUTING_STARTS = "ucast_mgr_route: building routing with"

# The plugin's records (opensm-plugin/psssp_plugin.c, build_fwd_tables).
PSSSP_ROUTED = re.compile(
    r"psssp: routed (\d+) switches, (\d+) CAs, (\d+) host ports, (\d+) LIDs in ([0-9.]+) s; "
    r"switch link load max ([0-9.]+) mean ([0-9.]+) routes; (\w+) effort, "
    r"(\d+) refinement passes( \(converged\))?")
PSSSP_LAYERS = re.compile(r"psssp: routes need (\d+) virtual layers, spread over (\d+) "
                          r"\(SL = VL = layer\)(?: in ([0-9.]+) s)?; table in (\S+)")
# dfsssp's own count of the layers its routes need (it then spreads them over
# every available VL for balance, so its SLs in use can be more).
DFSSSP_NEEDED = re.compile(r"dfsssp_remove_deadlocks: Virtual Lanes needed: (\d+)")


@dataclass(frozen=True)
class PssspRecord:
    """The psssp plugin's account of its last routing in the log."""
    switches: int
    cas: int
    host_ports: int
    lids: int
    seconds: float
    max_load: float
    mean_load: float
    effort: str
    refine_passes: int
    converged: bool
    layers_needed: Optional[int] = None  # with vls=N only
    layers: Optional[int] = None
    layer_table: Optional[str] = None
    layer_seconds: Optional[float] = None  # of `seconds` (logs of earlier builds lack it)


@dataclass(frozen=True)
class OpensmLog:
    subnet_up: bool
    configured: List[str]  # engines that configured tables, in log order
    configured_message: Optional[str]  # the last such line, without its time stamp
    errors: List[str]  # ERR messages, without their time stamps
    routing_seconds: Optional[float]  # "building routing with" to "tables configured"
    psssp: Optional[PssspRecord]
    dfsssp_vls_needed: Optional[int] = None  # "Virtual Lanes needed: N"

    @property
    def engine(self):
        """The engine whose tables the switches got last, or None."""
        return self.configured[-1] if self.configured else None


def message(line):
    """A log line without its time stamp and thread prefix."""
    return re.sub(r"^.*?-> ", "", line).strip()


def log_time(line, year=None):
    """Seconds since the epoch of an OpenSM log line (local time; the log
    names no year: `year`, default this one), or None for a line without a
    time stamp."""
    m = LOG_TIME.match(line)
    if not m:
        return None
    t = datetime.strptime("%d %s" % (year or datetime.now().year, m.group(1)),
                          "%Y %b %d %H:%M:%S")
    return t.timestamp() + int(m.group(2)) / 1e6


def _routing_seconds(lines):
    start = None
    for line in lines:
        if ROUTING_STARTS in line and start is None:
            start = log_time(line)
        elif start is not None and CONFIGURED.search(line):
            end = log_time(line)
            return end - start if end is not None else None
    return None


def _psssp_record(text):
    routed = PSSSP_ROUTED.findall(text)
    if not routed:
        return None
    sw, cas, ports, lids, secs, max_load, mean_load, effort, passes, conv = routed[-1]
    layers = PSSSP_LAYERS.findall(text)
    needed, spread, layer_secs, table = layers[-1] if layers else (None, None, None, None)
    return PssspRecord(int(sw), int(cas), int(ports), int(lids), float(secs), float(max_load),
                       float(mean_load), effort, int(passes), bool(conv),
                       int(needed) if needed else None, int(spread) if spread else None, table,
                       float(layer_secs) if layer_secs else None)


def parse_log(text):
    """An OpensmLog from the text of opensm.log."""
    lines = text.splitlines()
    configured = [l for l in lines if CONFIGURED.search(l)]
    return OpensmLog(
        subnet_up=SUBNET_UP in text,
        configured=[CONFIGURED.search(l).group(1) for l in configured],
        configured_message=message(configured[-1]) if configured else None,
        errors=[message(l) for l in lines if " ERR " in l],
        routing_seconds=_routing_seconds(lines),
        psssp=_psssp_record(text),
        dfsssp_vls_needed=int(DFSSSP_NEEDED.findall(text)[-1]) if DFSSSP_NEEDED.search(text)
        else None)


def complaint(output):
    """OpenSM's reason from what it printed (opensm.out) when it wrote no log:
    its first "opensm: ..." line (getopt's "unrecognized option", after
    OpenSM's own path), else the
    last line that is not a rule; "" when it printed nothing."""
    lines = [l.strip() for l in output.splitlines() if l.strip().strip("-")]
    said = [l for l in lines if re.match(r"(\S*/)?opensm: ", l)]  # argv[0] may be a path
    return said[0] if said else (lines[-1] if lines else "")
