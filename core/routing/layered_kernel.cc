// The minimal-hop search as a dynamic program: in BFS order from the root,
// every vertex's cost is the cheapest (next hop cost + edge weight) over its
// edges into the previous layer, all of which are final already. O(E) per
// destination and no heap, against O(E log V) for Dijkstra on the same DAG;
// bench_route measures both (the Boost kernel stays as the reference and
// behind RoutingOptions::boost_kernel).
#include <algorithm>
#include <limits>
#include <utility>

#include "search_kernels.h"

namespace psssp::routing {
namespace {

// Costs within rounding of the best are ties: sums of integer loads are
// exact, but with capacity weights one cost reached along different paths
// may differ in the last bits.
inline double tie_limit(double best) { return best + 1e-9 * (best < 1.0 ? 1.0 : best); }

}  // namespace

EdgeId pick_candidate(const RoutingGraph& g, const SearchTree& tree, const double* cost,
                      const EdgeId* cand, std::uint32_t n, double best, TieRule tie) {
  if (n == 1) return cand[0];
  const double limit = tie_limit(best);
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
  return pick_candidate(g, tree, cost, cand, n, best, tie);
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

void layered_search_range(const RoutingGraph& g, const Layers& layers, const double* weight,
                          TieRule tie, SearchTree& tree, std::uint32_t begin, std::uint32_t end) {
  const std::uint16_t* hops = layers.hops;
  double* dist = tree.dist.data();
  // One pass over the edges per vertex; the candidates wait in a small local
  // buffer (degree <= 254) for the tie-break instead of a second edge scan.
  double cost[kMaxPorts + 1];
  EdgeId cand[kMaxPorts + 1];
  for (std::uint32_t i = begin; i < end; ++i) {
    const Vertex u = layers.order[i];
    tree.order[i] = u;
    double best = std::numeric_limits<double>::infinity();
    std::uint32_t n = 0;
    const EdgeId first = g.first_edge[u];
    if (layers.dag) {
      const std::uint8_t* offsets = layers.dag + layers.dag_begin[i];
      n = layers.dag_begin[i + 1] - layers.dag_begin[i];
      if (n == 1) {
        const EdgeId e = first + offsets[0];
        dist[u] = dist[g.target[e]] + weight[e];
        tree.next_edge[u] = e;
        continue;
      }
      for (std::uint32_t j = 0; j < n; ++j) {
        const EdgeId e = first + offsets[j];
        const double c = dist[g.target[e]] + weight[e];
        cost[j] = c;
        cand[j] = e;
        best = c < best ? c : best;
      }
    } else {
      const std::uint16_t want = static_cast<std::uint16_t>(hops[u] - 1);
      for (EdgeId e = first; e < g.first_edge[u + 1]; ++e) {
        const Vertex v = g.target[e];
        if (hops[v] != want) continue;
        const double c = dist[v] + weight[e];
        cost[n] = c;
        cand[n++] = e;
        best = c < best ? c : best;
      }
    }
    dist[u] = best;
    tree.next_edge[u] = pick_candidate(g, tree, cost, cand, n, best, tie);
  }
}

void layered_search(const RoutingGraph& g, const Layers& layers, const double* weight, TieRule tie,
                    SearchTree& tree) {
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
    layered_search_range(g, layers, weight, tie, tree, begin, end);
    if (tie.by_path) rank_layer(g, tree, previous, begin, end);
    previous = begin;
    begin = end;
  }
}

}  // namespace psssp::routing
