// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The LP bound against routings scored on the same flows: never below any
// routing's eBB in any run, 1 on a full-bisection tree, the exact value where
// only one path exists, minimal <= general, and the two methods within eps.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "bound/channel_network.h"
#include "bound/solver.h"
#include "bound_runs.h"
#include "ebb_scorer.h"
#include "host_set.h"
#include "patterns.h"
#include "routing/psssp_routing.h"
#include "testing/lids_and_lfts.h"
#include "testing/scoring_rig.h"
#include "topologies/builder.h"
#include "topologies/families.h"

namespace psssp::sim {
namespace {

constexpr std::uint64_t kRuns = 8;

struct Rig {
  Fabric fabric;
  std::vector<Host> hosts;
  explicit Rig(const topo::TopologySpec& spec) : fabric(topo::build_fabric(spec)) {
    psssp::testing::assign_lids(fabric);
    hosts = select_hosts(fabric, {});
  }
  PatternGenerator generator(const std::string& pattern = "bisect") const {
    return PatternGenerator(hosts, parse_pattern(pattern, "", "", "first", fabric, hosts), 11);
  }
};

std::vector<RunBound> bounds(const Rig& r, bool minimal,
                             bound::Method method = bound::Method::automatic,
                             const std::string& pattern = "bisect", double eps = 0.02,
                             std::uint64_t runs = kRuns) {
  const bound::ChannelNetwork net(r.fabric, false);
  BoundConfig c;
  c.runs = runs;
  c.threads = 2;
  c.solve.minimal = minimal;
  c.solve.method = method;
  c.solve.eps = eps;
  return bound_runs(net, r.generator(pattern), c);
}

std::vector<RunScore> scores(const Rig& r, const ForwardingTables& lfts) {
  const RouteTracer tracer(r.fabric, lfts);
  const EbbScorer scorer(tracer, r.hosts);
  ScoreConfig c;
  c.runs = kRuns;
  c.threads = 1;
  return score_runs(r.generator(), {&scorer}, c)[0].runs;
}

TEST(Bound, FullBisectionTreeIsOne) {
  const Rig r(topo::kary_ntree(4, 2, 4));
  for (bool minimal : {false, true})
    for (const RunBound& b : bounds(r, minimal)) {
      ASSERT_TRUE(b.solved && b.complete);
      EXPECT_NEAR(b.upper, 1.0, 1e-6);
      EXPECT_LE(b.lower, b.upper + 1e-9);
    }
}

TEST(Bound, OneCableBetweenTwoSwitchesIsTheScore) {
  // Every flow has one path, so every routing's eBB is the LP's value.
  const testing::ScoringRig s(2, 6);
  const PatternGenerator gen(s.hosts,
                             parse_pattern("bisect", "", "", "first", s.chain.fabric, s.hosts), 5);
  ScoreConfig sc;
  sc.runs = 20;
  const std::vector<RunScore> ebb = score_runs(gen, {s.scorer.get()}, sc)[0].runs;
  const bound::ChannelNetwork net(s.chain.fabric, false);
  BoundConfig bc;
  bc.runs = 20;
  for (bound::Method m : {bound::Method::arc_lp, bound::Method::exact}) {
    bc.solve.method = m;
    bc.solve.eps = 1e-9;
    const std::vector<RunBound> b = bound_runs(net, gen, bc);
    for (std::size_t i = 0; i < b.size(); ++i) EXPECT_NEAR(b[i].upper, ebb[i].ebb, 1e-6) << i;
  }
}

TEST(Bound, GatherSharesTheRootLink) {
  const testing::ScoringRig s(1, 9);
  const PatternGenerator gen(s.hosts,
                             parse_pattern("gather", "", "", "first", s.chain.fabric, s.hosts), 1);
  const bound::ChannelNetwork net(s.chain.fabric, false);
  BoundConfig bc;
  bc.runs = 1;
  EXPECT_NEAR(bound_runs(net, gen, bc)[0].upper, 1.0 / 8, 1e-6);
}

struct Family {
  const char* name;
  topo::TopologySpec spec;
};

std::vector<Family> families() {
  return {{"torus 4x4", topo::grid({4, 4}, true, 2)},
          {"dragonfly 4-2-2", topo::dragonfly(4, 2, 2)},
          {"hypercube 4", topo::hypercube(4, 2)},
          {"tree 2:1", topo::tapered_tree(4, 2, 4, 2)}};
}

// Per run: minimal <= general, and each at least the eBB of psssp's tables
// (minimal and not) and of min-hop tables on the same flows.
TEST(Bound, AtLeastEveryRoutingInEveryRun) {
  for (const Family& fam : families()) {
    const Rig r(fam.spec);
    const std::vector<RunBound> general = bounds(r, false), minimal = bounds(r, true);
    RoutingOptions nonminimal;
    nonminimal.minimal = false;
    nonminimal.threads = 1;
    RoutingOptions plain;
    plain.threads = 1;
    const std::vector<RunScore> minhop = scores(r, psssp::testing::min_hop_lfts(r.fabric));
    const std::vector<RunScore> psssp_min = scores(r, route_psssp(r.fabric, plain).lfts);
    const std::vector<RunScore> psssp_any = scores(r, route_psssp(r.fabric, nonminimal).lfts);
    for (std::size_t i = 0; i < kRuns; ++i) {
      SCOPED_TRACE(std::string(fam.name) + " run " + std::to_string(i));
      ASSERT_TRUE(general[i].solved && minimal[i].solved);
      EXPECT_LE(minimal[i].upper, general[i].upper + 1e-7);
      EXPECT_LE(general[i].upper, 1.0 + 1e-7);
      for (const std::vector<RunScore>* s : {&minhop, &psssp_min})
        EXPECT_GE(minimal[i].upper, (*s)[i].ebb - 1e-7);
      for (const std::vector<RunScore>* s : {&minhop, &psssp_min, &psssp_any})
        EXPECT_GE(general[i].upper, (*s)[i].ebb - 1e-7);
    }
  }
}

TEST(Bound, ColumnGenerationAgreesWithTheArcLp) {
  constexpr double kEps = 0.02;
  constexpr std::uint64_t kArcRuns = 4;  // the arc LP is slow
  for (const Family& fam : families()) {
    const Rig r(fam.spec);
    for (bool minimal : {false, true}) {
      const std::vector<RunBound> exact =
          bounds(r, minimal, bound::Method::arc_lp, "bisect", kEps, kArcRuns);
      const std::vector<RunBound> exact_cg =
          bounds(r, minimal, bound::Method::exact, "bisect", kEps, kArcRuns);
      const std::vector<RunBound> approx =
          bounds(r, minimal, bound::Method::approximate, "bisect", kEps, kArcRuns);
      for (std::size_t i = 0; i < kArcRuns; ++i) {
        SCOPED_TRACE(std::string(fam.name) + (minimal ? " minimal" : "") + " run " +
                     std::to_string(i));
        ASSERT_TRUE(exact[i].complete && approx[i].complete);
        EXPECT_EQ(approx[i].method, bound::Method::approximate);
        EXPECT_NEAR(exact_cg[i].upper, exact[i].upper, 2e-6);
        // Both are upper bounds; the exact one is the LP, the other within eps of it.
        EXPECT_GE(approx[i].upper, exact[i].upper - 1e-6);
        EXPECT_LE(approx[i].upper, (1 + kEps) * exact[i].upper + 1e-6);
        EXPECT_LE(exact[i].upper, exact[i].lower * (1 + 1e-6) + 1e-6);
      }
    }
  }
}

TEST(Bound, AnExpiredDeadlineBoundsNothing) {
  const Rig r(topo::grid({4, 4}, true, 2));
  const bound::ChannelNetwork net(r.fabric, false);
  BoundConfig c;
  c.runs = 3;
  c.solve.deadline = bound::Clock::now();
  for (const RunBound& b : bound_runs(net, r.generator(), c)) EXPECT_FALSE(b.solved);
}

}  // namespace
}  // namespace psssp::sim
