// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The refinement's stay check against the layered search it stands in for.
#include "routing/search_kernels.h"

#include <gtest/gtest.h>

#include <vector>

#include "routing/hop_layers.h"
#include "routing/routing_graph.h"
#include "testing/routing_support.h"

namespace psssp::routing {
namespace {

struct Searchable {
  explicit Searchable(const Fabric& fabric)
      : graph(make_routing_graph(fabric)),
        layers(graph, std::vector<bool>(graph.vertex_count, true), 1, true) {}
  Layers of(Vertex root) {
    return Layers{root,
                  layers.hops(root),
                  layers.order(root),
                  layers.reached(root),
                  layers.dag(root),
                  layers.dag_begin(root)};
  }
  RoutingGraph graph;
  HopLayers layers;
};

TEST(StayCheck, AgreesWithTheSearchThatKeepsTies) {
  Searchable s(testing::make_torus({4, 4}, 1));
  const std::size_t edges = s.graph.edge_count();
  std::vector<double> weight(edges);
  for (EdgeId e = 0; e < edges; ++e) weight[e] = static_cast<double>((e * 7) % 5);
  const TieRule keep{0, true, true};
  int stayed = 0, moved = 0;
  for (Vertex root = 0; root < s.graph.vertex_count; ++root) {
    const Layers layers = s.of(root);
    SearchTree tree(s.graph.vertex_count);
    layered_search(s.graph, layers, weight.data(), {0, true, false}, tree);
    // Unchanged weights: the tree stays, with the search's distances.
    const std::vector<double> dist = tree.dist;
    ASSERT_TRUE(layered_tree_stays(s.graph, layers, weight.data(), tree));
    for (std::uint32_t i = 0; i < layers.reached; ++i)
      EXPECT_EQ(tree.dist[layers.order[i]], dist[layers.order[i]]);
    // Heavier edges off the tree can only keep it; heavier tree edges move
    // it where others tie. The check must say what a search keeping ties does.
    std::vector<bool> on_tree(edges, false);
    for (std::uint32_t i = 1; i < layers.reached; ++i)
      on_tree[tree.next_edge[layers.order[i]]] = true;
    for (const bool tree_edges : {false, true}) {
      std::vector<double> heavier = weight;
      for (EdgeId e = 0; e < edges; ++e)
        if (on_tree[e] == tree_edges) heavier[e] += 1;
      SearchTree checked = tree;
      const bool stays = layered_tree_stays(s.graph, layers, heavier.data(), checked);
      SearchTree searched = tree;  // next hops on entry: the current tree
      layered_search(s.graph, layers, heavier.data(), keep, searched);
      bool same = true;
      for (std::uint32_t i = 1; i < layers.reached; ++i)
        same &= searched.next_edge[layers.order[i]] == tree.next_edge[layers.order[i]];
      EXPECT_EQ(stays, same) << "root " << root;
      if (stays) {
        for (std::uint32_t i = 0; i < layers.reached; ++i)
          EXPECT_EQ(checked.dist[layers.order[i]], searched.dist[layers.order[i]]);
      }
      (stays ? stayed : moved) += 1;
    }
  }
  EXPECT_GT(stayed, 0) << moved;
  EXPECT_GT(moved, 0);  // the heavier tree edges made some trees move
}

}  // namespace
}  // namespace psssp::routing
