// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The Boost.Graph searches: Dijkstra (no color map) over the reversed switch
// graph, with weights read from the forward edge a reversed edge stands for.
#include <algorithm>
#include <boost/graph/dijkstra_shortest_paths_no_color_map.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <boost/property_map/function_property_map.hpp>
#include <limits>

#include "hop_layers.h"
#include "search_kernels.h"

namespace psssp::routing {
namespace {

using RevEdge = boost::graph_traits<ReverseGraph>::edge_descriptor;
constexpr double kInf = std::numeric_limits<double>::max();  // Boost's default "infinity"

// Keeps the reversed edges of the minimal-hop DAG: forward u -> v with
// hops[u] = hops[v] + 1.
struct OnMinHopDag {
  const RoutingGraph* g = nullptr;
  const std::uint16_t* hops = nullptr;
  bool operator()(RevEdge e) const {
    const EdgeId f = g->reverse[e];
    const std::uint16_t hu = hops[g->source[f]];
    return hu != kUnreached && hu == hops[g->target[f]] + 1;
  }
};

// Bounded search bookkeeping: the tree edge and depth of every relaxed
// vertex, and the order vertices are settled in.
struct TreeRecorder : boost::default_dijkstra_visitor {
  const RoutingGraph* g;
  SearchTree* tree;
  std::uint16_t* depth;
  void edge_relaxed(RevEdge e, const ReverseGraph&) const {
    const EdgeId f = g->reverse[e];
    tree->next_edge[g->source[f]] = f;
    depth[g->source[f]] = static_cast<std::uint16_t>(depth[g->target[f]] + 1);
  }
  void examine_vertex(std::size_t v, const ReverseGraph&) const {
    tree->order.push_back(static_cast<Vertex>(v));
  }
};

}  // namespace

void boost_dag_search(const RoutingGraph& g, const Layers& layers, const double* weight,
                      TieRule tie, SearchTree& tree) {
  const boost::filtered_graph<ReverseGraph, OnMinHopDag> dag(g.reverse,
                                                             OnMinHopDag{&g, layers.hops});
  const auto w = boost::make_function_property_map<RevEdge, double>(
      [&g, weight](RevEdge e) { return weight[g.reverse[e]]; });
  std::vector<Vertex> predecessor(g.vertex_count);
  boost::dijkstra_shortest_paths_no_color_map(
      dag, layers.root,
      boost::predecessor_map(predecessor.data()).distance_map(tree.dist.data()).weight_map(w));
  // Dijkstra's predecessor is whichever tied edge relaxed first; the next hop
  // is chosen from the final distances instead, exactly as layered_search does.
  tree.order.assign(layers.order, layers.order + layers.reached);
  tree.next_edge[layers.root] = kNoEdge;
  tree.rank[layers.root] = 0;
  std::uint32_t previous = 0, begin = 1;
  while (begin < layers.reached) {
    std::uint32_t end = begin;
    for (; end < layers.reached && layers.hops[tree.order[end]] == layers.hops[tree.order[begin]];
         ++end) {
      const Vertex u = tree.order[end];
      tree.next_edge[u] = pick_next_hop(g, tree, u, layers.hops, weight, tree.dist[u], tie);
    }
    if (tie.by_path) rank_layer(g, tree, previous, begin, end);
    previous = begin;
    begin = end;
  }
}

void bounded_search(const RoutingGraph& g, const Layers& layers, const double* weight,
                    unsigned max_extra_hops, double hop_weight, SearchTree& tree) {
  std::vector<std::uint16_t> depth(g.vertex_count, 0);
  const std::uint16_t* hops = layers.hops;
  // A vertex may hang below v only if its depth stays within its bound; v is
  // settled (its depth final) whenever Dijkstra reads the weight of v's edges.
  const auto w = boost::make_function_property_map<RevEdge, double>(
      [&g, weight, hops, &depth, max_extra_hops, hop_weight](RevEdge e) {
        const EdgeId f = g.reverse[e];
        const unsigned bound = static_cast<unsigned>(hops[g.source[f]]) + max_extra_hops;
        if (static_cast<unsigned>(depth[g.target[f]]) + 1 > bound) return kInf;
        return weight[f] + hop_weight;
      });
  std::vector<Vertex> predecessor(g.vertex_count);
  tree.order.clear();
  tree.next_edge[layers.root] = kNoEdge;
  TreeRecorder rec;
  rec.g = &g;
  rec.tree = &tree;
  rec.depth = depth.data();
  boost::dijkstra_shortest_paths_no_color_map(g.reverse, layers.root,
                                              boost::predecessor_map(predecessor.data())
                                                  .distance_map(tree.dist.data())
                                                  .weight_map(w)
                                                  .visitor(rec));
}

}  // namespace psssp::routing
