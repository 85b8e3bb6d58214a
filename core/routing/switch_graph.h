// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// A compact Boost.Graph view of the fabric for routing: vertices are the
// switches, edges the usable switch-to-switch cables (one directed edge per
// cable and direction, parallel cables kept), each labelled with its ports.
#pragma once

#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <vector>

#include "fabric/fabric.h"

namespace psssp {

struct SwitchEdge {
  PortNum out_port = 0;   // port on the source switch
  PortNum in_port = 0;    // port on the target switch
  ChannelId channel = 0;  // the fabric channel leaving out_port
  double capacity = 0.0;  // Gb/s of the cable
};

using SwitchGraph =
    boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, SwitchEdge>;
using SwitchVertex = boost::graph_traits<SwitchGraph>::vertex_descriptor;
constexpr std::uint32_t kNoVertex = 0xFFFFFFFFu;

struct SwitchView {
  SwitchGraph graph;
  std::vector<NodeId> node_of_vertex;    // vertex -> switch NodeId (fabric switch order)
  std::vector<std::uint32_t> vertex_of;  // NodeId -> vertex, kNoVertex for non-switches
};

// Edges leave each switch in increasing port order, so iteration order (and
// everything derived from it) is deterministic. Cables from a switch to itself
// and unhealthy cables are left out.
SwitchView make_switch_view(const Fabric& fabric);

}  // namespace psssp
