// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The channel dependency graph (CDG) of a routed fabric: a vertex per
// (VL, switch-to-switch channel), an edge a -> b when some route arrives at a
// switch over a and leaves it over b. Injection and ejection channels are left
// out: they have no predecessor or no successor, so they are never on a cycle.
// Each edge keeps one route that creates it (the first in enumeration order).
#pragma once

#include <array>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <cstdint>
#include <vector>

#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"
#include "fabric/sl2vl.h"
#include "fabric/sl_source.h"
#include "route_scope.h"

namespace psssp::deadlock {

struct RouteWitness {
  Lid slid = 0;
  Lid dlid = 0;
};

using DependencyGraph =
    boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, RouteWitness>;
using DependencyVertex = boost::graph_traits<DependencyGraph>::vertex_descriptor;
using DependencyEdge = boost::graph_traits<DependencyGraph>::edge_descriptor;

struct ChannelDependencies {
  DependencyGraph graph;
  std::size_t channel_count = 0;  // vertex = vl_rank * channel_count + channel
  std::vector<std::uint8_t> vls;  // VLs that carry dependencies, ascending (rank -> VL)
  std::size_t routes = 0;         // (source LID, destination LID) pairs walked
  std::size_t unrouted = 0;       // routes that end at a kNoPath entry
  std::size_t broken = 0;         // routes sent to a missing or unusable port
  std::size_t loops = 0;          // routes caught in a forwarding loop
  // Of unrouted, broken and loops: the routes from or to a switch LID.
  std::size_t switch_unrouted = 0, switch_broken = 0, switch_loops = 0;
  std::array<std::size_t, kVlCount> dependencies_per_vl{};

  ChannelId channel_of(DependencyVertex v) const {
    return static_cast<ChannelId>(v % channel_count);
  }
  std::uint8_t vl_of(DependencyVertex v) const { return vls[v / channel_count]; }
};

// Routes of `scope`, following `lfts`; SL from `sls` (a switch's route: SL of
// its LID), VL per hop from `sl2vl` (a switch's route enters on port 0).
ChannelDependencies build_channel_dependencies(const Fabric& fabric, const ForwardingTables& lfts,
                                               const SlSource& sls, const Sl2VlTables& sl2vl,
                                               RouteScope scope = RouteScope::from_hosts);

}  // namespace psssp::deadlock
