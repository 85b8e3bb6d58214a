// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Endpoint affinity, the second property of the search besides the loads:
// per switch X with load sources and per forward edge e, the routes over e
// that start or end at one of X's hosts. In a random bisection every host
// takes part in one flow, so routes on a link that share a host can never
// carry flows at the same time: a link whose routes all touch few hosts
// carries few flows, whatever its route count (dimension-order routing on
// tori, hypercubes and HyperX is built that way). The layered kernel uses
// the table twice (psssp-route.md, "Endpoint affinity"):
//  - source affinity: a switch with hosts chooses its next hop by path cost
//    minus `source` x (routes on the candidate path touching its hosts, per
//    host): its own flows stay on links it already loads;
//  - root affinity: every edge weight of a search to a LID on switch D is
//    lowered by `root` x (routes on the edge touching D's hosts, per host):
//    routes into D gather on links that already serve D.
#pragma once

#include <cstdint>
#include <vector>

#include "routing_graph.h"
#include "search_kernels.h"

namespace psssp::routing {

class EndpointAffinity {
 public:
  EndpointAffinity() = default;
  // Empty (disabled) unless one of the strengths is positive.
  EndpointAffinity(const RoutingGraph& graph, const std::uint32_t* sources_at, double source,
                   double root);

  bool enabled() const { return !count_.empty(); }

  // What the kernel reads for one search.
  AffinityView view(Vertex root) const;

  // Adds (sign +1) or removes (-1) one destination's tree (its root first in
  // tree.order): each source switch's hosts gain one route on every edge of
  // their path, the root switch gains the sources routed over each tree edge
  // (sub: per vertex, the sources routed through it).
  void apply_tree(const RoutingGraph& graph, const SearchTree& tree, const double* sub,
                  std::int64_t sign);

 private:
  static constexpr std::uint32_t kNoRow = 0xFFFFFFFFu;

  double root_ = 0.0;
  std::size_t edges_ = 0;
  std::vector<std::uint32_t> row_of_;  // per vertex: its row, or kNoRow (no sources)
  std::vector<std::uint32_t> hosts_;   // per row: the switch's load sources
  std::vector<double> source_scale_;   // per row: source strength / hosts
  // Routes per (row, edge) that touch the row's hosts: integer counts, so
  // adding and removing a tree restores the same values.
  std::vector<std::uint32_t> count_;
};

}  // namespace psssp::routing
