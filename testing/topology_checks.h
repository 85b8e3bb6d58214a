// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Shared checks for the topology tests.
#pragma once

#include <set>
#include <utility>

#include "fabric/fabric.h"
#include "topologies/builder.h"

namespace psssp::topo::test {

inline BuildOptions dual_port() {
  BuildOptions options;
  options.dual_port = true;
  return options;
}

struct Counts {
  std::size_t switches = 0, hosts = 0, switch_cables = 0, host_cables = 0;
};

inline Counts count(const Fabric& f) {
  Counts c;
  for (NodeId id = 0; id < f.node_count(); ++id) {
    const Node& n = f.node(id);
    (n.is_switch() ? c.switches : c.hosts)++;
    for (PortNum p = 1; p <= n.num_ports(); ++p) {
      const PortRef r = n.ports[p].remote;
      if (!r.valid() || r.node < id || (r.node == id && r.port < p)) continue;
      (n.is_switch() && f.node(r.node).is_switch() ? c.switch_cables : c.host_cables)++;
    }
  }
  return c;
}

// Cabled ports of a switch that lead to other switches.
inline unsigned switch_degree(const Fabric& f, NodeId id) {
  unsigned d = 0;
  for (const Port& p : f.node(id).ports)
    if (p.connected() && f.node(p.remote.node).is_switch()) ++d;
  return d;
}

inline unsigned host_ports(const Fabric& f, NodeId id) {
  unsigned d = 0;
  for (const Port& p : f.node(id).ports)
    if (p.connected() && !f.node(p.remote.node).is_switch()) ++d;
  return d;
}

// Distinct switch pairs joined by at least one cable.
inline std::set<std::pair<NodeId, NodeId>> switch_pairs(const Fabric& f) {
  std::set<std::pair<NodeId, NodeId>> pairs;
  for (NodeId id : f.switches())
    for (const Port& p : f.node(id).ports)
      if (p.connected() && f.node(p.remote.node).is_switch())
        pairs.insert({std::min(id, p.remote.node), std::max(id, p.remote.node)});
  return pairs;
}

}  // namespace psssp::topo::test
