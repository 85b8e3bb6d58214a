// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "route_checker.h"

#include <gtest/gtest.h>

#include "testing/chain.h"

namespace psssp::sim {
namespace {

constexpr unsigned kH = 2;  // hosts per switch; chain of 3 switches, 6 hosts

struct Case {
  testing::Chain c = testing::make_chain(3, kH);
  ForwardingTables lfts = testing::chain_lfts(c, kH);
  Lid lid(unsigned host) const { return c.fabric.node(c.hosts[host]).ports[1].lid; }
  CheckReport run(unsigned threads = 2) const { return check_routes(c.fabric, lfts, threads, 50); }
};

std::uint64_t failed(const CheckReport& r, TraceStatus k) {
  return r.pairs_by_kind[static_cast<int>(k)];
}

TEST(RouteChecker, ValidChain) {
  const Case k;
  const CheckReport r = k.run();
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.pairs, 30u);
  EXPECT_EQ(r.delivered, 30u);
  // 6 pairs on one switch (0 hops), 16 between neighbours (1), 8 end to end (2).
  EXPECT_DOUBLE_EQ(r.mean_hops, 32.0 / 30);
  EXPECT_EQ(r.max_hops, 2u);
  EXPECT_EQ(r.minimal_pairs, 30u);
  // A->B carries the 2 A hosts to 4 hosts: 8; every directed link likewise.
  EXPECT_EQ(r.switch_channels, 4u);
  EXPECT_EQ(r.efi_max, 8u);
  EXPECT_DOUBLE_EQ(r.efi_mean, 8.0);
  EXPECT_TRUE(r.faults.empty());
}

TEST(RouteChecker, RoutesPerCableHostCablesIncluded) {
  const Case k;
  const CheckReport r = k.run();
  const Fabric& f = k.c.fabric;
  ASSERT_EQ(r.channel_routes.size(), f.channel_count());
  for (NodeId h : k.c.hosts) {
    const PortRef host{h, 1};
    EXPECT_EQ(r.channel_routes[f.channel(host)], 5u) << "from host " << h;               // to 5
    EXPECT_EQ(r.channel_routes[f.channel(f.port(host).remote)], 5u) << "to host " << h;  // from 5
  }
  // A's cable to B: A's 2 hosts to the 4 elsewhere.
  EXPECT_EQ(r.channel_routes[f.channel(PortRef{k.c.sw[0], kH + 1})], 8u);
}

TEST(RouteChecker, RoutesPerCableCountOnlyDeliveredRoutes) {
  Case k;
  k.lfts.set(k.c.sw[1], k.lid(4), kNoPath);  // B drops traffic for host 4 (on C)
  const CheckReport r = k.run();
  const Fabric& f = k.c.fabric;
  // Host 0 (on A) reaches 4 of 5; host 5 (on C, beside host 4) all 5.
  EXPECT_EQ(r.channel_routes[f.channel(PortRef{k.c.hosts[0], 1})], 4u);
  EXPECT_EQ(r.channel_routes[f.channel(PortRef{k.c.hosts[5], 1})], 5u);
  // Host 4 receives only from host 5.
  EXPECT_EQ(r.channel_routes[f.channel(f.port(PortRef{k.c.hosts[4], 1}).remote)], 1u);
}

TEST(RouteChecker, BlackHole) {
  Case k;
  k.lfts.set(k.c.sw[1], k.lid(4), kNoPath);  // B drops traffic for host 4 (on C)
  const CheckReport r = k.run();
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(failed(r, TraceStatus::black_hole), 4u);  // from A's and B's hosts
  EXPECT_EQ(r.delivered, 26u);
  ASSERT_EQ(r.faults.size(), 2u);  // traced once per source switch
  EXPECT_EQ(r.faults[0].kind, TraceStatus::black_hole);
  EXPECT_NE(r.faults[0].message.find("sw-1"), std::string::npos) << r.faults[0].message;
  EXPECT_NE(r.faults[0].message.find("LID " + std::to_string(k.lid(4))), std::string::npos);
}

TEST(RouteChecker, Loop) {
  Case k;
  k.lfts.set(k.c.sw[1], k.lid(5), kH + 2);  // B sends host 5's LID back to A
  const CheckReport r = k.run();
  EXPECT_EQ(failed(r, TraceStatus::loop), 4u);
  ASSERT_FALSE(r.faults.empty());
  EXPECT_NE(r.faults[0].message.find("cycle"), std::string::npos);
  EXPECT_NE(r.faults[0].message.find("sw-0"), std::string::npos) << r.faults[0].message;
}

TEST(RouteChecker, WrongDelivery) {
  Case k;
  k.lfts.set(k.c.sw[2], k.lid(4), 2);  // C delivers host 4's LID to host 5
  const CheckReport r = k.run();
  EXPECT_EQ(failed(r, TraceStatus::wrong_delivery), 5u);
  EXPECT_EQ(r.delivered, 25u);
  ASSERT_FALSE(r.faults.empty());
  EXPECT_NE(r.faults[0].message.find("h-5"), std::string::npos) << r.faults[0].message;
}

TEST(RouteChecker, DownLink) {
  Case k;
  k.c.fabric.port({k.c.sw[0], kH + 1}).healthy = false;  // A-B cable down, both ways
  const CheckReport r = k.run();
  EXPECT_EQ(failed(r, TraceStatus::down_link), 16u);  // A<->(B,C): 2x4 each way
  EXPECT_EQ(r.switch_channels, 2u);
}

TEST(RouteChecker, UnconnectedPort) {
  Case k;
  k.lfts.set(k.c.sw[0], k.lid(2), kH + 2);  // A's left port has no cable
  const CheckReport r = k.run();
  EXPECT_EQ(failed(r, TraceStatus::unconnected), 2u);
}

TEST(RouteChecker, HostLinkDown) {
  Case k;
  k.c.fabric.port({k.c.hosts[3], 1}).healthy = false;
  const CheckReport r = k.run();
  // 5 routes from host 3 fail at its own cable, 5 routes to it at the last hop.
  EXPECT_EQ(failed(r, TraceStatus::down_link), 10u);
  ASSERT_FALSE(r.faults.empty());
  EXPECT_TRUE(r.faults[0].host_link);
}

TEST(RouteChecker, ThreadCountDoesNotMatter) {
  Case k;
  k.lfts.set(k.c.sw[1], k.lid(5), kH + 2);
  k.lfts.set(k.c.sw[2], k.lid(0), kNoPath);
  const CheckReport a = k.run(1), b = k.run(5);
  EXPECT_EQ(a.pairs_by_kind, b.pairs_by_kind);
  ASSERT_EQ(a.faults.size(), b.faults.size());
  for (std::size_t i = 0; i < a.faults.size(); ++i)
    EXPECT_EQ(a.faults[i].message, b.faults[i].message);
  EXPECT_EQ(a.mean_hops, b.mean_hops);
  EXPECT_EQ(a.efi_max, b.efi_max);
}

// `check --threads 100000` used to start one thread per request and abort
// when the system refused; the request is capped and gives the same report.
TEST(RouteChecker, HugeThreadRequestIsCapped) {
  Case k;
  k.lfts.set(k.c.sw[2], k.lid(0), kNoPath);
  const CheckReport a = k.run(1), b = k.run(100000);
  EXPECT_EQ(a.pairs_by_kind, b.pairs_by_kind);
  EXPECT_EQ(a.delivered, b.delivered);
  EXPECT_EQ(a.efi_max, b.efi_max);
}

TEST(RouteChecker, LmcDestinationsAreAllChecked) {
  const testing::Chain c = testing::make_chain(2, 2, 1);
  ForwardingTables lfts = testing::chain_lfts(c, 2);
  EXPECT_EQ(check_routes(c.fabric, lfts, 2, 10).pairs, 4u * 6);  // 3 other ports x 2 LIDs
  const Lid second = static_cast<Lid>(c.fabric.node(c.hosts[3]).ports[1].lid + 1);
  lfts.set(c.sw[0], second, kNoPath);
  EXPECT_EQ(
      check_routes(c.fabric, lfts, 2, 10).pairs_by_kind[static_cast<int>(TraceStatus::black_hole)],
      2u);
}

}  // namespace
}  // namespace psssp::sim
