// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The structured patterns the automatic order judges on (pattern_estimate.h)
// and the choice they make on a rail-optimised tree, where random
// bisections alone keep tables that are behind on shift.
#include "pattern_estimate.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "psssp_routing.h"
#include "testing/routing_support.h"
#include "topologies/families.h"

namespace psssp {
namespace {

Fabric rail_optimized(unsigned units, unsigned servers, unsigned hcas, unsigned spines) {
  Fabric f = topo::build_fabric(topo::rail_optimized(units, servers, hcas, spines, 1));
  testing::assign_lids(f);
  return f;
}

double pattern(const std::vector<double>& values, const StructuredPatterns& p,
               const std::string& name) {
  for (std::size_t i = 0; i < p.patterns.size(); ++i)
    if (p.patterns[i].name == name) return values.at(i);
  ADD_FAILURE() << "no pattern " << name;
  return -1.0;
}

TEST(PatternEstimate, HostnameOrderIsNatural) {
  Fabric f = rail_optimized(1, 2, 2, 2);
  const std::vector<PortRef>& hosts = f.host_ports();
  ASSERT_EQ(hosts.size(), 4u);
  const char* names[] = {"node10 mlx5_1", "node2 mlx5_1", "node10 mlx5_0", "node2 mlx5_0"};
  for (std::size_t h = 0; h < hosts.size(); ++h) f.node(hosts[h].node).description = names[h];
  const std::vector<std::uint32_t> order = hostname_order(f, hosts);
  ASSERT_EQ(order.size(), 4u);
  EXPECT_EQ(f.node(hosts[order[0]].node).description, "node2 mlx5_0");
  EXPECT_EQ(f.node(hosts[order[1]].node).description, "node2 mlx5_1");
  EXPECT_EQ(f.node(hosts[order[2]].node).description, "node10 mlx5_0");
  EXPECT_EQ(f.node(hosts[order[3]].node).description, "node10 mlx5_1");
}

TEST(PatternEstimate, PhasesArePermutations) {
  const Fabric f = rail_optimized(2, 4, 2, 4);
  const StructuredPatterns p = structured_patterns(f, f.host_ports(), 6);
  // Fabric order is leaf by leaf, hostname order server by server: both.
  ASSERT_EQ(p.patterns.size(), 6u);
  EXPECT_EQ(p.patterns[0].name, "shift linear");
  EXPECT_EQ(p.patterns[0].phases.size(), 6u);
  EXPECT_EQ(p.patterns[1].phases.size(), 4u);  // 16 hosts: 4 doubling phases
  EXPECT_EQ(p.patterns[3].name, "shift hostname");
  for (const auto& pat : p.patterns)
    for (const auto& phase : pat.phases) {
      std::vector<int> sends(16, 0), receives(16, 0);
      for (const auto& [s, d] : phase) {
        EXPECT_NE(s, d);
        ++sends.at(s);
        ++receives.at(d);
      }
      for (int h = 0; h < 16; ++h) EXPECT_LE(sends[h] + receives[h], 2) << pat.name;
    }
}

TEST(PatternEstimate, RailOptimisedShiftIsFull) {
  // 4 units of 16 servers with 8 HCAs, 16 spines: judged on bisections
  // alone the automatic order keeps tables that lose about a sixth of shift;
  // judged on the patterns, it keeps ones that lose nothing on any of them.
  const Fabric f = rail_optimized(4, 16, 8, 16);
  const std::vector<PortRef>& hosts = f.host_ports();
  const StructuredPatterns p = structured_patterns(f, hosts, 64);
  RoutingOptions old;
  old.judge_patterns = false;
  const RoutingResult judged = route_psssp(f, RoutingOptions{});
  const RoutingResult bisect_only = route_psssp(f, old);
  const std::vector<double> now = estimate_patterns(f, judged.lfts, hosts, p);
  const std::vector<double> before = estimate_patterns(f, bisect_only.lfts, hosts, p);
  for (const char* name : {"shift linear", "shift hostname", "recursive-doubling linear",
                           "recursive-doubling hostname", "ring linear", "ring hostname"})
    EXPECT_DOUBLE_EQ(pattern(now, p, name), 1.0) << name;
  EXPECT_LT(pattern(before, p, "shift hostname"), 0.9);
  EXPECT_TRUE(judged.passed_over_bisect_choice);
  EXPECT_EQ(judged.pattern_estimates.size(), 6u);
  // Not behind on the bisections either (the margin is their noise).
  EXPECT_GT(testing::estimate_ebb(f, judged.lfts, 2000),
            (1.0 - kFullSwitchMargin) * testing::estimate_ebb(f, bisect_only.lfts, 2000));
}

}  // namespace
}  // namespace psssp
