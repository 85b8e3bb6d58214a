// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "delivery_walk.h"

#include <gtest/gtest.h>

#include "testing/topologies.h"

namespace psssp::routing {
namespace {

// A ring of six switches, r = ring[0] the root: the column's entries are
// set by hand per case, ring[i] hopping to ring[i - 1] or ring[i + 1].
struct Ring {
  Fabric f = testing::ring(6, 1);
  RoutingGraph g = make_routing_graph(f);
  std::vector<Vertex> ring;
  std::vector<std::uint32_t> component = std::vector<std::uint32_t>(g.vertex_count, 0);
  std::vector<PortNum> col = std::vector<PortNum>(g.vertex_count, kNoPath);

  Ring() {
    ring.push_back(0);
    for (Vertex prev = kNoEdge, v = 0; ring.size() < g.vertex_count;) {
      for (EdgeId e = g.first_edge[v]; e < g.first_edge[v + 1]; ++e)
        if (g.target[e] != prev && g.target[e] != v) {
          prev = v;
          v = g.target[e];
          break;
        }
      ring.push_back(v);
    }
  }
  void hop(std::size_t from, std::size_t to) {
    for (EdgeId e = g.first_edge[ring[from]]; e < g.first_edge[ring[from] + 1]; ++e)
      if (g.target[e] == ring[to]) col[ring[from]] = g.out_port[e];
  }
  // Every good vertex comes after its next hop in `order`, root first.
  static void expect_tree_order(const DeliveryWalk& w, const RoutingGraph& g) {
    std::vector<bool> seen(g.vertex_count, false);
    ASSERT_FALSE(w.order.empty());
    seen[w.order[0]] = true;
    for (std::size_t i = 1; i < w.order.size(); ++i) {
      const Vertex u = w.order[i];
      ASSERT_NE(w.next[u], kNoEdge);
      EXPECT_TRUE(seen[g.target[w.next[u]]]) << "vertex " << u;
      EXPECT_EQ(w.depth[u], w.depth[g.target[w.next[u]]] + 1);
      seen[u] = true;
    }
  }
};

TEST(DeliveryWalk, GoodBadAndFailurePoints) {
  Ring r;
  ASSERT_EQ(r.ring.size(), 6u);
  r.hop(1, 0);
  r.hop(2, 1);  // ring[3] keeps kNoPath: a failure point
  r.hop(4, 3);  // runs into it
  r.hop(5, 0);
  DeliveryWalk w(r.g.vertex_count);
  w.run(r.g, r.col.data(), r.ring[0], r.component);
  using W = DeliveryWalk;
  const std::vector<std::uint8_t> want = {W::kGood,    W::kGood, W::kGood,
                                          W::kFailure, W::kBad,  W::kGood};
  const std::vector<std::uint32_t> depth = {0, 1, 2, 0, 0, 1};
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(w.state[r.ring[i]], want[i]) << i;
    if (want[i] == W::kGood) {
      EXPECT_EQ(w.depth[r.ring[i]], depth[i]) << i;
    }
  }
  EXPECT_EQ(w.order.size(), 4u);
  EXPECT_EQ(w.bad.size(), 2u);
  Ring::expect_tree_order(w, r.g);
  w.clear();
  for (const Vertex v : r.ring) EXPECT_EQ(w.state[v], W::kUnknown);
}

TEST(DeliveryWalk, LoopMembersAreFailurePoints) {
  Ring r;
  r.hop(1, 0);
  r.hop(2, 3);  // into the loop
  r.hop(3, 4);  // the loop 3 <-> 4
  r.hop(4, 3);
  r.hop(5, 4);  // into the loop from the other side
  DeliveryWalk w(r.g.vertex_count);
  w.run(r.g, r.col.data(), r.ring[0], r.component);
  using W = DeliveryWalk;
  const std::vector<std::uint8_t> want = {W::kGood,    W::kGood,    W::kBad,
                                          W::kFailure, W::kFailure, W::kBad};
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(w.state[r.ring[i]], want[i]) << i;
  Ring::expect_tree_order(w, r.g);
  // The same walker again, after clear(), on a column that delivers everywhere.
  w.clear();
  r.hop(2, 1);
  r.hop(3, 2);
  r.hop(4, 5);
  r.hop(5, 0);
  w.run(r.g, r.col.data(), r.ring[0], r.component);
  EXPECT_EQ(w.order.size(), 6u);
  EXPECT_TRUE(w.bad.empty());
  Ring::expect_tree_order(w, r.g);
  EXPECT_EQ(w.depth[r.ring[3]], 3u);
  EXPECT_EQ(w.depth[r.ring[4]], 2u);
}

}  // namespace
}  // namespace psssp::routing
