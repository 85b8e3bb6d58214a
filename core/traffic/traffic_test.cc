// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The shared traffic layer: tracer statuses on a small chain, the random
// bisection and the plain eBB kernel. The router's estimate against the
// simulator's scorer is simulator/ebb_definitions_test.cc.
#include <gtest/gtest.h>

#include <algorithm>

#include "testing/chain.h"
#include "traffic/bisection.h"
#include "traffic/channel_load.h"
#include "traffic/route_tracer.h"

namespace psssp {
namespace {

// Three switches in a row with two hosts each: switch LIDs 1..3, hosts 4..9
// (h0_0 = 4, h2_1 = 9); ports 1-2 hosts, 3 to the right, 4 to the left.
struct Chain {
  testing::Chain c = testing::make_chain(3, 2);
  ForwardingTables lfts = testing::chain_lfts(c, 2);
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

}  // namespace
}  // namespace psssp
