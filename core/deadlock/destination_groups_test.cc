// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "destination_groups.h"

#include <gtest/gtest.h>

#include "route_walk.h"
#include "testing/topologies.h"

namespace psssp::deadlock {
namespace {

TEST(DestinationGroups, LidsOfOneSwitchFormAGroupInUnitsOfWholeGroups) {
  // A ring of 6 switches with 3 hosts each: LIDs 1-6 are the switches, then
  // the hosts switch by switch. Groups of at most 2: each switch's 4 LIDs
  // are 2 groups of 2; units of at least 5 LIDs hold whole groups.
  const Fabric f = testing::ring(6, 3);
  const std::vector<Lid> dests = destination_lids(f);
  ASSERT_EQ(dests.size(), 24u);
  const DestinationGroups g = group_by_switch(f, dests, 2, 5);
  EXPECT_EQ(g.max_group, 2u);
  ASSERT_EQ(g.members.size(), dests.size());
  std::vector<int> seen(dests.size(), 0);
  for (std::size_t m = 0; m < g.members.size(); ++m) {
    const std::size_t d = g.members[m];
    ++seen[d];
    const std::size_t first = g.group_first[d];
    ASSERT_LE(first, m);
    EXPECT_LT(m - first, 2u);
    // One switch delivers every LID of a group, in ascending order.
    const PortRef a = f.port_of_lid(dests[g.members[first]]);
    const PortRef b = f.port_of_lid(dests[d]);
    const NodeId sa = f.node(a.node).is_switch() ? a.node : f.port(a).remote.node;
    const NodeId sb = f.node(b.node).is_switch() ? b.node : f.port(b).remote.node;
    EXPECT_EQ(sa, sb) << "LID " << dests[d];
    if (m > first) {
      EXPECT_LT(g.members[m - 1], d);
    }
  }
  for (const int n : seen) EXPECT_EQ(n, 1);
  // Switch 0's LID (1) and its hosts' first group come first.
  EXPECT_EQ(dests[g.members[0]], 1);
  EXPECT_EQ(g.group_first[g.members[1]], 0u);
  // Units end where a group ends, after 5 or more LIDs (the last may hold
  // fewer).
  ASSERT_GE(g.units(), 2u);
  EXPECT_EQ(g.unit_begin.front(), 0u);
  EXPECT_EQ(g.unit_begin.back(), g.members.size());
  for (std::size_t u = 0; u < g.units(); ++u) {
    const std::size_t b = g.unit_begin[u], e = g.unit_begin[u + 1];
    EXPECT_EQ(g.group_first[g.members[b]], b);
    if (u + 1 < g.units()) {
      EXPECT_GE(e - b, 5u);
      EXPECT_LE(e - b, 6u);
    }
  }
}

TEST(DestinationGroups, SwitchesComeInNodeOrderWhateverTheirLids) {
  // The ring's switch LIDs reversed (sw-5 has LID 1): the groups still go
  // sw-0, sw-1, ..., so an order built on them does not depend on how the
  // subnet manager numbered the LIDs.
  Fabric f = testing::ring(6, 3);
  const std::vector<NodeId> switches = f.switches();
  for (std::size_t i = 0; i < switches.size(); ++i)
    f.node(switches[i]).ports[0].lid = static_cast<Lid>(switches.size() - i);
  f.index();
  const std::vector<Lid> dests = destination_lids(f);
  const DestinationGroups g = group_by_switch(f, dests, 254, 5);
  std::vector<NodeId> order;
  for (std::size_t m = 0; m < g.members.size(); ++m) {
    if (g.group_first[g.members[m]] != m) continue;
    const PortRef p = f.port_of_lid(dests[g.members[m]]);
    order.push_back(f.node(p.node).is_switch() ? p.node : f.port(p).remote.node);
  }
  EXPECT_EQ(order, switches);
}

}  // namespace
}  // namespace psssp::deadlock
