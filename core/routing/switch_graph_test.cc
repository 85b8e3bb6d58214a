// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "switch_graph.h"

#include <gtest/gtest.h>

#include <boost/range/iterator_range.hpp>

namespace psssp {
namespace {

TEST(SwitchGraph, KeepsParallelCablesDropsDownAndSelfCables) {
  Fabric f;
  const NodeId a = f.add_node(NodeType::switch_node, "a", 8);
  const NodeId h = f.add_node(NodeType::ca, "h", 1);
  const NodeId b = f.add_node(NodeType::switch_node, "b", 8);
  f.connect({a, 1}, {b, 1});
  f.connect({a, 2}, {b, 2});
  f.connect({a, 3}, {b, 3});
  f.connect({a, 4}, {a, 5});
  f.connect({a, 6}, {h, 1});
  f.port({a, 3}).healthy = false;
  f.index();
  const SwitchView view = make_switch_view(f);
  ASSERT_EQ(boost::num_vertices(view.graph), 2u);
  EXPECT_EQ(view.vertex_of[b], 1u);
  EXPECT_EQ(view.vertex_of[h], kNoVertex);
  std::vector<int> ports;
  for (auto e : boost::make_iterator_range(boost::out_edges(SwitchVertex{0}, view.graph))) {
    EXPECT_EQ(boost::target(e, view.graph), 1u);
    ports.push_back(view.graph[e].out_port);
    EXPECT_EQ(view.graph[e].channel, f.channel(PortRef{a, view.graph[e].out_port}));
  }
  EXPECT_EQ(ports, (std::vector<int>{1, 2}));
}

}  // namespace
}  // namespace psssp
