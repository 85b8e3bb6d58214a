// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "routing_graph.h"

#include <algorithm>
#include <boost/range/iterator_range.hpp>
#include <utility>

namespace psssp::routing {

RoutingGraph make_routing_graph(const Fabric& fabric) {
  RoutingGraph g;
  g.view = make_switch_view(fabric);
  const SwitchGraph& sg = g.view.graph;
  g.vertex_count = static_cast<std::uint32_t>(boost::num_vertices(sg));
  g.first_edge.assign(g.vertex_count + 1, 0);
  PortNum max_port = 0;
  for (const NodeId id : g.view.node_of_vertex)
    max_port = std::max(max_port, fabric.node(id).num_ports());
  g.port_stride = static_cast<std::uint32_t>(max_port) + 1;
  g.edge_of_port.assign(static_cast<std::size_t>(g.vertex_count) * g.port_stride, kNoEdge);

  for (Vertex u = 0; u < g.vertex_count; ++u) {
    g.first_edge[u] = g.edge_count();
    for (const auto e : boost::make_iterator_range(out_edges(SwitchVertex{u}, sg))) {
      const SwitchEdge& prop = sg[e];
      g.edge_of_port[static_cast<std::size_t>(u) * g.port_stride + prop.out_port] = g.edge_count();
      g.source.push_back(u);
      g.target.push_back(static_cast<Vertex>(target(e, sg)));
      g.out_port.push_back(prop.out_port);
      g.channel.push_back(prop.channel);
      g.capacity.push_back(prop.capacity > 0.0 ? prop.capacity : 1.0);
    }
  }
  g.first_edge[g.vertex_count] = g.edge_count();

  // The reverse CSR wants its edges sorted by (new) source = forward target.
  std::vector<EdgeId> by_target(g.edge_count());
  for (EdgeId e = 0; e < g.edge_count(); ++e) by_target[e] = e;
  std::stable_sort(by_target.begin(), by_target.end(),
                   [&](EdgeId a, EdgeId b) { return g.target[a] < g.target[b]; });
  std::vector<std::pair<Vertex, Vertex>> ends;
  ends.reserve(by_target.size());
  for (const EdgeId e : by_target) ends.emplace_back(g.target[e], g.source[e]);
  g.reverse = ReverseGraph(boost::edges_are_sorted, ends.begin(), ends.end(), by_target.begin(),
                           g.vertex_count);
  return g;
}

}  // namespace psssp::routing
