// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The LP bound against routings scored on the same flows: never below any
// routing's eBB in any run, 1 on a full-bisection tree, the exact value where
// only one path exists, minimal <= general, and the methods within eps: the
// approximate bound (Garg-Konemann / Fleischer) is at least the exact LP and
// at most (1 + eps) times it.
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
#include "topologies/degrade.h"
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
                             std::uint64_t runs = kRuns, bool capacity = false,
                             unsigned threads = 2) {
  const bound::ChannelNetwork net(r.fabric, capacity);
  BoundConfig c;
  c.runs = runs;
  c.threads = threads;
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
// (minimal and not) and of min-hop tables on the same flows; the exact bound
// (automatic, on these small fabrics) and the approximate one.
TEST(Bound, AtLeastEveryRoutingInEveryRun) {
  for (const Family& fam : families()) {
    const Rig r(fam.spec);
    const std::vector<RunBound> general = bounds(r, false), minimal = bounds(r, true);
    const std::vector<RunBound> general_approx = bounds(r, false, bound::Method::approximate),
                                minimal_approx = bounds(r, true, bound::Method::approximate);
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
      EXPECT_EQ(general[i].method, bound::Method::exact);
      for (const std::vector<RunScore>* s : {&minhop, &psssp_min}) {
        EXPECT_GE(minimal[i].upper, (*s)[i].ebb - 1e-7);
        EXPECT_GE(minimal_approx[i].upper, (*s)[i].ebb - 1e-7);
      }
      for (const std::vector<RunScore>* s : {&minhop, &psssp_min, &psssp_any}) {
        EXPECT_GE(general[i].upper, (*s)[i].ebb - 1e-7);
        EXPECT_GE(general_approx[i].upper, (*s)[i].ebb - 1e-7);
      }
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

// The approximate bound against the exact LP (column generation, within
// 1e-6), run by run: exact.lower <= LP <= approx.upper <= (1 + eps) LP, and
// its feasible flow below the LP. Both eps, both path sets, and cap-eBB on
// a fabric with slower cables.
TEST(Bound, ApproximateIsWithinEpsOfTheExactLp) {
  constexpr std::uint64_t kApproxRuns = 6;
  std::vector<Family> fabrics = families();
  fabrics.push_back({"torus 4x4x4", topo::grid({4, 4, 4}, true, 2)});
  for (const Family& fam : fabrics)
    for (bool minimal : {false, true})
      for (double eps : {0.02, 0.05}) {
        const Rig r(fam.spec);
        const std::vector<RunBound> exact =
            bounds(r, minimal, bound::Method::exact, "bisect", eps, kApproxRuns);
        const std::vector<RunBound> approx =
            bounds(r, minimal, bound::Method::approximate, "bisect", eps, kApproxRuns);
        for (std::size_t i = 0; i < kApproxRuns; ++i) {
          SCOPED_TRACE(std::string(fam.name) + (minimal ? " minimal" : "") + " eps " +
                       std::to_string(eps) + " run " + std::to_string(i));
          ASSERT_TRUE(exact[i].complete && approx[i].complete);
          EXPECT_EQ(approx[i].method, bound::Method::approximate);
          EXPECT_GE(approx[i].upper, exact[i].lower - 1e-9);
          EXPECT_LE(approx[i].upper, (1 + eps) * exact[i].upper + 1e-9);
          EXPECT_LE(approx[i].upper, (1 + eps) * approx[i].lower + 1e-9);
          EXPECT_LE(approx[i].lower, exact[i].upper + 1e-9);
        }
      }
}

TEST(Bound, ApproximateCapacityBoundIsWithinEps) {
  Rig r(topo::grid({4, 4}, true, 2));
  ASSERT_GT(topo::degrade_cables(r.fabric, 0.3, LinkRate{LinkWidth::x1, LinkSpeed::qdr}, 3), 0u);
  const std::vector<RunBound> exact =
      bounds(r, false, bound::Method::exact, "bisect", 0.02, kRuns, true);
  const std::vector<RunBound> approx =
      bounds(r, false, bound::Method::approximate, "bisect", 0.02, kRuns, true);
  for (std::size_t i = 0; i < kRuns; ++i) {
    SCOPED_TRACE("run " + std::to_string(i));
    ASSERT_TRUE(approx[i].complete);
    EXPECT_LT(exact[i].upper, 1.0 - 1e-3);  // the slow cables do cost bandwidth
    EXPECT_GE(approx[i].upper, exact[i].lower - 1e-9);
    EXPECT_LE(approx[i].upper, 1.02 * exact[i].upper + 1e-9);
  }
}

TEST(Bound, ApproximateOnFullBisectionTreesIsOne) {
  for (const topo::TopologySpec& spec : {topo::kary_ntree(4, 2, 4), topo::kary_ntree(4, 3, 4)}) {
    const Rig r(spec);
    for (bool minimal : {false, true})
      for (const RunBound& b : bounds(r, minimal, bound::Method::approximate)) {
        ASSERT_TRUE(b.solved && b.complete);
        EXPECT_NEAR(b.upper, 1.0, 1e-9);
        EXPECT_GE(b.lower, 1.0 / 1.02 - 1e-9);
      }
  }
}

// automatic picks exact on small LPs and the approximation above
// exact_work (flows through switches x channels).
TEST(Bound, AutomaticChoosesByTheLpSize) {
  const Rig r(topo::hypercube(4, 2));
  const bound::ChannelNetwork net(r.fabric, false);
  BoundConfig c;
  c.runs = 2;
  for (std::size_t work : {std::size_t{1} << 40, std::size_t{0}}) {
    c.solve.exact_work = work;
    for (const RunBound& b : bound_runs(net, r.generator(), c))
      EXPECT_EQ(b.method, work ? bound::Method::exact : bound::Method::approximate);
  }
}

// Threads left over by the runs go into each run's solve; the result is the
// same to the last bit.
TEST(Bound, ApproximateDoesNotDependOnThreads) {
  const Rig r(topo::grid({6, 6}, true, 2));
  for (bool minimal : {false, true}) {
    const std::vector<RunBound> one =
        bounds(r, minimal, bound::Method::approximate, "bisect", 0.02, 1, false, 1);
    const std::vector<RunBound> three =
        bounds(r, minimal, bound::Method::approximate, "bisect", 0.02, 1, false, 3);
    EXPECT_EQ(one[0].upper, three[0].upper);
    EXPECT_EQ(one[0].lower, three[0].lower);
    EXPECT_EQ(one[0].rounds, three[0].rounds);
  }
}

// Stopped by the deadline after its first sweep, the approximation still
// reports an upper bound, only looser.
TEST(Bound, ApproximateCutShortIsStillABound) {
  const Rig r(topo::grid({6, 6}, true, 2));
  const bound::ChannelNetwork net(r.fabric, false);
  const PatternGenerator gen = r.generator();
  std::vector<Flow> flows;
  PatternGenerator::Scratch scratch;
  gen.flows(0, flows, scratch, 0);
  std::vector<bound::Demand> demands;
  for (const Flow& f : flows) demands.push_back({r.hosts[f.src].port, r.hosts[f.dst].port});
  const std::vector<bound::Commodity> fs = bound::make_commodities(net, demands);
  bound::SolveOptions o;
  o.method = bound::Method::exact;
  const bound::Solution exact = bound::solve(net, fs, o);
  o.method = bound::Method::approximate;
  o.deadline = bound::Clock::now();
  const bound::Solution cut = bound::solve(net, fs, o);
  EXPECT_FALSE(cut.complete);
  EXPECT_EQ(cut.rounds, 0u);
  EXPECT_GE(cut.upper, exact.lower - 1e-9);
  EXPECT_LE(cut.upper, static_cast<double>(flows.size()) + 1e-9);
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
