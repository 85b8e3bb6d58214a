// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// What the cable passes (parallel_cables.h, top_regroup.h) and the tree
// layout (tree_layout.h) read of the switch graph: its bundles (several
// cables of one rate between one pair of switches, per direction), each
// switch's level above the switches with hosts (a fat tree's levels) and
// which tree, if any, the layout sees.
#pragma once

#include <cstdint>
#include <vector>

#include "routing_graph.h"

namespace psssp::routing {

constexpr std::uint32_t kNoBundle = 0xFFFFFFFF;
constexpr std::uint32_t kNoLevel = 0xFFFFFFFF;

struct Bundles {
  std::vector<std::uint32_t> of_edge;  // per edge: its bundle, or kNoBundle
  std::vector<std::uint32_t> index;    // per edge: its position in the bundle
  std::vector<std::uint32_t> first;    // per bundle + 1: start in `edges`
  std::vector<EdgeId> edges;           // the bundles' edges, bundle by bundle

  std::uint32_t count() const { return static_cast<std::uint32_t>(first.size() - 1); }
  std::uint32_t size(std::uint32_t b) const { return first[b + 1] - first[b]; }
  EdgeId edge(std::uint32_t b, std::uint32_t i) const { return edges[first[b] + i]; }
  bool empty() const { return first.size() <= 1; }
};

// The forward edges of each switch with the same target, in port order, if
// there are at least two of them and they all have one capacity.
Bundles find_bundles(const RoutingGraph& g);

// Per switch: hops to the nearest switch with load sources (0 for those),
// kNoLevel where none is reachable.
std::vector<std::uint32_t> levels_above_hosts(const RoutingGraph& g,
                                              const std::uint32_t* sources_at);

// Per switch: the level the tree layout (tree_layout.h) sees. The levels
// above the hosts, unless they put hosts at both ends of some cable: then,
// where every cable joins two sides of the switch graph and one side holds
// at most kFewUpperHosts of the hosts (a grown tree's spines with a few hosts
// of their own), that side is level 1 and the other level 0.
constexpr double kFewUpperHosts = 0.1;
std::vector<std::uint32_t> layout_levels(const RoutingGraph& g, const std::uint32_t* sources_at,
                                         const std::vector<std::uint32_t>& level);

// Which tree the switch graph is on `tree_level` (none if neither): some
// switch on level 1, and every cable between adjacent levels; three levels
// with some switch on level 2 (none above), else two, where cables between
// level-1 switches are allowed too (a Dragonfly+'s groups). The layout lays
// out the host LIDs of level 0 only.
enum class TreeLevels { none, two, three };
TreeLevels which_tree(const RoutingGraph& g, const std::vector<std::uint32_t>& tree_level);

// The (n mod count)-th of u's cables to v, in port order; kNoEdge if u is
// kNoVertexId or has none.
EdgeId nth_cable(const RoutingGraph& g, Vertex u, Vertex v, std::uint32_t n);

// u's distinct neighbours on level `at` (levels_above_hosts), in port order,
// into out.
void neighbours_at_level(const RoutingGraph& g, const std::vector<std::uint32_t>& level, Vertex u,
                         std::uint32_t at, std::vector<Vertex>& out);

// Built once for the passes that follow one routing.
struct CableShape {
  CableShape(const RoutingGraph& g, const std::uint32_t* sources_at)
      : bundles(find_bundles(g)),
        level(levels_above_hosts(g, sources_at)),
        tree_level(layout_levels(g, sources_at, level)),
        tree(which_tree(g, tree_level)) {}
  Bundles bundles;
  std::vector<std::uint32_t> level;
  std::vector<std::uint32_t> tree_level;
  TreeLevels tree;
};

}  // namespace psssp::routing
