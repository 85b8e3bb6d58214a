// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Today's designs: tapered and grown trees, Dragonfly+, rail-optimised trees.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "builder.h"
#include "failures.h"
#include "families.h"
#include "registry.h"
#include "testing/topology_checks.h"

namespace psssp::topo {
namespace {

using test::count;
using test::host_ports;
using test::switch_degree;
using Map = std::map<std::string, std::string>;

TopologySpec make(const std::string& family, Map options) {
  Params p(std::move(options));
  return generate(family, p);
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// Cables from switch `id` to switches whose name starts with `prefix`.
unsigned cables_to(const Fabric& f, NodeId id, const char* prefix) {
  unsigned n = 0;
  for (const Port& p : f.node(id).ports)
    n += p.connected() && starts_with(f.node(p.remote.node).name, prefix);
  return n;
}

TEST(TaperedTree, LeavesOversubscribedUpperLevelsFull) {
  const TopologySpec spec = tapered_tree(4, 3, 6, 2);
  const Fabric f = build_fabric(spec);
  const auto c = count(f);
  EXPECT_EQ(c.hosts, 16u * 6);
  EXPECT_EQ(c.switches, 16u + 8 + 8);  // leaves, 4 x 2 aggregation, 8 cores
  EXPECT_EQ(c.switch_cables, 16u * 2 + 8 * 4);
  EXPECT_EQ(spec.roots.size(), 8u);
  for (NodeId s : f.switches()) {
    const Node& n = f.node(s);
    EXPECT_EQ(n.num_ports(), 8) << n.name;
    if (starts_with(n.name, "leaf-")) {
      EXPECT_EQ(host_ports(f, s), 6u);
      EXPECT_EQ(switch_degree(f, s), 2u);
    } else {
      EXPECT_EQ(switch_degree(f, s), starts_with(n.name, "core-") ? 4u : 8u) << n.name;
    }
  }
  EXPECT_TRUE(is_connected(f));
  // Defaults: 2:1 on a 4-ary 3-tree.
  const Fabric d = build_fabric(make("tapered-tree", {}));
  EXPECT_EQ(count(d).hosts, 64u);
  EXPECT_EQ(switch_degree(d, *d.find_by_name("leaf-0")), 2u);
  EXPECT_THROW(tapered_tree(4, 1, 4, 2), std::invalid_argument);
  EXPECT_THROW(tapered_tree(4, 3, 4, 0), std::invalid_argument);
}

TEST(GrownTree, UnevenLeavesShortUplinksSpineHosts) {
  GrownTreeParams p;
  p.seed = 3;
  const TopologySpec spec = grown_tree(p);
  const Fabric f = build_fabric(spec);
  unsigned short_leaves = 0, spine_hosts = 0;
  std::set<unsigned> host_counts;
  for (NodeId s : f.switches()) {
    const Node& n = f.node(s);
    if (starts_with(n.name, "spine-")) {
      spine_hosts += host_ports(f, s);
      continue;
    }
    const unsigned leaf = static_cast<unsigned>(std::stoul(n.name.substr(5)));
    EXPECT_EQ(n.num_ports(), leaf < 8 ? 36 : 40) << n.name;
    const unsigned hosts = host_ports(f, s);
    EXPECT_GE(hosts, 4u);
    EXPECT_LE(hosts, 18u);
    host_counts.insert(hosts);
    const unsigned up = switch_degree(f, s);
    EXPECT_TRUE(up == 8 || up == 2) << n.name << " " << up;
    short_leaves += up == 2;
    if (up != 8) continue;
    for (unsigned k = 0; k < 8; ++k)  // one cable to every spine
      EXPECT_EQ(cables_to(f, s, ("spine-" + std::to_string(k)).c_str()), 1u);
  }
  EXPECT_EQ(short_leaves, 2u);
  EXPECT_EQ(spine_hosts, 4u);
  EXPECT_GE(host_counts.size(), 4u);  // uneven
  EXPECT_EQ(spec.roots.size(), 8u);
  EXPECT_TRUE(is_connected(f));
}

TEST(GrownTree, DeterministicPerSeed) {
  auto shape = [](std::uint64_t seed) {
    Params p(Map{{"seed", std::to_string(seed)}, {"leaves", "10"}, {"spines", "4"}});
    const Fabric f = build_fabric(generate("grown-tree", p));
    std::vector<std::pair<unsigned, unsigned>> out;  // hosts, uplinks per switch
    for (NodeId s : f.switches()) out.emplace_back(host_ports(f, s), switch_degree(f, s));
    return out;
  };
  EXPECT_EQ(shape(5), shape(5));
  EXPECT_NE(shape(5), shape(6));
  GrownTreeParams bad;
  bad.min_hosts = 20;
  EXPECT_THROW(grown_tree(bad), std::invalid_argument);
  bad = {};
  bad.short_leaves = 17;
  EXPECT_THROW(grown_tree(bad), std::invalid_argument);
  bad = {};
  bad.old_radix = 8;
  EXPECT_THROW(grown_tree(bad), std::invalid_argument);
}

TEST(DragonflyPlus, GroupsAreTreesSpinesCarryTheGlobalCables) {
  const unsigned groups = 9, leaves = 4, spines = 2, hosts = 3, global = 4;
  const TopologySpec spec = dragonfly_plus(groups, leaves, spines, hosts, global);
  const Fabric f = build_fabric(spec);
  const auto c = count(f);
  EXPECT_EQ(c.switches, groups * (leaves + spines));
  EXPECT_EQ(c.hosts, groups * leaves * hosts);
  EXPECT_EQ(c.switch_cables, groups * leaves * spines + groups * (groups - 1) / 2);
  EXPECT_EQ(spec.roots.size(), groups * spines);
  auto group_of = [&](NodeId s) { return std::stoul(f.node(s).name.substr(1)); };
  std::map<std::pair<unsigned long, unsigned long>, unsigned> pairs;
  for (NodeId s : f.switches()) {
    const Node& n = f.node(s);
    if (n.name.find("leaf") != std::string::npos) {
      EXPECT_EQ(host_ports(f, s), hosts);
      EXPECT_EQ(switch_degree(f, s), spines);
      for (const Port& p : n.ports) {  // leaves reach only their own group's spines
        if (p.connected() && f.node(p.remote.node).is_switch()) {
          EXPECT_EQ(group_of(p.remote.node), group_of(s));
        }
      }
      continue;
    }
    EXPECT_EQ(host_ports(f, s), 0u);
    EXPECT_EQ(switch_degree(f, s), leaves + global);
    for (PortNum port = leaves + 1; port <= leaves + global; ++port) {
      const NodeId far = n.ports[port].remote.node;
      EXPECT_NE(f.node(far).name.find("spine"), std::string::npos);
      if (group_of(s) < group_of(far)) ++pairs[{group_of(s), group_of(far)}];
    }
  }
  EXPECT_EQ(pairs.size(), groups * (groups - 1) / 2);
  for (const auto& [pair, cables] : pairs) EXPECT_EQ(cables, 1u);
  EXPECT_TRUE(is_connected(f));
}

TEST(DragonflyPlus, FewerGroupsGetParallelCablesTaperingLeavesPortsDark) {
  // 8 global ports per group, 3 other groups: 2 cables per pair, 2 ports dark.
  const Fabric f = build_fabric(dragonfly_plus(4, 4, 4, 4, 2));
  EXPECT_EQ(count(f).switch_cables, 4u * 16 + 6 * 2);
  for (NodeId s : f.switches())  // leaves: 4 hosts and 4 spines; spines: 4 leaves, 2 global
    EXPECT_EQ(f.node(s).num_ports(), f.node(s).name.find("leaf") != std::string::npos ? 8 : 6)
        << f.node(s).name;
  // Defaults: 4 leaves and spines, 4 global cables per spine, 17 groups.
  EXPECT_EQ(count(build_fabric(make("dragonfly-plus", {}))).hosts, 17u * 16);
  // Tapered 2:1 globally: 2 global cables per spine for 4 leaves, 9 groups.
  EXPECT_EQ(count(build_fabric(make("dragonfly-plus", {{"global-links", "2"}}))).switches, 9u * 8);
  EXPECT_THROW(dragonfly_plus(18, 4, 4, 4, 4), std::invalid_argument);
  EXPECT_THROW(dragonfly_plus(4, 0, 4, 4, 4), std::invalid_argument);
}

TEST(RailOptimized, HcaRideTheirRailLeaf) {
  const unsigned units = 2, servers = 4, hcas = 3;
  const TopologySpec spec = rail_optimized(units, servers, hcas, 2, 2);
  const Fabric f = build_fabric(spec);
  const auto c = count(f);
  EXPECT_EQ(c.switches, units * hcas + 2);
  EXPECT_EQ(c.hosts, units * servers * hcas);
  EXPECT_EQ(c.switch_cables, units * hcas * 2 * 2);
  EXPECT_EQ(spec.roots.size(), 2u);
  std::set<std::string> seen;
  for (NodeId s : f.switches()) {
    const Node& n = f.node(s);
    if (starts_with(n.name, "spine-")) continue;
    const unsigned unit = n.name[2] - '0', rail = n.name.back() - '0';
    EXPECT_EQ(switch_degree(f, s), 4u);
    for (PortNum p = 1; p <= servers; ++p) {
      const Node& host = f.node(n.ports[p].remote.node);
      char want[32];
      std::snprintf(want, sizeof want, "node%03u mlx5_%u", unit * servers + p, rail);
      EXPECT_EQ(host.description, want) << n.name;
      EXPECT_TRUE(starts_with(host.name, "h-"));
      seen.insert(host.description);
    }
  }
  EXPECT_EQ(seen.size(), units * servers * hcas);
  // Full bisection by default: as many uplinks as servers.
  const Fabric d = build_fabric(make("rail-optimized", {{"servers", "6"}, {"cables", "2"}}));
  EXPECT_EQ(switch_degree(d, *d.find_by_name("su1-rail7")), 6u);
  EXPECT_EQ(count(d).switches, 16u + 3);
  // Server numbers widen beyond 999.
  const Fabric wide = build_fabric(rail_optimized(5, 200, 1, 1, 1));
  EXPECT_EQ(wide.node(*wide.find_by_name("h-999")).description, "node1000 mlx5_0");
  EXPECT_EQ(wide.node(*wide.find_by_name("h-0")).description, "node0001 mlx5_0");
  EXPECT_THROW(rail_optimized(1, 300, 8, 1, 1), std::invalid_argument);
}

TEST(Builder, HostDescriptionsMustMatchTheHosts) {
  TopologySpec spec;
  spec.switches.push_back({"s", 2, 0});
  spec.host_descriptions = {{"only one"}};
  EXPECT_THROW(build_fabric(spec), std::invalid_argument);
}

}  // namespace
}  // namespace psssp::topo
