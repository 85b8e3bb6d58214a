// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// One destination's search: from the destination switch (root) backwards over
// the switch graph, giving every reached switch its next hop towards it.
//  - layered_search: minimal hops; a dynamic program over the BFS layers.
//  - boost_dag_search: minimal hops; Boost's Dijkstra on the shortest-path DAG.
//    Same distances (same floating-point sums), same tie-break: same tree.
//  - bounded_search: up to max_extra_hops longer than minimal; Boost's
//    Dijkstra with a per-hop weight and a depth bound checked on relaxation.
#pragma once

#include <cstdint>
#include <vector>

#include "routing_graph.h"

namespace psssp::routing {

struct SearchTree {
  std::vector<double> dist;       // per vertex: cost to the root
  std::vector<EdgeId> next_edge;  // per vertex: forward edge of its next hop
  std::vector<Vertex> order;      // reached vertices, root first, each after its next hop
  // Path rank (TieRule::by_path): vertices of a layer numbered in the order
  // of their next hop's rank, so comparing ranks compares whole paths from
  // the root side. Ranks are BFS positions, unique per search.
  std::vector<std::uint32_t> rank;
  std::vector<std::uint32_t> rank_count;  // scratch of rank_layer
  // Per BFS position: the rank of the vertex's next hop (layered kernel,
  // with by_path), so that ranking a layer needs no edge lookups.
  std::vector<std::uint32_t> next_rank;
  explicit SearchTree(std::uint32_t n = 0)
      : dist(n), next_edge(n, kNoEdge), rank(n, 0), next_rank(n, 0) {}
};

// The root's BFS layers (HopLayers).
struct Layers {
  Vertex root = 0;
  const std::uint16_t* hops = nullptr;
  const std::uint16_t* order = nullptr;
  std::uint32_t reached = 0;
  // Optional minimal-hop edge lists (HopLayers::dag); null: test hops.
  // Lent to the search: the layered kernel reorders each list in place, so
  // two searches towards one root must not run at once.
  std::uint8_t* dag = nullptr;
  const std::uint32_t* dag_begin = nullptr;
};

// Equal-cost next hops: take candidate (key mod count) in port order; key 0
// is "the lowest port".
struct TieRule {
  std::uint32_t key = 0;  // the destination's rank on its switch
  bool by_path = false;   // order candidates by path rank instead of port
  // Refinement: a vertex whose current next hop (tree.next_edge on entry)
  // is among the tied candidates keeps it.
  bool keep_current = false;
  // Costs up to (1 + slack) x the cheapest count as tied too
  // (RoutingOptions::tie_slack).
  double slack = 0.0;
};

// Endpoint affinity for one search (endpoint_affinity.h); default: none.
struct AffinityView {
  // Per row (a switch with load sources) and forward edge, the routes over
  // the edge touching the row's hosts; null: affinity off.
  const std::uint32_t* counts = nullptr;
  const std::uint32_t* row_of = nullptr;  // per vertex: its row, or 0xFFFFFFFF
  const double* source_scale = nullptr;   // per row: source strength / its hosts
  std::size_t edges = 0;
  const std::uint32_t* root_counts = nullptr;  // the root switch's row, or null
  double root_scale = 0.0;                     // root strength / the root's hosts
  // u's row, with the weight of one of its routes in `scale`; null if u has
  // no sources or source affinity is off.
  const std::uint32_t* row(Vertex u, double& scale) const {
    if (!counts || row_of[u] == 0xFFFFFFFFu || !(source_scale[row_of[u]] > 0.0)) return nullptr;
    scale = source_scale[row_of[u]];
    return counts + static_cast<std::size_t>(row_of[u]) * edges;
  }
};

void layered_search(const RoutingGraph& g, const Layers& layers, const double* weight, TieRule tie,
                    SearchTree& tree, const AffinityView& affinity = {});
// Refinement with TieRule::keep_current: whether layered_search would leave
// `tree` (next hops on entry, order = layers.order) as it is, i.e. every
// vertex's current next hop is among its cheapest candidates. Computes the
// same dist; false (stopping at the first vertex that would move) means the
// search must run. Needs the DAG lists. About half a search's work: no path
// ranks, no tie selection.
bool layered_tree_stays(const RoutingGraph& g, const Layers& layers, const double* weight,
                        SearchTree& tree);
void boost_dag_search(const RoutingGraph& g, const Layers& layers, const double* weight,
                      TieRule tie, SearchTree& tree);
void bounded_search(const RoutingGraph& g, const Layers& layers, const double* weight,
                    unsigned max_extra_hops, double hop_weight, SearchTree& tree);

// The tie-break over a candidate list (costs and edges in port order);
// current: the vertex's next hop before the search (TieRule::keep_current).
EdgeId pick_candidate(const RoutingGraph& g, const SearchTree& tree, const double* cost,
                      const EdgeId* cand, std::uint32_t n, double best, TieRule tie,
                      EdgeId current);

// Path ranks of BFS positions [begin, end) (one layer, next hops chosen),
// from those of the previous layer [previous, begin).
void rank_layer(const RoutingGraph& g, SearchTree& tree, std::uint32_t previous,
                std::uint32_t begin, std::uint32_t end);

// The next hop of u among its minimal-hop edges whose cost is `best` (within
// rounding), chosen by `tie`. Shared by both minimal kernels.
EdgeId pick_next_hop(const RoutingGraph& g, const SearchTree& tree, Vertex u,
                     const std::uint16_t* hops, const double* weight, double best, TieRule tie);

}  // namespace psssp::routing
