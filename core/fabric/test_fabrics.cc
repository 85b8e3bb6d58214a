// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "test_fabrics.h"

#include <string>

namespace psssp::testing {
namespace {

// Adds `count` switches with `hosts` hosts each and `fabric_ports` spare ports.
std::vector<NodeId> add_switches(Fabric& f, unsigned count, unsigned hosts, unsigned fabric_ports) {
  std::vector<NodeId> ids;
  for (unsigned i = 0; i < count; ++i)
    ids.push_back(f.add_node(NodeType::switch_node, "s" + std::to_string(i),
                             static_cast<PortNum>(hosts + fabric_ports)));
  for (unsigned i = 0; i < count; ++i)
    for (unsigned k = 0; k < hosts; ++k) {
      const NodeId h =
          f.add_node(NodeType::ca, "h" + std::to_string(i) + "-" + std::to_string(k), 1);
      f.connect(PortRef{h, 1}, PortRef{ids[i], static_cast<PortNum>(k + 1)});
    }
  return ids;
}

}  // namespace

Fabric ring(unsigned switches, unsigned hosts) { return grid({switches}, true, hosts); }

Fabric grid(const std::vector<unsigned>& dims, bool wrap, unsigned hosts) {
  Fabric f;
  unsigned count = 1;
  for (unsigned d : dims) count *= d;
  const auto ndim = static_cast<unsigned>(dims.size());
  const std::vector<NodeId> sw = add_switches(f, count, hosts, 2 * ndim);
  unsigned stride = 1;
  for (unsigned dim = 0; dim < ndim; ++dim) {
    const unsigned size = dims[dim];
    for (unsigned i = 0; i < count; ++i) {
      const unsigned coord = (i / stride) % size;
      if (coord + 1 == size && (!wrap || size <= 2)) continue;  // no wrap on 1- and 2-rings
      const unsigned j = coord + 1 == size ? i - coord * stride : i + stride;
      // Port hosts+2*dim+1 is "+", hosts+2*dim+2 is "-".
      f.connect(PortRef{sw[i], static_cast<PortNum>(hosts + 2 * dim + 1)},
                PortRef{sw[j], static_cast<PortNum>(hosts + 2 * dim + 2)});
    }
    stride *= size;
  }
  assign_lids(f);
  return f;
}

Fabric fat_tree(unsigned leaves, unsigned spines, unsigned hosts_per_leaf) {
  Fabric f;
  const std::vector<NodeId> leaf = add_switches(f, leaves, hosts_per_leaf, spines);
  std::vector<NodeId> spine;
  for (unsigned s = 0; s < spines; ++s)
    spine.push_back(f.add_node(NodeType::switch_node, "spine" + std::to_string(s),
                               static_cast<PortNum>(leaves)));
  for (unsigned l = 0; l < leaves; ++l)
    for (unsigned s = 0; s < spines; ++s)
      f.connect(PortRef{leaf[l], static_cast<PortNum>(hosts_per_leaf + s + 1)},
                PortRef{spine[s], static_cast<PortNum>(l + 1)});
  assign_lids(f);
  return f;
}

void assign_lids(Fabric& f, std::uint8_t lmc) {
  unsigned next = 1;
  for (NodeId id = 0; id < f.node_count(); ++id) {
    Node& n = f.node(id);
    if (n.guid == 0) n.guid = 0x1000 + id;
    if (!n.is_switch()) continue;
    n.ports[0].guid = n.guid;
    n.ports[0].lid = static_cast<Lid>(next++);
  }
  for (NodeId id = 0; id < f.node_count(); ++id) {
    Node& n = f.node(id);
    if (n.is_switch()) continue;
    for (PortNum p = 1; p < n.ports.size(); ++p) {
      n.ports[p].guid = (static_cast<Guid>(n.guid) << 8) + p;
      n.ports[p].lmc = lmc;
      n.ports[p].lid = static_cast<Lid>(next);
      next += 1u << lmc;
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

}  // namespace psssp::testing
