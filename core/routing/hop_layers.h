// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
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
  // on it. Memory: 4 bytes per (root, vertex) plus, with `dag_lists`, one
  // byte per minimal-hop edge per root.
  HopLayers(const RoutingGraph& graph, const std::vector<bool>& wanted, unsigned threads,
            bool dag_lists);

  // hops(root)[u]: switch hops from u to root, kUnreached if none.
  const std::uint16_t* hops(Vertex root) const { return &hops_[slot(root)]; }
  // Vertices reaching root in BFS order (root first, nondecreasing hops).
  const std::uint16_t* order(Vertex root) const { return &order_[slot(root)]; }
  std::uint32_t reached(Vertex root) const { return reached_[row_[root]]; }

  bool has_dag_lists() const { return !dag_begin_.empty(); }
  // The minimal-hop edges of order(root)[i], as offsets from its first out
  // edge: dag(root) + dag_begin(root)[i] .. dag(root) + dag_begin(root)[i+1].
  // The kernel may reorder each vertex's list (layered_kernel.cc keeps them
  // in path-rank order); the set of edges never changes.
  const std::uint8_t* dag(Vertex root) const { return dag_[row_[root]].data(); }
  std::uint8_t* dag(Vertex root) { return dag_[row_[root]].data(); }
  const std::uint32_t* dag_begin(Vertex root) const { return &dag_begin_[slot_plus(root)]; }

 private:
  std::size_t slot(Vertex root) const { return static_cast<std::size_t>(row_[root]) * n_; }
  std::size_t slot_plus(Vertex root) const {
    return static_cast<std::size_t>(row_[root]) * (n_ + 1);
  }

  std::size_t n_ = 0;
  std::vector<std::uint32_t> row_;
  std::vector<std::uint16_t> hops_;
  std::vector<std::uint16_t> order_;
  std::vector<std::uint32_t> reached_;
  std::vector<std::vector<std::uint8_t>> dag_;  // per root
  std::vector<std::uint32_t> dag_begin_;
};

}  // namespace psssp::routing
