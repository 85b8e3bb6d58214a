// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// One eBB definition: the router's estimate (core/routing) against the
// simulator's scorer on the same hosts and seed.
#include <gtest/gtest.h>

#include "ebb_scorer.h"
#include "host_set.h"
#include "patterns.h"
#include "routing/ebb_estimate.h"
#include "routing/psssp_routing.h"
#include "testing/routing_support.h"
#include "topologies/degrade.h"
#include "traffic/route_tracer.h"

namespace psssp {
namespace {

// psssp-sim score --pattern bisect (or bisect-fb): the mean run value.
double scorer_ebb(const Fabric& f, const ForwardingTables& lfts, unsigned runs, std::uint64_t seed,
                  bool both_ways, bool capacity = false) {
  const std::vector<sim::Host> hosts = sim::select_hosts(f, sim::HostFilter{});
  const std::string name = both_ways ? "bisect-fb" : "bisect";
  const sim::PatternGenerator patterns(hosts, sim::parse_pattern(name, "", "", "", f, hosts), seed);
  const RouteTracer tracer(f, lfts);
  const sim::EbbScorer scorer(tracer, hosts);
  sim::ScoreConfig config;
  config.runs = runs;
  config.threads = 2;
  const auto scores = sim::score_runs(patterns, {&scorer}, config);
  double total = 0.0;
  for (const sim::RunScore& r : scores[0].runs) total += capacity ? r.capacity : r.ebb;
  return total / runs;
}

TEST(EbbDefinitions, EstimateEqualsScorerOnThreeFabrics) {
  const std::vector<std::pair<const char*, Fabric>> fabrics = {
      {"4-ary 3-tree", testing::make_kary_ntree(4, 3).fabric},
      {"4x4 torus", testing::make_torus({4, 4}, 3)},
      {"random", testing::make_random(20, 5, 3, 11)},
  };
  for (const auto& [name, f] : fabrics) {
    const ForwardingTables lfts = route_psssp(f, RoutingOptions{}).lfts;
    for (const bool both_ways : {false, true}) {
      const double estimate = estimate_ebb(f, lfts, 300, 7, both_ways);
      EXPECT_GT(estimate, 0.1) << name;
      EXPECT_LT(estimate, 1.0) << name;
      EXPECT_EQ(estimate, scorer_ebb(f, lfts, 300, 7, both_ways)) << name << " " << both_ways;
    }
  }
}

// The router compares candidates on mixed rates by the scorer's cap-eBB.
TEST(EbbDefinitions, CapacityEstimateEqualsScorerOnMixedRates) {
  Fabric f = testing::make_kary_ntree(4, 3).fabric;
  ASSERT_GT(topo::degrade_cables(f, 0.2, LinkRate{LinkWidth::x1, LinkSpeed::qdr}, 5), 0u);
  const ForwardingTables lfts = route_psssp(f, RoutingOptions{}).lfts;
  const std::vector<PortRef> hosts = f.host_ports();
  for (const bool both_ways : {false, true}) {
    const double estimate = estimate_ebb(f, lfts, hosts, 300, 7, both_ways, true);
    EXPECT_GT(estimate, 0.1);
    EXPECT_LT(estimate, estimate_ebb(f, lfts, hosts, 300, 7, both_ways, false));
    EXPECT_NEAR(estimate, scorer_ebb(f, lfts, 300, 7, both_ways, true), 1e-12) << both_ways;
  }
}

}  // namespace
}  // namespace psssp
