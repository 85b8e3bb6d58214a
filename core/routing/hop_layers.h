// Hop distances to every destination switch. The minimal-hop DAG towards a
// destination depends only on its switch, so one BFS per switch serves all
// LIDs terminating there (hosts, LMC ranges, the switch's own LIDs).
#pragma once

#include <cstdint>
#include <vector>

#include "routing_graph.h"

namespace psssp::routing {

constexpr std::uint16_t kUnreached = 0xFFFF;

class HopLayers {
 public:
  HopLayers() = default;
  // BFS (Boost.Graph, over the reversed graph) from every vertex with
  // wanted[v]; `threads` workers split the roots, the result does not depend
  // on it. Memory: 4 bytes per (root, vertex).
  HopLayers(const RoutingGraph& graph, const std::vector<bool>& wanted, unsigned threads);

  // hops(root)[u]: switch hops from u to root, kUnreached if none.
  const std::uint16_t* hops(Vertex root) const { return &hops_[slot(root)]; }
  // Vertices reaching root in BFS order (root first, nondecreasing hops).
  const std::uint16_t* order(Vertex root) const { return &order_[slot(root)]; }
  std::uint32_t reached(Vertex root) const { return reached_[row_[root]]; }

 private:
  std::size_t slot(Vertex root) const { return static_cast<std::size_t>(row_[root]) * n_; }

  std::size_t n_ = 0;
  std::vector<std::uint32_t> row_;
  std::vector<std::uint16_t> hops_;
  std::vector<std::uint16_t> order_;
  std::vector<std::uint32_t> reached_;
};

}  // namespace psssp::routing
