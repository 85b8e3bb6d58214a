// The minimal-hop search as a dynamic program: in BFS order from the root,
// every vertex's cost is the cheapest (next hop cost + edge weight) over its
// edges into the previous layer, all of which are final already. O(E) per
// destination and no heap, against O(E log V) for Dijkstra on the same DAG;
// bench_route measures both (the Boost kernel stays as the reference and
// behind RoutingOptions::boost_kernel).
#include <limits>

#include "search_kernels.h"

namespace psssp::routing {

EdgeId pick_next_hop(const RoutingGraph& g, Vertex u, const std::uint16_t* hops, const double* dist,
                     const double* weight, double best, TieRule tie) {
  const std::uint16_t want = static_cast<std::uint16_t>(hops[u] - 1);
  // Sums of equal integer loads are exact; with capacity weights the same
  // cost reached along different paths may differ in the last bits.
  const double limit = best + 1e-9 * (best < 1.0 ? 1.0 : best);
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

void layered_search(const RoutingGraph& g, const Layers& layers, const double* weight, TieRule tie,
                    SearchTree& tree) {
  const std::uint16_t* hops = layers.hops;
  double* dist = tree.dist.data();
  tree.order.resize(layers.reached);
  tree.order[0] = layers.root;
  dist[layers.root] = 0.0;
  tree.next_edge[layers.root] = kNoEdge;
  for (std::uint32_t i = 1; i < layers.reached; ++i) {
    const Vertex u = layers.order[i];
    tree.order[i] = u;
    const std::uint16_t want = static_cast<std::uint16_t>(hops[u] - 1);
    double best = std::numeric_limits<double>::infinity();
    for (EdgeId e = g.first_edge[u]; e < g.first_edge[u + 1]; ++e) {
      const Vertex v = g.target[e];
      if (hops[v] != want) continue;
      const double c = dist[v] + weight[e];
      if (c < best) best = c;
    }
    dist[u] = best;
    tree.next_edge[u] = pick_next_hop(g, u, hops, dist, weight, best, tie);
  }
}

}  // namespace psssp::routing
