// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "families.h"

#include <gtest/gtest.h>

#include "builder.h"
#include "failures.h"
#include "testing/topology_checks.h"

namespace psssp::topo {
namespace {

using test::count;
using test::host_ports;
using test::switch_degree;

TEST(KaryNtree, CountsAndRadix) {
  const Fabric f = build_fabric(kary_ntree(4, 3, 4));
  const auto c = count(f);
  EXPECT_EQ(c.switches, 48u);
  EXPECT_EQ(c.hosts, 64u);
  EXPECT_EQ(c.switch_cables, 2u * 16 * 4);
  for (NodeId s : f.switches()) {
    EXPECT_EQ(f.node(s).num_ports(), 8) << f.node(s).name;
    const bool leaf = f.node(s).name.rfind("leaf-", 0) == 0;
    const bool core = f.node(s).name.rfind("core-", 0) == 0;
    EXPECT_EQ(switch_degree(f, s), leaf || core ? 4u : 8u) << f.node(s).name;
    EXPECT_EQ(host_ports(f, s), leaf ? 4u : 0u);
  }
  EXPECT_TRUE(is_connected(f));
}

TEST(KaryNtree, LeafPortsAreHostsThenUplinks) {
  const Fabric f = build_fabric(kary_ntree(2, 2, 2));
  const Node& leaf = f.node(*f.find_by_name("leaf-0"));
  EXPECT_EQ(f.node(leaf.ports[1].remote.node).name, "h-0");
  EXPECT_EQ(f.node(leaf.ports[2].remote.node).name, "h-1");
  EXPECT_EQ(f.node(leaf.ports[3].remote.node).name, "spine-0");
  EXPECT_EQ(f.node(leaf.ports[4].remote.node).name, "spine-1");
}

TEST(FatTree2, OversubscribedWithParallelCables) {
  const TopologySpec spec = fattree2(6, 18, 2, 4, 0);
  const Fabric f = build_fabric(spec);
  const auto c = count(f);
  EXPECT_EQ(c.switches, 8u);
  EXPECT_EQ(c.hosts, 108u);
  EXPECT_EQ(c.switch_cables, 6u * 2 * 4);
  EXPECT_EQ(test::switch_pairs(f).size(), 12u);
  EXPECT_EQ(f.node(*f.find_by_name("leaf-5")).num_ports(), 18 + 8);
  EXPECT_EQ(f.node(*f.find_by_name("spine-1")).num_ports(), 24);
  EXPECT_EQ(spec.roots.size(), 2u);
}

TEST(FatTree2, HostsOnSpines) {
  const Fabric f = build_fabric(fattree2(3, 2, 2, 1, 5));
  EXPECT_EQ(count(f).hosts, 3u * 2 + 2 * 5);
  EXPECT_EQ(host_ports(f, *f.find_by_name("spine-0")), 5u);
}

TEST(FatTree3, PodsAggsCores) {
  const TopologySpec spec = fattree3(3, 4, 2, 2, 3, 2, 0);
  const Fabric f = build_fabric(spec);
  const auto c = count(f);
  EXPECT_EQ(c.switches, 12u + 6 + 6);
  EXPECT_EQ(c.hosts, 24u);
  // leaf-agg: 12 leaves x 2 aggs x 2 cables; agg-core: 6 aggs x 3 cores x 2 cables
  EXPECT_EQ(c.switch_cables, 48u + 36);
  EXPECT_EQ(spec.roots.size(), 6u);
  for (std::size_t r : spec.roots) EXPECT_EQ(switch_degree(f, static_cast<NodeId>(r)), 3u * 2);
  EXPECT_TRUE(is_connected(f));
}

TEST(Grid, TorusDegreesAndWrap) {
  const Fabric f = build_fabric(grid({8, 8}, true, 4));
  const auto c = count(f);
  EXPECT_EQ(c.switches, 64u);
  EXPECT_EQ(c.hosts, 256u);
  EXPECT_EQ(c.switch_cables, 128u);
  for (NodeId s : f.switches()) EXPECT_EQ(switch_degree(f, s), 4u);
  // Fixed layout: x+ is the first port after the hosts.
  const Node& origin = f.node(*f.find_by_name("sw-0-0"));
  EXPECT_EQ(f.node(origin.ports[5].remote.node).name, "sw-1-0");
  EXPECT_EQ(f.node(origin.ports[6].remote.node).name, "sw-7-0");
  EXPECT_EQ(f.node(origin.ports[7].remote.node).name, "sw-0-1");
}

TEST(Grid, RadixTwoRingHasTwoCables) {
  const Fabric f = build_fabric(grid({2, 3}, true, 1));
  EXPECT_EQ(count(f).switch_cables, 6u + 6);
  for (NodeId s : f.switches()) EXPECT_EQ(switch_degree(f, s), 4u);
}

TEST(Grid, MeshHasNoWrapButSamePortLayout) {
  const Fabric f = build_fabric(grid({4, 4, 4}, false, 1));
  EXPECT_EQ(count(f).switch_cables, 3u * 16 * 3);
  for (NodeId s : f.switches()) {
    EXPECT_EQ(f.node(s).num_ports(), 7);
    EXPECT_GE(switch_degree(f, s), 3u);
    EXPECT_LE(switch_degree(f, s), 6u);
  }
  EXPECT_EQ(switch_degree(f, *f.find_by_name("sw-0-0-0")), 3u);
  EXPECT_EQ(switch_degree(f, *f.find_by_name("sw-1-2-1")), 6u);
}

TEST(Hypercube, Degree) {
  const Fabric f = build_fabric(hypercube(6, 2));
  EXPECT_EQ(count(f).switches, 64u);
  EXPECT_EQ(count(f).switch_cables, 192u);
  for (NodeId s : f.switches()) {
    EXPECT_EQ(switch_degree(f, s), 6u);
    // Port 2 + i + 1 flips bit i.
    const Node& n = f.node(s);
    for (unsigned i = 0; i < 6; ++i)
      EXPECT_EQ(n.ports[3 + i].remote.node, static_cast<NodeId>(s ^ (1u << i)));
  }
}

TEST(Dragonfly, BalancedGlobalWiring) {
  const unsigned a = 4, p = 2, h = 2, groups = a * h + 1;
  const Fabric f = build_fabric(dragonfly(a, p, h));
  const auto c = count(f);
  EXPECT_EQ(c.switches, groups * a);
  EXPECT_EQ(c.hosts, groups * a * p);
  EXPECT_EQ(c.switch_cables, groups * a * (a - 1) / 2 + groups * (groups - 1) / 2);
  for (NodeId s : f.switches()) EXPECT_EQ(switch_degree(f, s), a - 1 + h);
  // Every pair of groups exactly once.
  std::set<std::pair<unsigned, unsigned>> group_pairs;
  for (NodeId s : f.switches())
    for (PortNum port = p + a; port < p + a + h; ++port) {
      const unsigned g1 = s / a, g2 = f.node(s).ports[port].remote.node / a;
      EXPECT_NE(g1, g2);
      group_pairs.insert({std::min(g1, g2), std::max(g1, g2)});
    }
  EXPECT_EQ(group_pairs.size(), groups * (groups - 1) / 2);
}

TEST(HyperX, CompleteGraphPerDimension) {
  const Fabric f = build_fabric(hyperx({8, 8}, 1, 2));
  EXPECT_EQ(count(f).switches, 64u);
  EXPECT_EQ(count(f).switch_cables, 64u * 14 / 2);
  for (NodeId s : f.switches()) EXPECT_EQ(switch_degree(f, s), 14u);
  const Fabric t = build_fabric(hyperx({3, 2}, 2, 1));
  EXPECT_EQ(count(t).switch_cables, 2u * (3 * 2 / 2) * 2 + 3u * 1 * 2);
  for (NodeId s : t.switches()) EXPECT_EQ(switch_degree(t, s), (2u + 1) * 2);
}

TEST(Kautz, ArcsAreCables) {
  const Fabric f = build_fabric(kautz(2, 2, 1));
  EXPECT_EQ(count(f).switches, 12u);
  EXPECT_EQ(count(f).switch_cables, 24u);
  for (NodeId s : f.switches()) EXPECT_EQ(switch_degree(f, s), 4u);
  EXPECT_TRUE(is_connected(f));
  // 012 -> 120 on its first out port.
  const Node& n = f.node(*f.find_by_name("kz-012"));
  EXPECT_EQ(f.node(n.ports[2].remote.node).name, "kz-120");
  EXPECT_EQ(count(build_fabric(kautz(3, 3, 0))).switches, 4u * 27);
}

TEST(RandomRegular, SimpleConnectedRegular) {
  const Fabric f = build_fabric(random_regular(128, 8, 8, 7));
  EXPECT_EQ(count(f).switch_cables, 128u * 8 / 2);
  EXPECT_EQ(test::switch_pairs(f).size(), 128u * 8 / 2);  // no parallel cables
  for (NodeId s : f.switches()) EXPECT_EQ(switch_degree(f, s), 8u);
  EXPECT_TRUE(is_connected(f));
}

TEST(RandomRegular, DeterministicPerSeed) {
  EXPECT_EQ(test::switch_pairs(build_fabric(random_regular(32, 4, 1, 5))),
            test::switch_pairs(build_fabric(random_regular(32, 4, 1, 5))));
  EXPECT_NE(test::switch_pairs(build_fabric(random_regular(32, 4, 1, 5))),
            test::switch_pairs(build_fabric(random_regular(32, 4, 1, 6))));
}

TEST(Families, RejectBadArguments) {
  EXPECT_THROW(random_regular(7, 3, 1, 1), std::invalid_argument);
  EXPECT_THROW(grid({4, 0}, true, 1), std::invalid_argument);
  EXPECT_THROW(kary_ntree(0, 2, 1), std::invalid_argument);
  // 300 hosts on one leaf exceed the switch port limit.
  EXPECT_THROW(build_fabric(fattree2(2, 300, 1, 1, 0)), std::invalid_argument);
  // 4^99 switches: the size product once wrapped around to "no switches".
  for (unsigned n : {9u, 33u, 99u}) {
    try {
      kary_ntree(4, n, 4);
      ADD_FAILURE() << "n=" << n << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("more than 100000 switches"), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace psssp::topo
