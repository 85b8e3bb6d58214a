// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "incremental.h"

#include <gtest/gtest.h>

#include "routing/ebb_estimate.h"
#include "testing/routing_support.h"
#include "testing/topologies.h"

namespace psssp {
namespace {

// Every switch reaches every LID it can reach in the fabric, without loops,
// over healthy cables only.
void expect_delivers(const Fabric& f, const ForwardingTables& lfts) {
  for (unsigned l = 1; l <= f.max_lid(); ++l) {
    const Lid lid = static_cast<Lid>(l);
    if (!f.port_of_lid(lid).valid()) continue;
    for (const NodeId sw : f.switches()) {
      std::vector<ChannelId> path;
      ASSERT_EQ(testing::trace_route(f, lfts, PortRef{sw, 0}, lid, &path), TraceStatus::delivered)
          << f.node(sw).name << " LID " << lid;
      for (const ChannelId c : path) {
        const PortRef from = f.channel_port(c);
        ASSERT_TRUE(f.port(from).usable()) << f.node(sw).name << " LID " << lid;
      }
    }
  }
}

std::uint64_t entries_on(const Fabric& f, const ForwardingTables& lfts, PortRef end) {
  std::uint64_t n = 0;
  for (unsigned l = 1; l <= f.max_lid(); ++l)
    if (lfts.get(end.node, static_cast<Lid>(l)) == end.port) ++n;
  return n;
}

void set_cable(Fabric& f, PortRef end, bool healthy) {
  f.port(end).healthy = healthy;
  f.port(f.port(end).remote).healthy = healthy;
  f.index();
}

struct TreeCase {
  testing::KaryNtree t = testing::make_kary_ntree(8, 3);
  PortRef cable{t.level[1][5], 11};  // a middle switch's up cable
};

TEST(Incremental, UnchangedFabricKeepsEveryEntry) {
  TreeCase c;
  const RoutingResult full = route_psssp(c.t.fabric, RoutingOptions{});
  const RoutingResult inc =
      route_psssp_incremental(c.t.fabric, full.lfts, RoutingOptions{}, IncrementalOptions{});
  ASSERT_TRUE(inc.incremental.used) << inc.incremental.reason;
  EXPECT_EQ(testing::changed_entries(c.t.fabric, full.lfts, inc.lfts), 0u);
  EXPECT_EQ(inc.incremental.kept, inc.incremental.entries);
  EXPECT_EQ(inc.incremental.repaired + inc.incremental.rebalanced, 0u);
}

// One cable fails: only entries that used it move (issue target: at most
// twice as many), all pairs are still delivered, the eBB stays within 0.5%
// of a full re-route; when it comes back it carries routes again and the
// eBB is within 0.5% of the original.
TEST(Incremental, CableFailureAndRecovery) {
  TreeCase c;
  Fabric& f = c.t.fabric;
  const RoutingResult before = route_psssp(f, RoutingOptions{});
  const double ebb_before = estimate_ebb(f, before.lfts, 1000, 3);
  const PortRef other = f.port(c.cable).remote;
  const std::uint64_t used =
      entries_on(f, before.lfts, c.cable) + entries_on(f, before.lfts, other);
  ASSERT_GT(used, 0u);

  set_cable(f, c.cable, false);
  const RoutingResult failed =
      route_psssp_incremental(f, before.lfts, RoutingOptions{}, IncrementalOptions{});
  ASSERT_TRUE(failed.incremental.used) << failed.incremental.reason;
  expect_delivers(f, failed.lfts);
  const std::uint64_t moved = testing::changed_entries(f, before.lfts, failed.lfts);
  EXPECT_LE(moved, 2 * used) << "used the cable: " << used;
  // A repaired entry moved again by a shortcut or the rebalancing counts twice.
  EXPECT_LE(moved, failed.incremental.repaired + failed.incremental.rebalanced);
  EXPECT_GE(moved, failed.incremental.repaired);
  const double ebb_full = estimate_ebb(f, route_psssp(f, RoutingOptions{}).lfts, 1000, 3);
  const double ebb_failed = estimate_ebb(f, failed.lfts, 1000, 3);
  EXPECT_GE(ebb_failed, 0.995 * ebb_full) << ebb_failed << " vs full " << ebb_full;

  set_cable(f, c.cable, true);
  const RoutingResult back =
      route_psssp_incremental(f, failed.lfts, RoutingOptions{}, IncrementalOptions{}, &before.lfts);
  ASSERT_TRUE(back.incremental.used) << back.incremental.reason;
  expect_delivers(f, back.lfts);
  EXPECT_GT(entries_on(f, back.lfts, c.cable), 0u);
  // With the last full routing as reference, the moved entries go back.
  EXPECT_EQ(testing::changed_entries(f, before.lfts, back.lfts), 0u);
  EXPECT_EQ(back.incremental.restored, moved);
  const double ebb_back = estimate_ebb(f, back.lfts, 1000, 3);
  EXPECT_GE(ebb_back, 0.995 * ebb_before) << ebb_back << " vs before " << ebb_before;
  std::printf(
      "used %llu moved %llu (rebalanced %llu); eBB before %.4f failed %.4f full %.4f "
      "back %.4f (moved back %llu)\n",
      (unsigned long long)used, (unsigned long long)moved,
      (unsigned long long)failed.incremental.rebalanced, ebb_before, ebb_failed, ebb_full, ebb_back,
      (unsigned long long)testing::changed_entries(f, failed.lfts, back.lfts));
}

// Without a reference, the rebalancing alone puts routes back on the cable.
TEST(Incremental, RecoveryWithoutReferenceRebalances) {
  TreeCase c;
  Fabric& f = c.t.fabric;
  const RoutingResult before = route_psssp(f, RoutingOptions{});
  const double ebb_before = estimate_ebb(f, before.lfts, 1000, 3);
  set_cable(f, c.cable, false);
  const RoutingResult failed =
      route_psssp_incremental(f, before.lfts, RoutingOptions{}, IncrementalOptions{});
  set_cable(f, c.cable, true);
  const RoutingResult back =
      route_psssp_incremental(f, failed.lfts, RoutingOptions{}, IncrementalOptions{});
  ASSERT_TRUE(back.incremental.used) << back.incremental.reason;
  expect_delivers(f, back.lfts);
  EXPECT_GT(back.incremental.rebalanced, 0u);
  EXPECT_GT(entries_on(f, back.lfts, c.cable), 0u);
  EXPECT_GE(estimate_ebb(f, back.lfts, 1000, 3), 0.995 * ebb_before);
}

TEST(Incremental, RebalancingOffMovesOnlyBrokenEntries) {
  TreeCase c;
  Fabric& f = c.t.fabric;
  const RoutingResult before = route_psssp(f, RoutingOptions{});
  const PortRef other = f.port(c.cable).remote;
  const std::uint64_t used =
      entries_on(f, before.lfts, c.cable) + entries_on(f, before.lfts, other);
  set_cable(f, c.cable, false);
  IncrementalOptions off;
  off.rebalance = 0;
  const RoutingResult r = route_psssp_incremental(f, before.lfts, RoutingOptions{}, off);
  ASSERT_TRUE(r.incremental.used);
  expect_delivers(f, r.lfts);
  EXPECT_EQ(r.incremental.rebalanced, 0u);
  // The cable's own entries, and a few more where a switch whose entry used
  // the cable has no neighbour with a delivering path to hop to.
  const std::uint64_t moved = testing::changed_entries(f, before.lfts, r.lfts);
  EXPECT_EQ(moved, r.incremental.repaired);
  EXPECT_GE(moved, used);
  EXPECT_LE(moved, 2 * used);
}

TEST(Incremental, UnknownTablesGetAFullRouting) {
  TreeCase c;
  const ForwardingTables empty(c.t.fabric);
  const RoutingResult r =
      route_psssp_incremental(c.t.fabric, empty, RoutingOptions{}, IncrementalOptions{});
  EXPECT_FALSE(r.incremental.used);
  EXPECT_NE(r.incremental.reason.find("lost their next hop"), std::string::npos)
      << r.incremental.reason;
  EXPECT_EQ(
      testing::changed_entries(c.t.fabric, r.lfts, route_psssp(c.t.fabric, RoutingOptions{}).lfts),
      0u);
}

TEST(Incremental, TorusCableFailureDelivers) {
  Fabric f = testing::make_torus({6, 6}, 2);
  const RoutingResult before = route_psssp(f, RoutingOptions{});
  const NodeId sw = f.switches()[7];
  PortNum port = 0;
  for (PortNum p = 1; p < f.node(sw).ports.size() && !port; ++p)
    if (f.port(PortRef{sw, p}).usable() && f.node(f.port(PortRef{sw, p}).remote.node).is_switch())
      port = p;
  ASSERT_NE(port, 0);
  set_cable(f, PortRef{sw, port}, false);
  IncrementalOptions o;
  o.full_above = 1.0;  // force the repair even where distances changed
  const RoutingResult r = route_psssp_incremental(f, before.lfts, RoutingOptions{}, o);
  ASSERT_TRUE(r.incremental.used);
  expect_delivers(f, r.lfts);
}

// Switch-to-switch cables, each once (from its lower-numbered end).
std::vector<PortRef> switch_cables(const Fabric& f) {
  std::vector<PortRef> cables;
  for (const NodeId sw : f.switches())
    for (PortNum p = 1; p < f.node(sw).ports.size(); ++p) {
      const PortRef end{sw, p};
      if (!f.port(end).usable()) continue;
      const PortRef far = f.port(end).remote;
      if (f.node(far.node).is_switch() && sw < far.node) cables.push_back(end);
    }
  return cables;
}

// `failures` cables spread over the fabric fail; the repair keeps every
// route that still delivers, so it changes at most twice the entries that
// used them, even where the shortest distances grew (tori, dragonflies).
void expect_small_repair(Fabric f, unsigned failures) {
  const RoutingResult before = route_psssp(f, RoutingOptions{});
  const std::vector<PortRef> cables = switch_cables(f);
  ASSERT_GE(cables.size(), 3u * failures);
  std::uint64_t used = 0;
  for (unsigned i = 0; i < failures; ++i) {
    const PortRef end = cables[(2 * i + 1) * cables.size() / (2 * failures)];
    used += entries_on(f, before.lfts, end) + entries_on(f, before.lfts, f.port(end).remote);
    set_cable(f, end, false);
  }
  ASSERT_GT(used, 0u);
  const RoutingResult r =
      route_psssp_incremental(f, before.lfts, RoutingOptions{}, IncrementalOptions{});
  ASSERT_TRUE(r.incremental.used) << r.incremental.reason;
  expect_delivers(f, r.lfts);
  const std::uint64_t moved = testing::changed_entries(f, before.lfts, r.lfts);
  EXPECT_GE(moved, used);
  EXPECT_LE(moved, 2 * used) << "used the cables: " << used;
  std::printf("%u failed: used %llu changed %llu (rebalanced %llu)\n", failures,
              (unsigned long long)used, (unsigned long long)moved,
              (unsigned long long)r.incremental.rebalanced);
  // A repaired entry the rebalancing moves again counts twice.
  EXPECT_LE(moved, r.incremental.repaired + r.incremental.rebalanced);
}

TEST(Incremental, TorusRepairKeepsDeliveringRoutes) {
  for (const unsigned failures : {1u, 3u, 6u}) {
    SCOPED_TRACE(failures);
    expect_small_repair(testing::grid({8, 8}, true, 2), failures);
  }
}

// Hops of the path from switch `sw` to `lid` over the tables, and the fewest
// switch cables from sw to the LID's switch over healthy cables.
unsigned path_hops(const Fabric& f, const ForwardingTables& lfts, NodeId sw, Lid lid) {
  std::vector<ChannelId> path;
  EXPECT_EQ(testing::trace_route(f, lfts, PortRef{sw, 0}, lid, &path), TraceStatus::delivered);
  return static_cast<unsigned>(path.size()) - 1;  // the last channel is the host's cable
}

std::vector<unsigned> fewest_hops(const Fabric& f, NodeId to) {
  std::vector<unsigned> hops(f.node_count(), ~0u);
  std::vector<NodeId> queue{to};
  hops[to] = 0;
  for (std::size_t i = 0; i < queue.size(); ++i)
    for (PortNum p = 1; p < f.node(queue[i]).ports.size(); ++p) {
      const Port& port = f.port(PortRef{queue[i], p});
      if (!port.usable() || !f.node(port.remote.node).is_switch()) continue;
      if (hops[port.remote.node] != ~0u) continue;
      hops[port.remote.node] = hops[queue[i]] + 1;
      queue.push_back(port.remote.node);
    }
  return hops;
}

// With budget enough, the destinations whose paths the repair changed go
// back onto minimal paths where that saves a shortcut's worth of route hops
// per change (four switches' hosts by one hop each). On this torus the repair
// alone leaves whole rows behind a detour (dozens of switches two hops too
// long per LID); after the straightening no LID keeps four switch hops or
// more beyond minimal (one switch two hops too long may stay: fixing it
// would save only half a shortcut's worth).
TEST(Incremental, TorusRoutesStraightenedWithBudget) {
  const Fabric healthy = testing::grid({8, 8}, true, 2);
  const RoutingResult before = route_psssp(healthy, RoutingOptions{});
  const std::vector<PortRef> cables = switch_cables(healthy);
  for (const std::size_t at : {std::size_t{0}, cables.size() / 2, cables.size() - 1}) {
    SCOPED_TRACE(at);
    Fabric f = healthy;
    set_cable(f, cables[at], false);
    IncrementalOptions o;
    o.rebalance = 1 << 20;
    const RoutingResult r = route_psssp_incremental(f, before.lfts, RoutingOptions{}, o);
    ASSERT_TRUE(r.incremental.used) << r.incremental.reason;
    expect_delivers(f, r.lfts);
    for (const PortRef h : f.host_ports()) {
      const Lid lid = f.port(h).lid;
      const std::vector<unsigned> hops = fewest_hops(f, f.port(h).remote.node);
      unsigned excess = 0;
      for (const NodeId sw : f.switches()) excess += path_hops(f, r.lfts, sw, lid) - hops[sw];
      EXPECT_LT(excess, 4u) << "LID " << lid;
    }
  }
}

// Route hops beyond minimal, over every switch and LID.
std::uint64_t excess_hops(const Fabric& f, const ForwardingTables& lfts) {
  std::uint64_t excess = 0;
  for (const PortRef h : f.host_ports()) {
    const std::vector<unsigned> hops = fewest_hops(f, f.port(h).remote.node);
    for (const NodeId sw : f.switches()) excess += path_hops(f, lfts, sw, f.port(h).lid) - hops[sw];
  }
  return excess;
}

// rebalance=Kx: after a fault at most K changes per entry that lost its
// hop. On a torus the repair alone spends the default 2x; 4x leaves budget
// for the shortcuts behind the detour, so paths get shorter.
TEST(Incremental, MoreChangesPerLostEntryShortenPaths) {
  const Fabric healthy = testing::grid({8, 8}, true, 4);
  const RoutingResult before = route_psssp(healthy, RoutingOptions{});
  const std::vector<PortRef> cables = switch_cables(healthy);
  std::uint64_t excess_2x = 0, excess_4x = 0;
  for (const std::size_t at : {std::size_t{0}, cables.size() / 2, cables.size() - 1}) {
    SCOPED_TRACE(at);
    Fabric f = healthy;
    const PortRef end = cables[at];
    const std::uint64_t used =
        entries_on(f, before.lfts, end) + entries_on(f, before.lfts, f.port(end).remote);
    set_cable(f, end, false);
    const RoutingResult r2 =
        route_psssp_incremental(f, before.lfts, RoutingOptions{}, IncrementalOptions{});
    IncrementalOptions four;
    four.changes_per_lost = 4;
    const RoutingResult r4 = route_psssp_incremental(f, before.lfts, RoutingOptions{}, four);
    ASSERT_TRUE(r2.incremental.used && r4.incremental.used);
    expect_delivers(f, r4.lfts);
    const std::uint64_t changed_2x = testing::changed_entries(f, before.lfts, r2.lfts);
    const std::uint64_t changed_4x = testing::changed_entries(f, before.lfts, r4.lfts);
    EXPECT_LE(changed_2x, 2 * used);
    EXPECT_LE(changed_4x, 4 * used);
    EXPECT_GE(changed_4x, changed_2x);
    excess_2x += excess_hops(f, r2.lfts);
    excess_4x += excess_hops(f, r4.lfts);
  }
  EXPECT_LT(excess_4x, excess_2x);
}

TEST(Incremental, DragonflyRepairKeepsDeliveringRoutes) {
  for (const unsigned failures : {1u, 2u, 5u, 10u}) {
    SCOPED_TRACE(failures);
    expect_small_repair(testing::with_lids(topo::dragonfly(6, 3, 3)), failures);
  }
}

// The loads the re-route reports (summed per thread in the check pass for
// the routes that still deliver, then the repaired trees) are those of its
// tables' routes, switch cable by switch cable.
TEST(Incremental, LoadsMatchTracedRoutes) {
  const std::vector<Fabric> fabrics = {testing::make_kary_ntree(4, 3).fabric,
                                       testing::grid({6, 6}, true, 2)};
  for (const Fabric& healthy : fabrics) {
    Fabric f = healthy;
    const RoutingResult before = route_psssp(f, RoutingOptions{});
    const std::vector<PortRef> cables = switch_cables(f);
    set_cable(f, cables[cables.size() / 3], false);
    set_cable(f, cables[2 * cables.size() / 3], false);
    for (const unsigned threads : {1u, 2u}) {
      RoutingOptions o;
      o.threads = threads;
      const RoutingResult r = route_psssp_incremental(f, before.lfts, o, IncrementalOptions{});
      ASSERT_TRUE(r.incremental.used) << r.incremental.reason;
      std::vector<double> traced(f.channel_count(), 0.0);
      for (const PortRef s : f.host_ports())
        for (const PortRef d : f.host_ports()) {
          std::vector<ChannelId> path;
          if (s == d ||
              testing::trace_route(f, r.lfts, s, f.port(d).lid, &path) != TraceStatus::delivered)
            continue;
          for (const ChannelId c : path) traced[c] += 1.0;
        }
      unsigned switch_channels = 0;
      for (ChannelId c = 0; c < f.channel_count(); ++c) {
        const PortRef from = f.channel_port(c);
        const PortRef to = f.port(from).remote;
        if (!to.valid() || !f.node(from.node).is_switch() || !f.node(to.node).is_switch()) continue;
        ++switch_channels;
        EXPECT_DOUBLE_EQ(r.channel_load[c], traced[c]) << "channel " << c;
      }
      EXPECT_GT(switch_channels, 0u);
      if (f.switches().size() == 36) {
        EXPECT_GT(r.incremental.rebalanced, 0u);  // shortcuts too
      }
    }
  }
}

// After a relink the reference entry of u points to v again, but v's own
// reference hop is still dead and its current entry points to u: restoring
// u would close the loop u -> v -> u. u keeps its delivering entry.
TEST(Incremental, RestoreThatWouldLoopIsNotMade) {
  Fabric f = testing::grid({6, 6}, true, 1);
  const RoutingResult reference = route_psssp(f, RoutingOptions{});
  const ForwardingTables& ref = reference.lfts;
  auto hop = [&](NodeId sw, PortNum p) { return f.port(PortRef{sw, p}).remote.node; };
  auto passes = [&](NodeId from, Lid lid, NodeId a, NodeId b) {
    for (NodeId s = from; f.node(s).is_switch(); s = hop(s, ref.get(s, lid)))
      if (s == a || s == b) return true;
    return false;
  };
  for (unsigned l = 1; l <= f.max_lid(); ++l) {
    const Lid lid = static_cast<Lid>(l);
    const PortRef dest = f.port_of_lid(lid);
    if (!dest.valid() || f.node(dest.node).is_switch()) continue;
    for (const NodeId v : f.switches()) {
      const PortNum to_x = ref.get(v, lid);
      if (!f.node(hop(v, to_x)).is_switch()) continue;
      for (PortNum pu = 1; pu < f.node(v).ports.size(); ++pu) {
        const NodeId u = hop(v, pu);
        if (!f.node(u).is_switch() || pu == to_x) continue;
        const PortNum to_v = ref.get(u, lid);
        if (hop(u, to_v) != v) continue;
        for (PortNum pw = 1; pw < f.node(u).ports.size(); ++pw) {
          const NodeId w = hop(u, pw);
          if (!f.node(w).is_switch() || w == v || passes(w, lid, u, v)) continue;
          ForwardingTables previous = ref;
          previous.set(v, lid, pu);  // v -> u -> w -> ... delivers
          previous.set(u, lid, pw);
          set_cable(f, PortRef{v, to_x}, false);
          const RoutingResult r =
              route_psssp_incremental(f, previous, RoutingOptions{}, IncrementalOptions{}, &ref);
          ASSERT_TRUE(r.incremental.used) << r.incremental.reason;
          expect_delivers(f, r.lfts);
          EXPECT_EQ(r.lfts.get(u, lid), pw);
          EXPECT_EQ(r.lfts.get(v, lid), pu);
          return;
        }
      }
    }
  }
  FAIL() << "no switch pair to test with";
}

// Hops from every switch to `root` over usable switch cables (BFS).
std::vector<unsigned> hops_to(const Fabric& f, NodeId root) {
  std::vector<unsigned> hops(f.node_count(), ~0u);
  std::vector<NodeId> queue{root};
  hops[root] = 0;
  for (std::size_t i = 0; i < queue.size(); ++i)
    for (const Port& p : f.node(queue[i]).ports)
      if (p.remote.valid() && p.usable() && f.node(p.remote.node).is_switch() &&
          hops[p.remote.node] == ~0u) {
        hops[p.remote.node] = hops[queue[i]] + 1;
        queue.push_back(p.remote.node);
      }
  return hops;
}

// A cable fails (A) and the tables are repaired; then A returns as another
// fails (B). The reference's entries come back only where their path is
// minimal: an entry whose next switch detours around B keeps the one it had.
TEST(Incremental, RestoredEntriesAreOnMinimalPaths) {
  Fabric f = testing::grid({8, 8}, true, 1);
  const RoutingResult reference = route_psssp(f, RoutingOptions{});
  std::vector<PortRef> cables;
  for (const NodeId sw : {f.switches()[9], f.switches()[18]})
    for (PortNum p = 1; p < f.node(sw).ports.size(); ++p)
      if (f.node(f.port(PortRef{sw, p}).remote.node).is_switch()) cables.push_back({sw, p});
  std::uint64_t restored = 0;
  for (std::size_t b = 1; b < cables.size(); ++b) {
    Fabric g = f;
    set_cable(g, cables[0], false);
    const RoutingResult previous =
        route_psssp_incremental(g, reference.lfts, RoutingOptions{}, IncrementalOptions{});
    ASSERT_TRUE(previous.incremental.used) << previous.incremental.reason;
    set_cable(g, cables[0], true);
    set_cable(g, cables[b], false);
    const RoutingResult r = route_psssp_incremental(g, previous.lfts, RoutingOptions{},
                                                    IncrementalOptions{}, &reference.lfts);
    ASSERT_TRUE(r.incremental.used) << r.incremental.reason;
    expect_delivers(g, r.lfts);
    for (unsigned l = 1; l <= g.max_lid(); ++l) {
      const Lid lid = static_cast<Lid>(l);
      const PortRef dest = g.port_of_lid(lid);
      if (!dest.valid() || g.node(dest.node).is_switch()) continue;
      const std::vector<unsigned> least = hops_to(g, g.port(dest).remote.node);
      for (const NodeId u : g.switches()) {
        const PortNum now = r.lfts.get(u, lid);
        if (now == previous.lfts.get(u, lid) || now != reference.lfts.get(u, lid)) continue;
        ++restored;
        std::vector<ChannelId> path;
        ASSERT_EQ(testing::trace_route(g, r.lfts, PortRef{u, 0}, lid, &path),
                  TraceStatus::delivered);
        EXPECT_EQ(path.size() - 1, least[u]) << g.node(u).name << " LID " << lid;
      }
    }
  }
  EXPECT_GT(restored, 0u);  // the case is exercised
}

}  // namespace
}  // namespace psssp
