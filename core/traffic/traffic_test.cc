// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The shared traffic layer: tracer statuses on a small chain, the random
// bisection, the plain eBB kernel, and the router's estimate against the
// simulator's scorer on the same hosts and seed.
#include <gtest/gtest.h>

#include <algorithm>

#include "deadlock/route_walk.h"
#include "ebb_scorer.h"
#include "host_set.h"
#include "patterns.h"
#include "routing/ebb_estimate.h"
#include "routing/psssp_routing.h"
#include "routing/routing_test_support.h"
#include "test_fabrics.h"
#include "topologies/degrade.h"
#include "traffic/bisection.h"
#include "traffic/channel_load.h"
#include "traffic/route_tracer.h"

namespace psssp {
namespace {

// Three switches in a row with two hosts each: switch LIDs 1..3, hosts 4..9
// (h0_0 = 4, h2_1 = 9); ports 1-2 hosts, 3 to the right, 4 to the left.
struct Chain {
  sim::testing::Chain c = sim::testing::make_chain(3, 2);
  ForwardingTables lfts = sim::testing::chain_lfts(c, 2);
  const Fabric& f() const { return c.fabric; }
  PortRef host(unsigned i) const { return PortRef{c.hosts[i], 1}; }
  ChannelId out(unsigned sw, PortNum port) const { return f().channel(PortRef{c.sw[sw], port}); }
};

std::vector<ChannelId> trace(const RouteTracer& t, PortRef from, Lid lid, TraceEnd& end) {
  std::vector<ChannelId> path;
  end = t.trace_from(from, lid, [&](ChannelId c) { path.push_back(c); });
  return path;
}

TEST(RouteTracer, DeliversHostToHostWithEveryChannel) {
  const Chain ch;
  const RouteTracer t(ch.f(), ch.lfts);
  TraceEnd end;
  const auto path = trace(t, ch.host(0), 9, end);
  EXPECT_EQ(end.status, TraceStatus::delivered);
  EXPECT_EQ(end.hops, 2u);
  const std::vector<ChannelId> want = {ch.f().channel(ch.host(0)), ch.out(0, 3), ch.out(1, 3),
                                       ch.out(2, 2)};
  EXPECT_EQ(path, want);
}

TEST(RouteTracer, DeliversToASwitchLidThroughPortZeroWithoutItsChannel) {
  const Chain ch;
  const RouteTracer t(ch.f(), ch.lfts);
  TraceEnd end;
  const auto path = trace(t, PortRef{ch.c.sw[0], 0}, 3, end);
  EXPECT_EQ(end.status, TraceStatus::delivered);
  EXPECT_EQ(path, (std::vector<ChannelId>{ch.out(0, 3), ch.out(1, 3)}));
}

TEST(RouteTracer, BlackHoleWhereTheEntryIsMissing) {
  Chain ch;
  ch.lfts.set(ch.c.sw[1], 9, kNoPath);
  const RouteTracer t(ch.f(), ch.lfts);
  TraceEnd end;
  trace(t, ch.host(0), 9, end);
  EXPECT_EQ(end.status, TraceStatus::black_hole);
  EXPECT_EQ(t.switch_at(end.row), ch.c.sw[1]);
  EXPECT_EQ(end.port, kNoPath);
  EXPECT_EQ(trace_status_name(end.status), std::string("black hole"));
}

TEST(RouteTracer, DownLinkAndUnconnectedPort) {
  Chain ch;
  ch.c.fabric.port(PortRef{ch.c.sw[1], 3}).healthy = false;
  ch.c.fabric.port(PortRef{ch.c.sw[2], 4}).healthy = false;
  const RouteTracer t(ch.f(), ch.lfts);
  TraceEnd end;
  trace(t, ch.host(0), 9, end);
  EXPECT_EQ(end.status, TraceStatus::down_link);
  EXPECT_EQ(t.switch_at(end.row), ch.c.sw[1]);
  Chain uncabled;
  uncabled.lfts.set(uncabled.c.sw[0], 9, 4);  // the left port of the first switch has no cable
  const RouteTracer u(uncabled.f(), uncabled.lfts);
  trace(u, uncabled.host(0), 9, end);
  EXPECT_EQ(end.status, TraceStatus::unconnected);
}

TEST(RouteTracer, LoopAndItsCycle) {
  Chain ch;
  ch.lfts.set(ch.c.sw[1], 9, 4);  // back to the first switch, which sends it right again
  const RouteTracer t(ch.f(), ch.lfts);
  TraceEnd end;
  const auto path = trace(t, ch.host(0), 9, end);
  EXPECT_EQ(end.status, TraceStatus::loop);
  EXPECT_EQ(end.hops, 4u);  // one more switch hop than the fabric has switches
  auto cycle = loop_cycle(t, end.row, 9);
  std::sort(cycle.begin(), cycle.end());
  EXPECT_EQ(cycle, (std::vector<NodeId>{ch.c.sw[0], ch.c.sw[1]}));
  EXPECT_TRUE(loop_cycle(RouteTracer(ch.f(), Chain().lfts), 0, 9).empty());
}

TEST(RouteTracer, WrongDeliveryNamesWhereItArrived) {
  Chain ch;
  ch.lfts.set(ch.c.sw[2], 9, 1);  // h2_0 instead of h2_1
  const RouteTracer t(ch.f(), ch.lfts);
  TraceEnd end;
  trace(t, ch.host(0), 9, end);
  EXPECT_EQ(end.status, TraceStatus::wrong_delivery);
  EXPECT_EQ(end.reached, ch.host(4));
}

TEST(RouteWalk, FollowsALoopToSwitchCountPlusTwoHops) {
  Chain ch;
  ch.lfts.set(ch.c.sw[1], 9, 4);
  const RouteTracer t(ch.f(), ch.lfts);
  std::vector<deadlock::Hop> hops;
  EXPECT_EQ(deadlock::walk_route(t, ch.c.sw[0], 9, hops), deadlock::WalkEnd::loop);
  EXPECT_EQ(hops.size(), 5u);
  EXPECT_EQ(deadlock::walk_route(t, ch.c.sw[0], 3, hops), deadlock::WalkEnd::delivered);
  ASSERT_EQ(hops.size(), 3u);
  EXPECT_EQ(hops.back().out_port, 0);
  EXPECT_EQ(hops.back().in_port, 4);
}

TEST(Bisection, PairsEveryRankOnceAndRepeatsForASeed) {
  const ShuffleReciprocals reciprocals(9);
  for (const std::size_t n : {8u, 9u}) {
    std::vector<std::uint32_t> perm, again;
    std::mt19937_64 rng = run_rng(5, 3), same = run_rng(5, 3);
    shuffled_ranks(n, rng, reciprocals, perm);
    shuffled_ranks(n, same, reciprocals, again);
    EXPECT_EQ(perm, again);
    std::vector<unsigned> sends(n, 0), receives(n, 0);
    bisection_pairs(perm, true, [&](std::uint32_t a, std::uint32_t b) {
      ++sends[a];
      ++receives[b];
    });
    EXPECT_EQ(std::count(sends.begin(), sends.end(), 1u), static_cast<long>(n / 2 * 2));
    EXPECT_EQ(sends, receives);
  }
}

// Draws made once are the runs' own shuffles, run by run.
TEST(Bisection, DrawsAreEachRunsShuffle) {
  const ShuffleReciprocals reciprocals(11);
  const BisectionDraws draws(11, 6, 42);
  ASSERT_EQ(draws.runs(), 6u);
  std::vector<std::uint32_t> perm;
  for (unsigned r = 0; r < 6; ++r) {
    std::mt19937_64 rng = run_rng(42, r);
    shuffled_ranks(11, rng, reciprocals, perm);
    EXPECT_TRUE(std::equal(perm.begin(), perm.end(), draws.run(r))) << "run " << r;
  }
  EXPECT_FALSE(std::equal(draws.run(0), draws.run(0) + 11, draws.run(1)));
}

TEST(ChannelLoad, SharesAreOneOverTheWorstLoadThenClean) {
  // Flows 0 and 1 share channel 2; flow 2 is alone.
  const std::vector<ChannelId> channels = {1, 2, 2, 3, 4, 5};
  const std::vector<std::uint32_t> begin = {0, 2, 4}, end = {2, 4, 6};
  std::vector<std::uint32_t> load(6, 0);
  const FlowPaths paths{channels.data(), begin.data(), end.data(), 3};
  add_channel_loads(paths, load.data());
  EXPECT_EQ(load, (std::vector<std::uint32_t>{0, 1, 2, 1, 1, 1}));
  EXPECT_DOUBLE_EQ(sum_of_shares(paths, load.data()), 0.5 + 0.5 + 1.0);
  clear_channel_loads(paths, load.data());
  EXPECT_EQ(load, std::vector<std::uint32_t>(6, 0));
}

TEST(ChannelLoad, CapacityShareIsTheSlowestGbpsPerFlowOverTheInjection) {
  // Flows 0 and 1 share channel 2 (8 Gb/s): 4 each. Flow 0 injects at 8:
  // 0.5; flow 1 at 2 (a 1x cable): capped at 1. Flow 2 crosses a 2 Gb/s
  // channel alone, injecting at 8: 0.25.
  const std::vector<ChannelId> channels = {1, 2, 2, 3, 4, 5};
  const std::vector<std::uint32_t> begin = {0, 2, 4}, end = {2, 4, 6};
  const std::vector<double> gbps = {8, 8, 8, 8, 8, 2};
  const std::vector<double> injection = {8, 2, 8};
  std::vector<std::uint32_t> load(6, 0);
  const FlowPaths paths{channels.data(), begin.data(), end.data(), 3};
  add_channel_loads(paths, load.data());
  EXPECT_DOUBLE_EQ(sum_of_capacity_shares(paths, load.data(), gbps.data(), injection.data()),
                   0.5 + 1.0 + 0.25);
}

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
