// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "testing/lids_and_lfts.h"

#include <vector>

namespace psssp::testing {

void assign_lids(Fabric& f, std::uint8_t lmc) {
  unsigned next = 1;
  for (NodeId id = 0; id < f.node_count(); ++id) {
    Node& n = f.node(id);
    if (n.guid == 0) n.guid = 0x1000 + id;
    if (!n.is_switch()) continue;
    if (n.ports[0].guid == 0) n.ports[0].guid = n.guid;
    n.ports[0].lmc = 0;
    n.ports[0].lid = static_cast<Lid>(next++);
  }
  const unsigned step = 1u << lmc;
  for (NodeId id = 0; id < f.node_count(); ++id) {
    Node& n = f.node(id);
    if (n.is_switch()) continue;
    for (PortNum p = 1; p < n.ports.size(); ++p) {
      if (n.ports[p].guid == 0) n.ports[p].guid = (static_cast<Guid>(n.guid) << 8) + p;
      if (!n.ports[p].connected()) continue;
      next = (next + step - 1) / step * step;  // LMC ranges are aligned, as OpenSM has them
      n.ports[p].lmc = lmc;
      n.ports[p].lid = static_cast<Lid>(next);
      next += step;
    }
  }
  f.index();
}

ForwardingTables min_hop_lfts(const Fabric& f) {
  ForwardingTables lfts(f);
  std::vector<unsigned> dist(f.node_count());
  std::vector<NodeId> queue;
  for (unsigned lid = 1; lid <= f.max_lid(); ++lid) {
    const PortRef owner = f.port_of_lid(static_cast<Lid>(lid));
    if (!owner.valid()) continue;
    NodeId target = owner.node;
    if (!f.node(target).is_switch()) {
      const Port& p = f.port(owner);
      if (!p.usable()) continue;
      target = p.remote.node;
      lfts.set(target, static_cast<Lid>(lid), p.remote.port);
    } else {
      lfts.set(target, static_cast<Lid>(lid), 0);
    }
    // BFS over switches from the destination switch.
    dist.assign(f.node_count(), ~0u);
    dist[target] = 0;
    queue.assign(1, target);
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const Node& n = f.node(queue[head]);
      for (PortNum p = 1; p < n.ports.size(); ++p) {
        const Port& port = n.ports[p];
        if (!port.usable() || !f.node(port.remote.node).is_switch()) continue;
        if (dist[port.remote.node] != ~0u) continue;
        dist[port.remote.node] = dist[queue[head]] + 1;
        queue.push_back(port.remote.node);
      }
    }
    for (NodeId sw : f.switches()) {
      if (sw == target || dist[sw] == ~0u) continue;
      std::vector<PortNum> best;
      const Node& n = f.node(sw);
      for (PortNum p = 1; p < n.ports.size(); ++p) {
        const Port& port = n.ports[p];
        if (port.usable() && f.node(port.remote.node).is_switch() &&
            dist[port.remote.node] + 1 == dist[sw])
          best.push_back(p);
      }
      lfts.set(sw, static_cast<Lid>(lid), best[lid % best.size()]);
    }
  }
  return lfts;
}

std::uint64_t changed_entries(const Fabric& fabric, const ForwardingTables& a,
                              const ForwardingTables& b) {
  std::uint64_t n = 0;
  for (const NodeId sw : fabric.switches())
    for (unsigned l = 0; l <= fabric.max_lid(); ++l)
      if (a.get(sw, static_cast<Lid>(l)) != b.get(sw, static_cast<Lid>(l))) ++n;
  return n;
}

}  // namespace psssp::testing
