// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The switch graph in the two shapes the searches need: flat out-edge arrays
// (the layered kernel's inner loop, the load bookkeeping) and a reversed Boost
// CSR graph (searches start at the destination and walk edges backwards).
#pragma once

#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <cstdint>
#include <vector>

#include "fabric/fabric.h"
#include "routing/switch_graph.h"

namespace psssp::routing {

using EdgeId = std::uint32_t;
using Vertex = std::uint32_t;
constexpr EdgeId kNoEdge = 0xFFFFFFFFu;

// Reversed graph: an edge v -> u for every switch cable u -> v; its property
// is the forward edge's id, so weights and loads stay indexed by forward edge.
using ReverseGraph =
    boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, EdgeId>;
using ReverseVertex = boost::graph_traits<ReverseGraph>::vertex_descriptor;

struct RoutingGraph {
  SwitchView view;
  std::uint32_t vertex_count = 0;
  // Forward edges u -> v of vertex u: ids first_edge[u] .. first_edge[u+1]-1,
  // in increasing out_port order (the view's order).
  std::vector<EdgeId> first_edge;
  std::vector<Vertex> source;
  std::vector<Vertex> target;
  std::vector<PortNum> out_port;
  std::vector<ChannelId> channel;
  std::vector<double> capacity;  // Gb/s
  // Per switch port, the forward edge leaving it (kNoEdge if none):
  // edge_of_port[u * port_stride + port].
  std::vector<EdgeId> edge_of_port;
  std::uint32_t port_stride = 0;
  ReverseGraph reverse;

  std::uint32_t edge_count() const { return static_cast<std::uint32_t>(target.size()); }
  EdgeId edge_at_port(Vertex u, PortNum port) const {
    return edge_of_port[static_cast<std::size_t>(u) * port_stride + port];
  }
};

RoutingGraph make_routing_graph(const Fabric& fabric);

}  // namespace psssp::routing
