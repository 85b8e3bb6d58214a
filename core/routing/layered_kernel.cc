// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The minimal-hop search as a dynamic program: in BFS order from the root,
// every vertex's cost is the cheapest (next hop cost + edge weight) over its
// edges into the previous layer, all of which are final already. O(E) per
// destination and no heap, against O(E log V) for Dijkstra on the same DAG.
// The graph itself stays Boost.Graph (CSR, BFS in hop_layers.cc); this
// hand-written kernel stays because it is several times faster than Boost's
// Dijkstra on the same DAG with identical tables (bench_route speed;
// docs/benchmarks/scale.md). The Boost kernel stays as the reference and
// behind RoutingOptions::boost_kernel.
//
// Hot path (psssp-route.md, "Speed"): each root's DAG lists are kept in
// path-rank order, so ties are resolved by a scan, not a sort per vertex.
#include <algorithm>
#include <limits>
#include <utility>

#include "search_kernels.h"

namespace psssp::routing {
namespace {

// Costs within rounding of the best are ties: sums of integer loads are
// exact, but with capacity weights one cost reached along different paths
// may differ in the last bits. A slack widens the ties to costs up to
// (1 + slack) x the best (the loose-ties candidate of route_psssp).
inline double tie_limit(double best, double slack) {
  return best + 1e-9 * (best < 1.0 ? 1.0 : best) + slack * best;
}

// The edge weight of a search with root affinity: routes that do not touch
// the root's hosts (scaled by the strength), at least 0.
inline double root_weight(const AffinityView& a, const double* weight, EdgeId e) {
  if (!a.root_counts) return weight[e];
  const double w = weight[e] - a.root_scale * a.root_counts[e];
  return w > 0.0 ? w : 0.0;
}

// What the routes of u's hosts (own: u's row, own_scale its weight) meet on
// edge e: the routes that touch neither u's hosts nor the root's, at least 0.
inline double foreign_routes(const std::uint32_t* own, double own_scale, const AffinityView& a,
                             const double* weight, EdgeId e) {
  const double w = root_weight(a, weight, e) - own_scale * own[e];
  return w > 0.0 ? w : 0.0;
}

// The same summed over the path from v to the root (final there).
inline double foreign_path(const std::uint32_t* own, double own_scale, const AffinityView& a,
                           const double* weight, const RoutingGraph& g, const SearchTree& tree,
                           Vertex v, Vertex root) {
  double sum = 0.0;
  for (; v != root; v = g.target[tree.next_edge[v]])
    sum += foreign_routes(own, own_scale, a, weight, tree.next_edge[v]);
  return sum;
}

}  // namespace

EdgeId pick_candidate(const RoutingGraph& g, const SearchTree& tree, const double* cost,
                      const EdgeId* cand, std::uint32_t n, double best, TieRule tie,
                      EdgeId current) {
  if (n == 1) return cand[0];
  const double limit = tie_limit(best, tie.slack);
  if (tie.keep_current)
    for (std::uint32_t j = 0; j < n; ++j)
      if (cand[j] == current && cost[j] <= limit) return current;
  // The tied candidates with their order key (port order: their index);
  // keys are unique, so the selection is well defined.
  std::uint32_t count = 0, only = 0;
  for (std::uint32_t j = 0; j < n; ++j)
    if (cost[j] <= limit) {
      ++count;
      only = j;
    }
  if (count == 1) return cand[only];  // the common case once loads differ
  std::pair<std::uint32_t, EdgeId> tied[kMaxPorts + 1];
  count = 0;
  for (std::uint32_t j = 0; j < n; ++j)
    if (cost[j] <= limit) tied[count++] = {tie.by_path ? tree.rank[g.target[cand[j]]] : j, cand[j]};
  const std::uint32_t pick = static_cast<std::uint32_t>(tie.key % count);
  if (pick == 0) return std::min_element(tied, tied + count)->second;
  std::nth_element(tied, tied + pick, tied + count);
  return tied[pick].second;
}

EdgeId pick_next_hop(const RoutingGraph& g, const SearchTree& tree, Vertex u,
                     const std::uint16_t* hops, const double* weight, double best, TieRule tie) {
  const std::uint16_t want = static_cast<std::uint16_t>(hops[u] - 1);
  double cost[kMaxPorts + 1];
  EdgeId cand[kMaxPorts + 1];
  std::uint32_t n = 0;
  for (EdgeId e = g.first_edge[u]; e < g.first_edge[u + 1]; ++e) {
    const Vertex v = g.target[e];
    if (hops[v] != want) continue;
    cost[n] = tree.dist[v] + weight[e];
    cand[n++] = e;
  }
  return pick_candidate(g, tree, cost, cand, n, best, tie, tree.next_edge[u]);
}

void rank_layer(const RoutingGraph& g, SearchTree& tree, std::uint32_t previous,
                std::uint32_t begin, std::uint32_t end) {
  // Counting sort of the layer by the rank of the next hop (ranks of the
  // previous layer are previous .. begin-1); stable, so BFS order breaks ties.
  std::vector<std::uint32_t>& count = tree.rank_count;
  count.assign(begin - previous + 1, 0);
  for (std::uint32_t i = begin; i < end; ++i) {
    const Vertex u = tree.order[i];
    ++count[tree.rank[g.target[tree.next_edge[u]]] - previous + 1];
  }
  for (std::size_t r = 1; r < count.size(); ++r) count[r] += count[r - 1];
  for (std::uint32_t i = begin; i < end; ++i) {
    const Vertex u = tree.order[i];
    tree.rank[u] = begin + count[tree.rank[g.target[tree.next_edge[u]]] - previous]++;
  }
}

namespace {

// rank_layer from tree.next_rank (filled by the layered kernel).
void rank_layer_by_position(SearchTree& tree, std::uint32_t previous, std::uint32_t begin,
                            std::uint32_t end) {
  std::vector<std::uint32_t>& count = tree.rank_count;
  count.assign(begin - previous + 1, 0);
  const std::uint32_t* next_rank = tree.next_rank.data();
  for (std::uint32_t i = begin; i < end; ++i) ++count[next_rank[i] - previous + 1];
  for (std::size_t r = 1; r < count.size(); ++r) count[r] += count[r - 1];
  for (std::uint32_t i = begin; i < end; ++i)
    tree.rank[tree.order[i]] = begin + count[next_rank[i] - previous]++;
}

// Puts a DAG list (offsets of one vertex's minimal-hop edges) into path-rank
// order of their targets, with costs and ranks alongside. The lists stay
// sorted from one destination to the next as long as the ranks keep their
// order, so this is usually a check of n-1 comparisons; else an insertion
// sort. Ranks are unique per vertex; parallel cables to one vertex share its
// rank and keep their port order (the sort is stable and the lists start in
// port order), which is pick_candidate's (rank, edge) order. So the stored
// order is a function of the current ranks alone and cannot affect a result.
// Lists still in order need no call; the first out-of-order entry is where
// the work starts.
inline void sort_by_rank(std::uint8_t* offsets, double* cost, std::uint32_t* rank,
                         std::uint32_t n) {
  for (std::uint32_t j = 1; j < n; ++j) {
    if (rank[j - 1] <= rank[j]) continue;
    const std::uint8_t o = offsets[j];
    const double c = cost[j];
    const std::uint32_t r = rank[j];
    std::uint32_t i = j;
    for (; i > 0 && rank[i - 1] > r; --i) {
      offsets[i] = offsets[i - 1];
      cost[i] = cost[i - 1];
      rank[i] = rank[i - 1];
    }
    offsets[i] = o;
    cost[i] = c;
    rank[i] = r;
  }
}

// Costs of a DAG list with the path ranks of its targets (gathered in the
// same pass: candidates are tied in nearly every search of a symmetric
// fabric), the list put into rank order; returns the least cost. to and w
// are u's edges' targets and weights, which the offsets index directly.
inline double gather_by_rank(const Vertex* to, const double* w, const double* dist,
                             const std::uint32_t* ranks, std::uint8_t* offsets, std::uint32_t n,
                             double* cost, std::uint32_t* rank) {
  Vertex v = to[offsets[0]];
  double best = cost[0] = dist[v] + w[offsets[0]];
  std::uint32_t previous_rank = rank[0] = ranks[v];
  bool unsorted = false;
#pragma GCC unroll 4
  for (std::uint32_t j = 1; j < n; ++j) {
    const std::uint8_t o = offsets[j];
    v = to[o];
    const double c = dist[v] + w[o];
    const std::uint32_t r = ranks[v];
    cost[j] = c;
    rank[j] = r;
    unsorted |= r < previous_rank;
    previous_rank = r;
    best = c < best ? c : best;
  }
  if (unsorted) sort_by_rank(offsets, cost, rank, n);
  return best;
}

// Costs of a DAG list in port order; returns the least.
inline double gather_costs(const Vertex* target, const double* weight, const double* dist,
                           EdgeId first, const std::uint8_t* offsets, std::uint32_t n,
                           double* cost) {
  double best = std::numeric_limits<double>::infinity();
  for (std::uint32_t j = 0; j < n; ++j) {
    const EdgeId e = first + offsets[j];
    const double c = dist[target[e]] + weight[e];
    cost[j] = c;
    best = c < best ? c : best;
  }
  return best;
}

// Endpoint affinity: root affinity lowers the edge weights (and so the
// costs passed on, path_cost); source affinity (own_row) only steers this
// switch's own choice (cost), so the cost passed on stays the path's.
// Returns the least cost.
inline double affinity_costs(const RoutingGraph& g, const SearchTree& tree, Vertex root,
                             const AffinityView& affinity, const double* weight, EdgeId first,
                             const std::uint8_t* offsets, std::uint32_t n,
                             const std::uint32_t* own_row, double own_scale, double* cost,
                             double* path_cost) {
  double best = std::numeric_limits<double>::infinity();
  for (std::uint32_t j = 0; j < n; ++j) {
    const EdgeId e = first + offsets[j];
    const Vertex v = g.target[e];
    path_cost[j] = tree.dist[v] + root_weight(affinity, weight, e);
    cost[j] = own_row ? foreign_routes(own_row, own_scale, affinity, weight, e) +
                            foreign_path(own_row, own_scale, affinity, weight, g, tree, v, root)
                      : path_cost[j];
    best = cost[j] < best ? cost[j] : best;
  }
  return best;
}

// The tied candidates in list order (port order, or path-rank order): the
// (key mod count)-th of them is pick_candidate's choice, or the current hop
// among them with keep_current. Returns its place in the list.
inline std::uint32_t pick_tied(const double* cost, std::uint32_t n, double best, TieRule tie,
                               EdgeId first, const std::uint8_t* offsets, EdgeId current,
                               std::uint8_t* tied) {
  const double limit = tie_limit(best, tie.slack);
  std::uint32_t count = 0;
#pragma GCC unroll 4
  for (std::uint32_t j = 0; j < n; ++j) {
    tied[count] = static_cast<std::uint8_t>(j);
    count += cost[j] <= limit ? 1u : 0u;
  }
  std::uint32_t only = tied[count == 1 ? 0 : tie.key % count];
  if (tie.keep_current && count > 1)
    for (std::uint32_t k = 0; k < count; ++k)
      if (first + offsets[tied[k]] == current) only = tied[k];
  return only;
}

// Without DAG lists: u's edges into the previous layer, its cost and hop
// (pick_candidate); returns the hop.
inline EdgeId scan_edges(const RoutingGraph& g, const std::uint16_t* hops, const double* weight,
                         TieRule tie, SearchTree& tree, Vertex u) {
  double cost[kMaxPorts + 1];
  EdgeId cand[kMaxPorts + 1];
  std::uint32_t n = 0;
  double best = std::numeric_limits<double>::infinity();
  const std::uint16_t want = static_cast<std::uint16_t>(hops[u] - 1);
  for (EdgeId e = g.first_edge[u]; e < g.first_edge[u + 1]; ++e) {
    const Vertex v = g.target[e];
    if (hops[v] != want) continue;
    const double c = tree.dist[v] + weight[e];
    cost[n] = c;
    cand[n++] = e;
    best = c < best ? c : best;
  }
  tree.dist[u] = best;
  const EdgeId e = pick_candidate(g, tree, cost, cand, n, best, tie, tree.next_edge[u]);
  tree.next_edge[u] = e;
  return e;
}

// kAffinity = false compiles to the plain kernel: full effort's extra work
// costs plain P-SSSP nothing.
template <bool kAffinity>
void search_range(const RoutingGraph& g, const Layers& layers, const double* weight, TieRule tie,
                  SearchTree& tree, std::uint32_t begin, std::uint32_t end,
                  const AffinityView& affinity) {
  double* dist = tree.dist.data();
  const Vertex* target = g.target.data();
  const std::uint32_t* ranks = tree.rank.data();
  std::uint32_t* next_rank = tree.next_rank.data();
  // One pass over the edges per vertex; the candidates wait in a small local
  // buffer (degree <= 254) for the tie-break instead of a second edge scan.
  double cost[kMaxPorts + 1];
  std::uint32_t rank[kMaxPorts + 1];
  std::uint8_t tied[kMaxPorts + 1];
  for (std::uint32_t i = begin; i < end; ++i) {
    const Vertex u = layers.order[i];
    tree.order[i] = u;
    const EdgeId first = g.first_edge[u];
    if (!layers.dag) {
      next_rank[i] = ranks[target[scan_edges(g, layers.hops, weight, tie, tree, u)]];
      continue;
    }
    std::uint8_t* offsets = layers.dag + layers.dag_begin[i];
    const std::uint32_t n = layers.dag_begin[i + 1] - layers.dag_begin[i];
    if (n == 1) {
      const EdgeId e = first + offsets[0];
      const Vertex v = target[e];
      dist[u] = dist[v] + (kAffinity ? root_weight(affinity, weight, e) : weight[e]);
      tree.next_edge[u] = e;
      next_rank[i] = ranks[v];
      continue;
    }
    double best = tie.by_path ? gather_by_rank(target + first, weight + first, dist, ranks, offsets,
                                               n, cost, rank)
                              : gather_costs(target, weight, dist, first, offsets, n, cost);
    double own_scale = 0.0;
    const std::uint32_t* own_row = kAffinity ? affinity.row(u, own_scale) : nullptr;
    double path_cost[kMaxPorts + 1];
    if (kAffinity && (affinity.root_counts || own_row))
      best = affinity_costs(g, tree, layers.root, affinity, weight, first, offsets, n, own_row,
                            own_scale, cost, path_cost);
    dist[u] = best;
    const std::uint32_t only =
        pick_tied(cost, n, best, tie, first, offsets, tree.next_edge[u], tied);
    if (kAffinity && own_row) dist[u] = path_cost[only];
    tree.next_edge[u] = first + offsets[only];
    next_rank[i] = tie.by_path ? rank[only] : 0u;
  }
}

// BFS positions [begin, end), one layer: each vertex from the layers before.
void layered_search_range(const RoutingGraph& g, const Layers& layers, const double* weight,
                          TieRule tie, SearchTree& tree, std::uint32_t begin, std::uint32_t end,
                          const AffinityView& affinity) {
  if (affinity.counts && layers.dag)
    search_range<true>(g, layers, weight, tie, tree, begin, end, affinity);
  else
    search_range<false>(g, layers, weight, tie, tree, begin, end, affinity);
}

}  // namespace

bool layered_tree_stays(const RoutingGraph& g, const Layers& layers, const double* weight,
                        SearchTree& tree) {
  if (!layers.dag) return false;
  const Vertex* target = g.target.data();
  double* dist = tree.dist.data();
  dist[layers.root] = 0.0;
  for (std::uint32_t i = 1; i < layers.reached; ++i) {
    const Vertex u = layers.order[i];
    const EdgeId first = g.first_edge[u];
    const std::uint8_t* offsets = layers.dag + layers.dag_begin[i];
    const std::uint32_t n = layers.dag_begin[i + 1] - layers.dag_begin[i];
    const Vertex* to = target + first;
    const double* w = weight + first;
    double best = dist[to[offsets[0]]] + w[offsets[0]];
#pragma GCC unroll 4
    for (std::uint32_t j = 1; j < n; ++j) {
      const double c = dist[to[offsets[j]]] + w[offsets[j]];
      best = c < best ? c : best;
    }
    // The kernel's own rule: the current hop is kept while it is tied (exact
    // ties: a slack only keeps more hops, so "stays" is still right then).
    const EdgeId current = tree.next_edge[u];
    if (!(dist[target[current]] + weight[current] <= tie_limit(best, 0.0))) return false;
    dist[u] = best;
  }
  return true;
}

void layered_search(const RoutingGraph& g, const Layers& layers, const double* weight, TieRule tie,
                    SearchTree& tree, const AffinityView& affinity) {
  tree.order.resize(layers.reached);
  tree.order[0] = layers.root;
  tree.dist[layers.root] = 0.0;
  tree.next_edge[layers.root] = kNoEdge;
  tree.rank[layers.root] = 0;
  // Layer by layer, so that path ranks are ready for the next layer.
  std::uint32_t previous = 0, begin = 1;
  while (begin < layers.reached) {
    std::uint32_t end = begin + 1;
    while (end < layers.reached &&
           layers.hops[layers.order[end]] == layers.hops[layers.order[begin]])
      ++end;
    layered_search_range(g, layers, weight, tie, tree, begin, end, affinity);
    if (tie.by_path && end < layers.reached) rank_layer_by_position(tree, previous, begin, end);
    previous = begin;
    begin = end;
  }
}

}  // namespace psssp::routing
