// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "route_walk.h"

namespace psssp::deadlock {

std::vector<SourceSwitch> source_switches(const Fabric& fabric) {
  std::vector<std::int64_t> index(fabric.node_count(), -1);
  std::vector<SourceSwitch> out;
  for (NodeId sw : fabric.switches()) {
    index[sw] = static_cast<std::int64_t>(out.size());
    out.push_back(SourceSwitch{sw, {}});
  }
  for (PortRef host : fabric.host_ports()) {
    const Port& port = fabric.port(host);
    if (!port.usable() || !fabric.node(port.remote.node).is_switch()) continue;
    out[static_cast<std::size_t>(index[port.remote.node])].ports.push_back(
        SourcePort{port.remote.port, port.lid, port.lid_count()});
  }
  std::vector<SourceSwitch> sources;
  for (SourceSwitch& s : out)
    if (!s.ports.empty()) sources.push_back(std::move(s));
  return sources;
}

std::vector<Lid> destination_lids(const Fabric& fabric) {
  std::vector<Lid> lids;
  for (unsigned lid = 1; lid <= fabric.max_lid(); ++lid)
    if (fabric.port_of_lid(static_cast<Lid>(lid)).valid()) lids.push_back(static_cast<Lid>(lid));
  return lids;
}

WalkEnd walk_route(const Fabric& fabric, const ForwardingTables& lfts, NodeId source, Lid dlid,
                   std::vector<Hop>& hops) {
  hops.clear();
  const std::size_t limit = fabric.switches().size() + 1;
  NodeId sw = source;
  PortNum in = 0;
  while (hops.size() <= limit) {
    if (!lfts.has_switch(sw) || dlid >= lfts.lid_count()) return WalkEnd::unrouted;
    const PortNum out = lfts.get(sw, dlid);
    if (out == kNoPath) return WalkEnd::unrouted;
    const Node& node = fabric.node(sw);
    if (out == 0) {
      hops.push_back(Hop{sw, in, 0, false});
      return WalkEnd::delivered;
    }
    if (out >= node.ports.size() || !node.ports[out].usable()) return WalkEnd::broken;
    const PortRef next = node.ports[out].remote;
    const bool to_switch = fabric.node(next.node).is_switch();
    hops.push_back(Hop{sw, in, out, to_switch});
    if (!to_switch) return WalkEnd::delivered;
    sw = next.node;
    in = next.port;
  }
  return WalkEnd::loop;
}

std::string describe_port(const Fabric& fabric, PortRef port) {
  const Node& n = fabric.node(port.node);
  return std::string(n.is_switch() ? "switch " : "node ") + describe_node(fabric, port.node) +
         " port " + std::to_string(port.port);
}

}  // namespace psssp::deadlock
