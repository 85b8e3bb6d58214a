// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "builder.h"

#include <gtest/gtest.h>

#include <set>

#include "families.h"
#include "testing/topology_checks.h"

namespace psssp::topo {
namespace {

TEST(Builder, GuidsNamesAndPortsFollowTheScheme) {
  const Fabric f = build_fabric(fattree2(2, 3, 2, 1, 0));
  std::set<Guid> guids;
  for (NodeId id = 0; id < f.node_count(); ++id) {
    const Node& n = f.node(id);
    EXPECT_EQ(n.description, n.name);
    EXPECT_TRUE(guids.insert(n.guid).second) << n.name;
    EXPECT_EQ(n.system_image_guid, n.guid);
    for (PortNum p = 1; p <= n.num_ports(); ++p) {
      EXPECT_EQ(n.ports[p].lid, 0);
      if (n.ports[p].connected()) {
        EXPECT_LE(n.ports[p].remote.port, f.node(n.ports[p].remote.node).num_ports());
        EXPECT_EQ(f.port(n.ports[p].remote).remote, (PortRef{id, p}));
        EXPECT_EQ(n.ports[p].rate.to_string(), "4xQDR");
      }
      if (!n.is_switch()) {
        EXPECT_EQ(n.ports[p].guid, n.guid + p);
      }
    }
  }
  EXPECT_EQ(f.node(0).guid, switch_guid(0));
  EXPECT_EQ(f.node(0).ports[0].guid, switch_guid(0));
  const NodeId h5 = *f.find_by_name("h-5");
  EXPECT_EQ(f.node(h5).guid, 0x5053480000000050ull);
  EXPECT_EQ(f.find_by_guid(0x5053570000000003ull), f.find_by_name("spine-1"));
}

TEST(Builder, DualPortGoesToTheNextEdgeSwitch) {
  const Fabric f = build_fabric(fattree2(3, 2, 1, 1, 0), test::dual_port());
  EXPECT_EQ(test::count(f).host_cables, 12u);
  for (NodeId id = 0; id < f.node_count(); ++id) {
    const Node& n = f.node(id);
    if (n.is_switch()) continue;
    ASSERT_EQ(n.num_ports(), 2);
    const NodeId first = n.ports[1].remote.node, second = n.ports[2].remote.node;
    EXPECT_EQ(second, (first + 1) % 3) << n.name;
  }
  // Own hosts on ports 1-2, the previous leaf's second ports on 3-4, uplink 5.
  const Node& leaf1 = f.node(1);
  EXPECT_EQ(leaf1.num_ports(), 5);
  EXPECT_EQ(f.node(leaf1.ports[3].remote.node).name, "h-0");
  EXPECT_EQ(leaf1.ports[3].remote.port, 2);
  EXPECT_EQ(f.node(leaf1.ports[5].remote.node).name, "spine-0");
}

TEST(Builder, DualPortSingleSwitchUsesTheSameSwitch) {
  const Fabric f = build_fabric(kary_ntree(4, 1, 4), test::dual_port());
  const Node& h = f.node(*f.find_by_name("h-2"));
  EXPECT_EQ(h.ports[1].remote.node, h.ports[2].remote.node);
}

TEST(Builder, FixedSlotsTwiceIsAnError) {
  TopologySpec spec;
  spec.switches = {{"a", 0, 0}, {"b", 0, 0}, {"c", 0, 0}};
  spec.cables = {{0, 1, 1, 1}, {0, 2, 1, 1}};
  EXPECT_THROW(build_fabric(spec), std::invalid_argument);
}

}  // namespace
}  // namespace psssp::topo
