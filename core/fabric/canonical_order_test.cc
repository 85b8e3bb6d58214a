// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "canonical_order.h"

#include <gtest/gtest.h>

namespace psssp {
namespace {

TEST(CanonicalOrder, SortsByGuidAndKeepsCables) {
  Fabric f;
  const NodeId h = f.add_node(NodeType::ca, "h", 1);
  const NodeId s2 = f.add_node(NodeType::switch_node, "s2", 4);
  const NodeId s1 = f.add_node(NodeType::switch_node, "s1", 4);
  f.node(h).guid = 0x30;
  f.node(s2).guid = 0x20;
  f.node(s1).guid = 0x10;
  f.node(h).ports[1].lid = 3;
  f.connect({h, 1}, {s2, 2});
  f.connect({s2, 1}, {s1, 3});
  f.index();

  const Fabric g = sorted_by_guid(f);
  ASSERT_EQ(g.node_count(), 3u);
  EXPECT_EQ(g.node(0).name, "s1");
  EXPECT_EQ(g.node(1).name, "s2");
  EXPECT_EQ(g.node(2).name, "h");
  EXPECT_EQ(g.port({2, 1}).remote, (PortRef{1, 2}));
  EXPECT_EQ(g.port({1, 1}).remote, (PortRef{0, 3}));
  EXPECT_EQ(g.port_of_lid(3), (PortRef{2, 1}));
  EXPECT_EQ(g.switches(), (std::vector<NodeId>{0, 1}));
}

}  // namespace
}  // namespace psssp
