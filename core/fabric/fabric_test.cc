// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "fabric.h"

#include <gtest/gtest.h>

#include "forwarding_tables.h"

namespace psssp {
namespace {

// One switch with two dual-port hosts, the second host also using LMC 1.
Fabric small_fabric() {
  Fabric f;
  const NodeId sw = f.add_node(NodeType::switch_node, "sw", 8);
  const NodeId h1 = f.add_node(NodeType::ca, "h1", 2);
  const NodeId h2 = f.add_node(NodeType::ca, "h2", 1);
  f.node(sw).guid = 0x100;
  f.node(h1).guid = 0x200;
  f.node(h2).guid = 0x300;
  f.node(sw).ports[0].lid = 1;
  f.node(h1).ports[1].lid = 2;
  f.node(h1).ports[2].lid = 3;
  f.node(h2).ports[1].lid = 4;
  f.node(h2).ports[1].lmc = 1;
  f.node(h2).ports[1].guid = 0x301;
  f.connect({sw, 1}, {h1, 1}, LinkRate{LinkWidth::x4, LinkSpeed::qdr});
  f.connect({sw, 2}, {h1, 2});
  f.connect({sw, 3}, {h2, 1});
  f.index();
  return f;
}

TEST(Fabric, IndexesLidsGuidsAndHosts) {
  const Fabric f = small_fabric();
  EXPECT_EQ(f.max_lid(), 5);
  EXPECT_EQ(f.port_of_lid(1), (PortRef{0, 0}));
  EXPECT_EQ(f.port_of_lid(5), (PortRef{2, 1}));  // second LID of the LMC range
  EXPECT_FALSE(f.port_of_lid(6).valid());
  EXPECT_EQ(f.find_by_guid(0x300), std::optional<NodeId>(2));
  EXPECT_EQ(f.find_port_by_guid(0x301), std::optional<PortRef>(PortRef{2, 1}));
  ASSERT_EQ(f.host_ports().size(), 3u);
  EXPECT_EQ(f.switches(), std::vector<NodeId>{0});
  EXPECT_EQ(f.port({0, 1}).rate.to_string(), "4xQDR");
  EXPECT_EQ(f.port({1, 1}).remote, (PortRef{0, 1}));
}

TEST(Fabric, ChannelsRoundTrip) {
  const Fabric f = small_fabric();
  EXPECT_EQ(f.channel_count(), 9u + 3u + 2u);
  for (ChannelId c = 0; c < f.channel_count(); ++c) EXPECT_EQ(f.channel(f.channel_port(c)), c);
}

TEST(Fabric, RejectsDuplicates) {
  Fabric f = small_fabric();
  EXPECT_THROW(f.add_node(NodeType::ca, "h1", 1), FabricError);
  f.node(2).ports[1].lid = 3;  // overlaps h1 port 2
  EXPECT_THROW(f.index(), FabricError);
}

TEST(Fabric, RejectsPortCabledTwice) {
  Fabric f = small_fabric();
  const NodeId h3 = f.add_node(NodeType::ca, "h3", 1);
  EXPECT_THROW(f.connect({0, 1}, {h3, 1}), FabricError);
  EXPECT_THROW(f.connect({0, 9}, {h3, 1}), FabricError);
  EXPECT_NO_THROW(f.connect({0, 1}, {1, 1}));  // the same cable seen from the other end
}

TEST(Fabric, WarnsAboutSelfCabledPorts) {
  Fabric f;
  const NodeId sw = f.add_node(NodeType::switch_node, "sw", 4);
  f.connect({sw, 1}, {sw, 2});
  f.index();
  f.index();  // re-indexing (new LIDs, new order) reports it once
  ASSERT_EQ(f.warnings.size(), 1u);
  EXPECT_NE(f.warnings[0].find("same node"), std::string::npos);
}

TEST(ForwardingTables, StartsEmptyAndStores) {
  const Fabric f = small_fabric();
  ForwardingTables t(f);
  EXPECT_EQ(t.lid_count(), 6u);
  EXPECT_EQ(t.get(0, 4), kNoPath);
  t.set(0, 4, 3);
  EXPECT_EQ(t.get(0, 4), 3);
  EXPECT_TRUE(t.has_switch(0));
  EXPECT_FALSE(t.has_switch(1));
}

}  // namespace
}  // namespace psssp
