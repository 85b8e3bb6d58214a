// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "switch_graph.h"

#include <utility>

namespace psssp {

SwitchView make_switch_view(const Fabric& fabric) {
  SwitchView view;
  view.node_of_vertex = fabric.switches();
  view.vertex_of.assign(fabric.node_count(), kNoVertex);
  for (std::uint32_t v = 0; v < view.node_of_vertex.size(); ++v)
    view.vertex_of[view.node_of_vertex[v]] = v;

  std::vector<std::pair<std::uint32_t, std::uint32_t>> ends;
  std::vector<SwitchEdge> props;
  for (std::uint32_t v = 0; v < view.node_of_vertex.size(); ++v) {
    const NodeId id = view.node_of_vertex[v];
    const Node& sw = fabric.node(id);
    for (PortNum p = 1; p < sw.ports.size(); ++p) {
      const Port& port = sw.ports[p];
      if (!port.usable() || port.remote.node == id) continue;
      const std::uint32_t target = view.vertex_of[port.remote.node];
      if (target == kNoVertex) continue;
      ends.emplace_back(v, target);
      props.push_back(
          SwitchEdge{p, port.remote.port, fabric.channel(PortRef{id, p}), port.rate.gbps()});
    }
  }
  view.graph = SwitchGraph(boost::edges_are_sorted, ends.begin(), ends.end(), props.begin(),
                           view.node_of_vertex.size());
  return view;
}

}  // namespace psssp
