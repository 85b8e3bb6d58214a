// The minimal-hop search as a dynamic program: in BFS order from the root,
// every vertex's cost is the cheapest (next hop cost + edge weight) over its
// edges into the previous layer, all of which are final already. O(E) per
// destination and no heap, against O(E log V) for Dijkstra on the same DAG;
// bench_route measures both (the Boost kernel stays as the reference and
// behind RoutingOptions::boost_kernel).
#include <limits>

#include "search_kernels.h"

namespace psssp::routing {
namespace {

// Costs within rounding of the best are ties: sums of integer loads are
// exact, but with capacity weights one cost reached along different paths
// may differ in the last bits.
inline double tie_limit(double best) { return best + 1e-9 * (best < 1.0 ? 1.0 : best); }

}  // namespace

EdgeId pick_candidate(const double* cost, const EdgeId* cand, std::uint32_t n, double best,
                      TieRule tie) {
  if (n == 1) return cand[0];
  const double limit = tie_limit(best);
  std::uint32_t count = 0;
  for (std::uint32_t j = 0; j < n; ++j) count += cost[j] <= limit ? 1u : 0u;
  if (count == 1 || tie.key == 0)
    for (std::uint32_t j = 0;; ++j)
      if (cost[j] <= limit) return cand[j];
  std::uint32_t pick = static_cast<std::uint32_t>(tie.key % count);
  for (std::uint32_t j = 0;; ++j)
    if (cost[j] <= limit && pick-- == 0) return cand[j];
}

EdgeId pick_next_hop(const RoutingGraph& g, Vertex u, const std::uint16_t* hops, const double* dist,
                     const double* weight, double best, TieRule tie) {
  const std::uint16_t want = static_cast<std::uint16_t>(hops[u] - 1);
  const double limit = tie_limit(best);
  std::uint32_t count = 0;
  EdgeId first = kNoEdge;
  for (EdgeId e = g.first_edge[u]; e < g.first_edge[u + 1]; ++e) {
    const Vertex v = g.target[e];
    if (hops[v] != want || dist[v] + weight[e] > limit) continue;
    if (count++ == 0) first = e;
  }
  if (count <= 1 || tie.key == 0) return first;
  std::uint32_t pick = static_cast<std::uint32_t>(tie.key % count);
  for (EdgeId e = first;; ++e) {
    const Vertex v = g.target[e];
    if (hops[v] != want || dist[v] + weight[e] > limit) continue;
    if (pick-- == 0) return e;
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
    tree.next_edge[u] = pick_candidate(cost, cand, n, best, tie);
  }
}

void layered_search(const RoutingGraph& g, const Layers& layers, const double* weight, TieRule tie,
                    SearchTree& tree) {
  tree.order.resize(layers.reached);
  tree.order[0] = layers.root;
  tree.dist[layers.root] = 0.0;
  tree.next_edge[layers.root] = kNoEdge;
  layered_search_range(g, layers, weight, tie, tree, 1, layers.reached);
}

}  // namespace psssp::routing
