// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "deadlock_check.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "formats/sl_file_reader.h"
#include "layer_assignment.h"
#include "route_walk.h"
#include "testing/chain.h"
#include "testing/topologies.h"

namespace psssp::deadlock {
namespace {

using testing::fat_tree;
using testing::grid;
using testing::min_hop_lfts;
using testing::ring;

// Every link of a reported cycle must be real: channel i arrives where
// channel i+1 leaves, and its route passes channel i then channel i+1.
void expect_valid_cycle(const Fabric& f, const ForwardingTables& lfts, const DeadlockReport& r) {
  ASSERT_FALSE(r.cycle.empty());
  for (std::size_t i = 0; i < r.cycle.size(); ++i) {
    const CycleLink& a = r.cycle[i];
    const CycleLink& b = r.cycle[(i + 1) % r.cycle.size()];
    EXPECT_EQ(f.port(a.channel).remote.node, b.channel.node) << "link " << i;
    EXPECT_EQ(a.switch_guid, f.node(a.channel.node).guid);
    const PortRef src = f.port_of_lid(a.slid);
    ASSERT_TRUE(src.valid());
    std::vector<Hop> hops;
    walk_route(RouteTracer(f, lfts), f.port(src).remote.node, a.dlid, hops);
    bool found = false;
    for (std::size_t h = 0; h + 1 < hops.size(); ++h)
      found = found || (hops[h].sw == a.channel.node && hops[h].out_port == a.channel.port &&
                        hops[h + 1].sw == b.channel.node && hops[h + 1].out_port == b.channel.port);
    EXPECT_TRUE(found) << "route " << a.slid << " -> " << a.dlid << " does not make link " << i;
  }
}

TEST(DeadlockCheck, FourSwitchRingHasACreditLoop) {
  const Fabric f = ring(4, 2);
  const ForwardingTables lfts = min_hop_lfts(f);
  const DeadlockReport r = check_deadlock(f, lfts);
  EXPECT_FALSE(r.deadlock_free);
  EXPECT_EQ(r.cycle.size(), 4u);
  for (const CycleLink& l : r.cycle) EXPECT_EQ(l.vl, 0);
  expect_valid_cycle(f, lfts, r);
  EXPECT_EQ(r.routes, 8u * (4 + 8));  // 8 host LIDs x 12 destination LIDs
  EXPECT_EQ(r.unrouted + r.broken + r.loops, 0u);
  EXPECT_NE(format_cycle(f, r).find("credit loop on VL 0 over 4 channels"), std::string::npos);
}

TEST(DeadlockCheck, CycleIsDeterministic) {
  const Fabric f = grid({4, 4}, true, 1);
  const ForwardingTables lfts = min_hop_lfts(f);
  const DeadlockReport a = check_deadlock(f, lfts);
  const DeadlockReport b = check_deadlock(f, lfts);
  ASSERT_FALSE(a.deadlock_free);
  ASSERT_EQ(a.cycle.size(), b.cycle.size());
  for (std::size_t i = 0; i < a.cycle.size(); ++i) {
    EXPECT_EQ(a.cycle[i].channel, b.cycle[i].channel);
    EXPECT_EQ(a.cycle[i].slid, b.cycle[i].slid);
    EXPECT_EQ(a.cycle[i].dlid, b.cycle[i].dlid);
  }
  expect_valid_cycle(f, lfts, a);
}

TEST(DeadlockCheck, FatTreeAndLineAreDeadlockFree) {
  const Fabric tree = fat_tree(6, 3, 4);
  const DeadlockReport t = check_deadlock(tree, min_hop_lfts(tree));
  EXPECT_TRUE(t.deadlock_free) << format_cycle(tree, t);
  EXPECT_GT(t.dependencies, 0u);
  const Fabric line = grid({5}, false, 2);
  EXPECT_TRUE(check_deadlock(line, min_hop_lfts(line)).deadlock_free);
}

TEST(DeadlockCheck, SlsOnSeparateVlsBreakTheLoop) {
  const Fabric f = ring(4, 2);
  const ForwardingTables lfts = min_hop_lfts(f);
  const LayerAssignment layers = assign_layers(f, lfts, LayerOptions{2, false});
  const DeadlockReport ok = check_deadlock(f, lfts, layers.table);
  EXPECT_TRUE(ok.deadlock_free) << format_cycle(f, ok);
  EXPECT_EQ(ok.vls.size(), 2u);
  // The same SLs through an SL2VL map that folds SL 1 onto VL 0: loop again.
  SlVlMap fold = identity_sl2vl();
  fold[1] = 0;
  const DeadlockReport folded = check_deadlock(f, lfts, layers.table, Sl2VlTables(fold));
  EXPECT_FALSE(folded.deadlock_free);
  expect_valid_cycle(f, lfts, folded);
}

TEST(DeadlockCheck, CycleIsReportedOnTheMappedVl) {
  const Fabric f = ring(4, 2);
  SlVlMap map = identity_sl2vl();
  map[2] = 5;
  const DeadlockReport r = check_deadlock(f, min_hop_lfts(f), UniformSl(2), Sl2VlTables(map));
  ASSERT_FALSE(r.deadlock_free);
  for (const CycleLink& l : r.cycle) EXPECT_EQ(l.vl, 5);
  EXPECT_EQ(r.vls, std::vector<std::uint8_t>{5});
  EXPECT_EQ(r.dependencies_per_vl[5], r.dependencies);
}

TEST(DeadlockCheck, RoutesOnVl15AreDropped) {
  const Fabric f = ring(4, 2);
  SlVlMap map = identity_sl2vl();
  map[0] = kDropVl;
  EXPECT_TRUE(check_deadlock(f, min_hop_lfts(f), UniformSl(0), Sl2VlTables(map)).deadlock_free);
}

TEST(DeadlockCheck, PerPortSl2VlChangesVlOnTheWay) {
  // Ring of 4: every route leaving s0 toward s1 (port 3 = "+") moves from
  // VL 0 to VL 1; the loop then runs through both VLs or disappears.
  const Fabric f = ring(4, 2);
  const ForwardingTables lfts = min_hop_lfts(f);
  Sl2VlTables tables;
  SlVlMap up = identity_sl2vl();
  up[0] = 1;
  const NodeId s0 = *f.find_by_name("sw-0");
  for (PortNum in = 0; in <= f.node(s0).num_ports(); ++in) tables.set(f, s0, in, 3, up);
  EXPECT_TRUE(tables.port_dependent());
  const DeadlockReport r = check_deadlock(f, lfts, UniformSl(0), tables);
  EXPECT_EQ(r.vls, (std::vector<std::uint8_t>{0, 1}));
  if (!r.deadlock_free) expect_valid_cycle(f, lfts, r);
}

TEST(DeadlockCheck, SlFileSeparatesTheDirections) {
  // Dateline: routes over the wrap cable s3 - s0 go on SL 1 (destinations
  // written in hex, sources in decimal); neither SL alone has a loop.
  const Fabric f = ring(4, 2);
  const ForwardingTables lfts = min_hop_lfts(f);
  const RouteTracer tracer(f, lfts);
  const NodeId s0 = *f.find_by_name("sw-0"), s3 = *f.find_by_name("sw-3");
  std::string text = "# slid dlid sl\n";
  std::vector<Hop> hops;
  for (PortRef h : f.host_ports()) {
    const Lid slid = f.port(h).lid;
    for (unsigned dlid = 1; dlid <= f.max_lid(); ++dlid) {
      walk_route(tracer, f.port(h).remote.node, static_cast<Lid>(dlid), hops);
      bool wrap = false;
      for (const Hop& hop : hops)
        wrap = wrap || (hop.sw == s3 && hop.out_port == 3) || (hop.sw == s0 && hop.out_port == 4);
      char line[64];
      std::snprintf(line, sizeof line, "%u 0x%x %d  # route\n", slid, dlid, wrap ? 1 : 0);
      text += line;
    }
  }
  const SlFile sls = parse_sl_file(text, "routes.sl");
  EXPECT_EQ(sls.size(), f.host_ports().size() * f.max_lid());
  const DeadlockReport r = check_deadlock(f, lfts, sls);
  EXPECT_TRUE(r.deadlock_free) << format_cycle(f, r);
  EXPECT_FALSE(check_deadlock(f, lfts, parse_sl_file("", "empty.sl")).deadlock_free);
}

TEST(DeadlockCheck, ForwardingLoopIsACycle) {
  const Fabric f = grid({3}, false, 1);  // s0 - s1 - s2
  ForwardingTables lfts = min_hop_lfts(f);
  const NodeId s0 = *f.find_by_name("sw-0"), s1 = *f.find_by_name("sw-1");
  const Lid target = f.node(*f.find_by_name("h-2")).ports[1].lid;
  lfts.set(s1, target, 3);  // s1 sends it back to s0 ("-" port of dimension 0 is 3)
  lfts.set(s0, target, 2);
  const DeadlockReport r = check_deadlock(f, lfts);
  EXPECT_GT(r.loops, 0u);
  EXPECT_FALSE(r.deadlock_free);
  EXPECT_EQ(r.cycle.size(), 2u);
}

// Three switches in a row with two hosts each (testing/chain.h): h2_1 is
// LID 9; switch ports 3 lead right, 4 left.
TEST(RouteWalk, FollowsALoopToSwitchCountPlusTwoHops) {
  const testing::Chain c = testing::make_chain(3, 2);
  ForwardingTables lfts = testing::chain_lfts(c, 2);
  lfts.set(c.sw[1], 9, 4);  // back to the first switch, which sends it right again
  const RouteTracer t(c.fabric, lfts);
  std::vector<Hop> hops;
  EXPECT_EQ(walk_route(t, c.sw[0], 9, hops), WalkEnd::loop);
  EXPECT_EQ(hops.size(), 5u);
  EXPECT_EQ(walk_route(t, c.sw[0], 3, hops), WalkEnd::delivered);
  ASSERT_EQ(hops.size(), 3u);
  EXPECT_EQ(hops.back().out_port, 0);
  EXPECT_EQ(hops.back().in_port, 4);
}

TEST(DeadlockCheck, UnroutedAndBrokenRoutesAreCounted) {
  const Fabric f = grid({3}, false, 1);
  ForwardingTables lfts = min_hop_lfts(f);
  const NodeId s0 = *f.find_by_name("sw-0");
  const Lid target = f.node(*f.find_by_name("h-2")).ports[1].lid;
  lfts.set(s0, target, kNoPath);
  DeadlockReport r = check_deadlock(f, lfts);
  EXPECT_EQ(r.unrouted, 1u);
  lfts.set(s0, target, 200);
  r = check_deadlock(f, lfts);
  EXPECT_EQ(r.broken, 1u);
  EXPECT_TRUE(r.deadlock_free);
}

// A 4-switch ring, one host each: host LIDs routed along the line
// sw-0 .. sw-3 (never over the sw-3 - sw-0 cable), switch LIDs always
// clockwise. Host-to-host routes cannot loop; the routes to and from switch
// LIDs close the ring.
TEST(DeadlockCheck, ScopesHostsAndAll) {
  const Fabric f = ring(4, 1);  // port 1 host, 2 "+" (sw-3's to sw-0), 3 "-"
  ForwardingTables lfts = min_hop_lfts(f);
  std::vector<NodeId> sw(4);
  for (unsigned i = 0; i < 4; ++i) sw[i] = *f.find_by_name("sw-" + std::to_string(i));
  for (unsigned i = 0; i < 4; ++i)
    for (unsigned j = 0; j < 4; ++j) {
      const Lid host = f.node(*f.find_by_name("h-" + std::to_string(j))).ports[1].lid;
      lfts.set(sw[i], host, j > i ? 2 : j < i ? 3 : 1);
      if (j != i) lfts.set(sw[i], f.node(sw[j]).ports[0].lid, 2);
    }
  const DeadlockReport hosts =
      check_deadlock(f, lfts, UniformSl(0), Sl2VlTables(), RouteScope::hosts);
  EXPECT_TRUE(hosts.deadlock_free);
  EXPECT_EQ(hosts.routes, 4u * 4u);  // every host to every host LID, itself included
  const DeadlockReport all = check_deadlock(f, lfts, UniformSl(0), Sl2VlTables(), RouteScope::all);
  EXPECT_FALSE(all.deadlock_free);
  EXPECT_EQ(all.routes, 4u * 8u + 4u * 7u);  // hosts to every LID, switches to the others
  bool marked = false;
  for (const CycleLink& l : all.cycle) marked = marked || !switch_ends(f, l.slid, l.dlid).empty();
  EXPECT_TRUE(marked);
  EXPECT_NE(format_cycle(f, all).find(" switch \"sw-"), std::string::npos);
  EXPECT_EQ(switch_ends(f, f.node(*f.find_by_name("h-0")).ports[1].lid,
                        f.node(*f.find_by_name("h-1")).ports[1].lid),
            "");

  // A dead end to a switch LID counts in all, not in hosts.
  lfts.set(sw[0], f.node(sw[2]).ports[0].lid, kNoPath);
  const DeadlockReport dead = check_deadlock(f, lfts, UniformSl(0), Sl2VlTables(), RouteScope::all);
  EXPECT_EQ(dead.switch_unrouted, 4u);  // from h-0, sw-0, and h-3, sw-3 by way of sw-0
  EXPECT_EQ(dead.unrouted, dead.switch_unrouted);
  EXPECT_EQ(check_deadlock(f, lfts, UniformSl(0), Sl2VlTables(), RouteScope::hosts).unrouted, 0u);
}

TEST(DeadlockCheck, LmcRangesAreSourcesAndDestinations) {
  Fabric f = grid({4}, true, 1);
  testing::assign_lids(f, 1);
  const DeadlockReport r = check_deadlock(f, min_hop_lfts(f));
  EXPECT_EQ(r.routes, 8u * (4 + 8));  // 4 hosts x 2 LIDs as sources, 12 LIDs
  EXPECT_FALSE(r.deadlock_free);
}

}  // namespace
}  // namespace psssp::deadlock
