# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Where the load goes, from psssp-sim's per-cable tables: flows per directed
cable (score --link-csv: mean per run and the worst run) and routes per cable
(check --link-csv, the static edge forwarding index), split into host and
switch cables, and the most loaded cables of each routing ("hot spots")."""

import csv
from dataclasses import dataclass


@dataclass
class Cable:
    """One directed cable: the sending end, then the receiving end."""
    node_guid: str
    node: str
    port: int
    remote_guid: str
    remote: str
    remote_port: int
    gbps: float
    kind: str  # "host" (one end is no switch) or "switch"

    @property
    def key(self):
        return (self.node_guid, self.port)

    def name(self):
        """As infiniband-diags names a port: the node description in quotes,
        then the port number; sending end first."""
        return '"%s" port %d -> "%s" port %d' % (self.node, self.port, self.remote,
                                                 self.remote_port)


def _cable(row):
    return Cable(row["node_guid"], row["node"], int(row["port"]), row["remote_guid"],
                 row["remote"], int(row["remote_port"]), float(row["gbps"]), row["kind"])


def read_flows(path):
    """score --link-csv: {routing: [(Cable, mean flows per run, max flows in a run)]}."""
    out = {}
    with open(path, newline="", errors="replace") as f:  # names from a Latin-1 map
        for row in csv.DictReader(f):
            out.setdefault(row["routing"], []).append(
                (_cable(row), float(row["mean_flows"]), int(row["max_flows"])))
    return out


def read_routes(path):
    """check --link-csv: [(Cable, routes over it)]."""
    with open(path, newline="", errors="replace") as f:  # names from a Latin-1 map
        return [(_cable(row), int(row["routes"])) for row in csv.DictReader(f)]


def by_kind(values):
    """[(Cable, value...)] -> {"host": [value], "switch": [value]} for the
    first value after the cable."""
    out = {"host": [], "switch": []}
    for item in values:
        out[item[0].kind].append(item[1])
    return out


def hot_spots(flows, routes, n):
    """The n switch-to-switch cables with the most flows per run (mean; then
    the worst run), each as a dict: name, both ends, kind, mean and max
    flows, and its static routes where `routes` (check's table for the same
    routing) has them. Host cables carry the same flows under every routing
    (the pattern decides them), so they rank only in a fabric without
    switch-to-switch cables."""
    static = {c.key: r for c, r in (routes or [])}
    switch = [item for item in flows if item[0].kind == "switch"]
    ranked = sorted(switch or flows, key=lambda item: (-item[1], -item[2], item[0].node_guid,
                                             item[0].port))
    return [{"cable": c.name(), "node_guid": c.node_guid, "node": c.node, "port": c.port,
             "remote_guid": c.remote_guid, "remote": c.remote, "remote_port": c.remote_port,
             "kind": c.kind, "gbps": c.gbps, "mean_flows": mean, "max_flows": worst,
             "routes": static.get(c.key)} for c, mean, worst in ranked[:n]]
