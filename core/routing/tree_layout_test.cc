// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The tree layout (tree_layout.h): its routes, and when the automatic order
// keeps it.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "pattern_estimate.h"
#include "psssp_routing.h"
#include "router.h"
#include "testing/routing_support.h"
#include "topologies/families.h"
#include "traffic/route_tracer.h"

namespace psssp {
namespace {

Fabric three_level(unsigned pods, unsigned leaves, unsigned hosts, unsigned aggs, unsigned cores,
                   unsigned cables, unsigned hosts_per_core = 0) {
  Fabric f =
      topo::build_fabric(topo::fattree3(pods, leaves, hosts, aggs, cores, cables, hosts_per_core));
  testing::assign_lids(f);
  return f;
}

NodeId leaf_of(const Fabric& f, PortRef host) {
  return f.node(host.node).ports[host.port].remote.node;
}

// Every host pair's route (by index in host_ports()): its channels.
struct Routes {
  std::map<std::pair<std::size_t, std::size_t>, std::vector<ChannelId>> path;
};

Routes trace_all(const Fabric& f, const ForwardingTables& lfts) {
  Routes r;
  const RouteTracer tracer(f, lfts);
  const std::vector<PortRef> hosts = f.host_ports();
  for (std::size_t s = 0; s < hosts.size(); ++s)
    for (std::size_t d = 0; d < hosts.size(); ++d) {
      if (s == d) continue;
      const PortRef src = hosts[s], dst = hosts[d];
      std::vector<ChannelId>& path = r.path[{s, d}];
      const TraceEnd end =
          tracer.trace_from(src, f.port(dst).lid, [&](ChannelId c) { path.push_back(c); });
      EXPECT_EQ(end.status, TraceStatus::delivered);
    }
  return r;
}

// The loads a routing reports are those its tables give, route by route.
void expect_loads_of_tables(const Fabric& f, const RoutingResult& r) {
  std::vector<double> traced(f.channel_count(), 0.0);
  for (const auto& [pair, path] : trace_all(f, r.lfts).path)
    for (const ChannelId c : path) traced[c] += 1.0;
  ASSERT_EQ(r.channel_load.size(), traced.size());
  for (ChannelId c = 0; c < traced.size(); ++c)
    ASSERT_DOUBLE_EQ(r.channel_load[c], traced[c]) << "channel " << c;
}

// The default routing and its tables laid out leaf by leaf.
struct Laid {
  RoutingResult ran, laid;
};

Laid lay_out(const Fabric& f, routing::TreeLayoutOrder order) {
  RoutingOptions o;
  o.order = RoutingOptions::Order::switches;
  routing::Router router(f, o);
  Laid l;
  l.ran = router.run();
  std::vector<PortNum> columns;
  l.laid = router.laid_out(l.ran, order, 1, &columns);
  if (l.laid.tree_layout != RoutingResult::TreeLayout::off)
    l.laid.channel_load = router.laid_out_loads(l.ran, columns, 2);
  return l;
}

TEST(TreeLayout, RoutesEveryLidLikeAFatTree) {
  // 4 pods of 4 leaves x 12 hosts, 4 aggregation switches x 2 cores, 3
  // cables per switch pair.
  const Fabric f = three_level(4, 4, 12, 4, 2, 3);
  const Laid l = lay_out(f, routing::TreeLayoutOrder::leaf_by_leaf);
  ASSERT_EQ(l.laid.tree_layout, RoutingResult::TreeLayout::leaf_by_leaf);
  const Routes ran = trace_all(f, l.ran.lfts), laid = trace_all(f, l.laid.lfts);
  const std::vector<PortRef> hosts = f.host_ports();
  std::map<std::size_t, std::set<ChannelId>> entries;     // per destination: cables into its leaf
  std::map<NodeId, std::map<NodeId, unsigned>> lids_via;  // per leaf: LIDs per switch above
  std::map<ChannelId, std::set<Lid>> up_lids;             // per leaf cable up: LIDs
  std::vector<double> traced(f.channel_count(), 0.0);
  for (const auto& [pair, path] : laid.path) {
    const PortRef src = hosts[pair.first], dst = hosts[pair.second];
    // Minimal: as long as psssp's own route (minimal hop).
    ASSERT_EQ(path.size(), ran.path.at(pair).size());
    for (const ChannelId c : path) traced[c] += 1.0;
    if (leaf_of(f, src) == leaf_of(f, dst)) continue;
    entries[pair.second].insert(path[path.size() - 2]);
    up_lids[path[1]].insert(f.port(dst).lid);
  }
  for (const auto& [dst, cables] : entries) {
    EXPECT_EQ(cables.size(), 1u);  // one cable into its leaf, from every source
    const NodeId agg = f.channel_port(*cables.begin()).node;
    ++lids_via[leaf_of(f, hosts[dst])][agg];
  }
  // A leaf's 12 LIDs come down from its 4 aggregation switches, 3 each.
  for (const auto& [leaf, per_agg] : lids_via) {
    EXPECT_EQ(per_agg.size(), 4u);
    for (const auto& [agg, n] : per_agg) EXPECT_EQ(n, 3u);
  }
  // Each leaf's 12 cables up carry the other 180 LIDs, 15 each.
  EXPECT_EQ(up_lids.size(), 16u * 12u);
  for (const auto& [cable, lids] : up_lids) EXPECT_EQ(lids.size(), 15u);
  // The loads reported are those of the laid-out tables.
  for (ChannelId c = 0; c < f.channel_count(); ++c)
    ASSERT_DOUBLE_EQ(l.laid.channel_load[c], traced[c]) << "channel " << c;
}

TEST(TreeLayout, LmcClassesEachDealtOverTheSpines) {
  // Two levels, 4 leaves x 8 hosts, 4 spines, LMC 2: every class of LIDs
  // alone comes down into each leaf from every spine twice (as the base
  // LIDs with LMC 0), and the 4 LIDs of a host from 4 different spines.
  Fabric f = topo::build_fabric(topo::fattree2(4, 8, 4, 1, 0));
  testing::assign_lids(f, 2);
  const Laid l = lay_out(f, routing::TreeLayoutOrder::leaf_by_leaf);
  ASSERT_EQ(l.laid.tree_layout, RoutingResult::TreeLayout::leaf_by_leaf);
  const RouteTracer tracer(f, l.laid.lfts);
  const std::vector<PortRef> hosts = f.host_ports();
  const PortRef src = hosts[0];  // on the first leaf: every other leaf's LIDs cross a spine
  std::map<std::pair<NodeId, unsigned>, std::map<NodeId, unsigned>> per_class;  // leaf, class
  for (const PortRef dst : hosts) {
    if (leaf_of(f, dst) == leaf_of(f, src)) continue;
    std::set<NodeId> spines;
    for (unsigned c = 0; c < 4; ++c) {
      std::vector<ChannelId> path;
      const TraceEnd end = tracer.trace_from(src, static_cast<Lid>(f.port(dst).lid + c),
                                             [&](ChannelId ch) { path.push_back(ch); });
      ASSERT_EQ(end.status, TraceStatus::delivered);
      ASSERT_EQ(path.size(), 4u);  // host, leaf, spine, leaf
      const NodeId spine = f.channel_port(path[2]).node;
      spines.insert(spine);
      ++per_class[{leaf_of(f, dst), c}][spine];
    }
    EXPECT_EQ(spines.size(), 4u);
  }
  for (const auto& [leaf_class, per_spine] : per_class) {
    EXPECT_EQ(per_spine.size(), 4u);
    for (const auto& [spine, n] : per_spine) EXPECT_EQ(n, 2u);
  }
}

TEST(TreeLayout, KeptWhereItIsEstimatedAhead) {
  // 4 pods of 3 leaves x 12 hosts, 3 aggregation switches x 3 cores, 2
  // cables: the layout round robin is about 2% ahead of psssp's tables.
  // Judged on bisections alone (on shift it is behind: PassedOverWhere...).
  const Fabric f = three_level(4, 3, 12, 3, 3, 2);
  RoutingOptions bisect_only;
  bisect_only.judge_patterns = false;
  const RoutingResult r = route_psssp(f, bisect_only);
  RoutingOptions without = bisect_only;
  without.tree_layouts = false;
  const RoutingResult plain = route_psssp(f, without);
  EXPECT_EQ(r.tree_layout, RoutingResult::TreeLayout::round_robin);
  EXPECT_EQ(plain.tree_layout, RoutingResult::TreeLayout::off);
  EXPECT_LT(plain.estimate(Candidate::tree_layout), 0.0);
  for (const double other : {r.estimate(Candidate::switches), r.estimate(Candidate::interleaved),
                             r.estimate(Candidate::port_order), r.estimate(Candidate::loose_ties),
                             r.estimate(Candidate::tree_layout)})
    EXPECT_GT(r.estimate(Candidate::tree_layout_round_robin), other);
  EXPECT_GT(testing::estimate_ebb(f, r.lfts, 4000),
            1.01 * testing::estimate_ebb(f, plain.lfts, 4000));
}

TEST(TreeLayout, FastEffortTriesRoundRobin) {
  // Fast effort (large trees): the round-robin layout alone, kept 0.5%
  // ahead.
  const Fabric f = three_level(4, 3, 12, 3, 3, 2);
  RoutingOptions fast;
  fast.effort = RoutingOptions::Effort::fast;
  fast.judge_patterns = false;
  const RoutingResult r = route_psssp(f, fast);
  EXPECT_FALSE(r.full_effort);
  EXPECT_EQ(r.tree_layout, RoutingResult::TreeLayout::round_robin);
  EXPECT_LT(r.estimate(Candidate::tree_layout), 0.0);
  EXPECT_GT(r.estimate(Candidate::tree_layout_round_robin),
            1.005 * r.estimate(Candidate::switches));
  fast.tree_layouts = false;
  const RoutingResult plain = route_psssp(f, fast);
  EXPECT_EQ(plain.tree_layout, RoutingResult::TreeLayout::off);
  EXPECT_GT(testing::estimate_ebb(f, r.lfts, 4000),
            1.01 * testing::estimate_ebb(f, plain.lfts, 4000));
}

TEST(TreeLayout, PassedOverWhereBehindOnShift) {
  // The same tree judged on the structured patterns too: the round-robin
  // layout is ahead on the bisections and behind on shift by more, so the
  // candidate whose largest shortfall is smallest, the default, is kept.
  const Fabric f = three_level(4, 3, 12, 3, 3, 2);
  const RoutingResult r = route_psssp(f, RoutingOptions{});
  EXPECT_EQ(r.tree_layout, RoutingResult::TreeLayout::off);
  EXPECT_TRUE(r.passed_over_bisect_choice);
  EXPECT_GT(r.estimate(Candidate::tree_layout_round_robin), r.estimate(Candidate::switches));
  ASSERT_FALSE(r.pattern_estimates.empty());
  EXPECT_EQ(r.pattern_estimates[0].first, "shift linear");
  RoutingOptions bisect_only;
  bisect_only.judge_patterns = false;
  const RoutingResult laid = route_psssp(f, bisect_only);
  const StructuredPatterns p = structured_patterns(f, f.host_ports(), kShiftPhases);
  EXPECT_GT(r.pattern_estimates[0].second,
            1.05 * estimate_patterns(f, laid.lfts, f.host_ports(), p)[0]);
}

TEST(TreeLayout, OnlyOnTrees) {
  // Hosts on the cores too, a torus: no layout candidate. Two levels: one
  // candidate (leaf by leaf; round robin gives the same tables) where the
  // candidates are judged on the structured patterns, none on bisections
  // alone.
  Fabric two = topo::build_fabric(topo::fattree2(8, 8, 4, 2, 0));
  testing::assign_lids(two);
  const Fabric hosts_on_cores = three_level(4, 4, 8, 2, 2, 2, 2);
  const Fabric torus = testing::make_torus({4, 4}, 2);
  const RoutingResult r = route_psssp(torus, RoutingOptions{});
  EXPECT_EQ(r.tree_layout, RoutingResult::TreeLayout::off);
  EXPECT_LT(r.estimate(Candidate::tree_layout), 0.0);
  EXPECT_LT(r.estimate(Candidate::tree_layout_round_robin), 0.0);
  RoutingOptions bisect_only;
  bisect_only.judge_patterns = false;
  // Hosts on the cores as well as on the leaves: two levels of switches
  // above switches with hosts, laid out as a two-level tree; a Dragonfly+
  // (cables between the spines of its groups) too.
  Fabric dragonfly_plus = topo::build_fabric(topo::dragonfly_plus(5, 2, 2, 2, 2));
  testing::assign_lids(dragonfly_plus);
  for (const Fabric* f : std::vector<const Fabric*>{&two, &hosts_on_cores, &dragonfly_plus}) {
    const RoutingResult judged = route_psssp(*f, RoutingOptions{});
    EXPECT_GT(judged.estimate(Candidate::tree_layout), 0.0);
    EXPECT_LT(judged.estimate(Candidate::tree_layout_round_robin), 0.0);
    const RoutingResult plain = route_psssp(*f, bisect_only);
    EXPECT_EQ(plain.tree_layout, RoutingResult::TreeLayout::off);
    EXPECT_LT(plain.estimate(Candidate::tree_layout), 0.0);
  }
}

// The judged estimates of shift and recursive doubling in fabric order:
// `laid`'s above `factor` times `plain`'s.
void expect_ahead_on_shift_and_doubling(const Fabric& f, const ForwardingTables& laid,
                                        const ForwardingTables& plain, double factor) {
  const std::vector<PortRef> hosts = f.host_ports();
  const StructuredPatterns p = structured_patterns(f, hosts, kShiftPhases);
  const std::vector<double> ours = estimate_patterns(f, laid, hosts, p);
  const std::vector<double> theirs = estimate_patterns(f, plain, hosts, p);
  ASSERT_EQ(ours.size(), theirs.size());
  ASSERT_GE(ours.size(), 2u);
  EXPECT_EQ(p.patterns[0].name, "shift linear");
  EXPECT_GT(ours[0], factor * theirs[0]);
  EXPECT_EQ(p.patterns[1].name, "recursive-doubling linear");
  EXPECT_GT(ours[1], factor * theirs[1]);
}

TEST(TreeLayout, FastEffortLaysOutTwoLevels) {
  // Fast effort judged on the patterns: a Dragonfly+ (two-level groups
  // joined between their spines) gets the layout candidate and keeps it,
  // ahead on shift and recursive doubling; a lone two-level tree keeps it
  // too, within the margin of plain P-SSSP on the bisections.
  Fabric dragonfly_plus = topo::build_fabric(topo::dragonfly_plus(15, 4, 4, 4, 4));
  testing::assign_lids(dragonfly_plus);
  Fabric two = topo::build_fabric(topo::fattree2(8, 8, 4, 2, 0));
  testing::assign_lids(two);
  RoutingOptions fast;
  fast.effort = RoutingOptions::Effort::fast;
  const RoutingResult laid = route_psssp(dragonfly_plus, fast);
  EXPECT_FALSE(laid.full_effort);
  EXPECT_GT(laid.estimate(Candidate::tree_layout), 0.0);
  EXPECT_EQ(laid.tree_layout, RoutingResult::TreeLayout::leaf_by_leaf);
  RoutingOptions without = fast;
  without.tree_layouts = false;
  expect_ahead_on_shift_and_doubling(dragonfly_plus, laid.lfts,
                                     route_psssp(dragonfly_plus, without).lfts, 1.2);
  expect_loads_of_tables(dragonfly_plus, laid);
  const RoutingResult lone = route_psssp(two, fast);
  EXPECT_FALSE(lone.full_effort);
  EXPECT_GT(lone.estimate(Candidate::tree_layout), 0.0);
  EXPECT_LT(lone.estimate(Candidate::tree_layout_round_robin), 0.0);
  EXPECT_EQ(lone.tree_layout, RoutingResult::TreeLayout::leaf_by_leaf);
  EXPECT_GE(lone.estimate(Candidate::tree_layout) * (1.0 + kFastSwitchMargin),
            lone.estimate(Candidate::switches));
  trace_all(two, lone.lfts);
}

TEST(TreeLayout, GrownTreeWithHostsOnSpines) {
  // A grown tree with 4 of its 66 hosts on spines: the leaves and spines are
  // the two sides of its switch graph, so the layout is a candidate (spine
  // hosts keep psssp's routes) and kept, ahead on shift and recursive
  // doubling; with 16 hosts on the spines (about a fifth of them), or a
  // cable between two leaves (no two sides), it is no tree.
  topo::GrownTreeParams p;
  p.leaves = 8;
  p.spines = 4;
  p.min_hosts = 4;
  p.max_hosts = 14;
  p.uplinks = 4;
  Fabric grown = topo::build_fabric(topo::grown_tree(p));
  testing::assign_lids(grown);
  const RoutingResult laid = route_psssp(grown, RoutingOptions{});
  EXPECT_EQ(laid.tree_layout, RoutingResult::TreeLayout::leaf_by_leaf);
  RoutingOptions without;
  without.tree_layouts = false;
  const RoutingResult plain = route_psssp(grown, without);
  EXPECT_LT(plain.estimate(Candidate::tree_layout), 0.0);
  expect_ahead_on_shift_and_doubling(grown, laid.lfts, plain.lfts, 1.0);
  expect_loads_of_tables(grown, laid);  // spine hosts' LIDs traced as they are
  topo::TopologySpec joined = topo::grown_tree(p);
  joined.cables.push_back({0, 1, 0, 0});  // leaf to leaf
  Fabric odd = topo::build_fabric(joined);
  testing::assign_lids(odd);
  EXPECT_LT(route_psssp(odd, RoutingOptions{}).estimate(Candidate::tree_layout), 0.0);
  p.spine_hosts = 4 * p.spines;
  p.seed = 2;
  Fabric crowded = topo::build_fabric(topo::grown_tree(p));
  testing::assign_lids(crowded);
  EXPECT_LT(route_psssp(crowded, RoutingOptions{}).estimate(Candidate::tree_layout), 0.0);
}

// The 4:1 tree (4 pods of 4 leaves x 16 hosts, 2 aggregation switches x 2
// cores, 2 cables per pair) without `drop` of the cables between its first
// leaf and that leaf's first switch above.
Fabric tree_without_leaf_cables(unsigned drop) {
  topo::TopologySpec spec = topo::fattree3(4, 4, 16, 2, 2, 2, 0);
  const std::size_t leaf = 0;
  std::size_t above = spec.switches.size();
  for (auto c = spec.cables.begin(); c != spec.cables.end() && drop > 0;) {
    const bool from_leaf = c->a == leaf || c->b == leaf;
    const std::size_t other = c->a == leaf ? c->b : c->a;
    if (from_leaf && above == spec.switches.size()) above = other;
    if (from_leaf && other == above) {
      c = spec.cables.erase(c);
      --drop;
    } else {
      ++c;
    }
  }
  Fabric f = topo::build_fabric(spec);
  testing::assign_lids(f);
  return f;
}

TEST(TreeLayout, ABundleShortOfACableStillMinimal) {
  // One of the two cables gone: the layout deals the one left; every route
  // is delivered as short as psssp's own.
  const Fabric f = tree_without_leaf_cables(1);
  const Laid l = lay_out(f, routing::TreeLayoutOrder::leaf_by_leaf);
  ASSERT_EQ(l.laid.tree_layout, RoutingResult::TreeLayout::leaf_by_leaf);
  const Routes ran = trace_all(f, l.ran.lfts), laid = trace_all(f, l.laid.lfts);
  for (const auto& [pair, path] : laid.path) ASSERT_EQ(path.size(), ran.path.at(pair).size());
}

TEST(TreeLayout, RefusedWhereALeafReachesNoCore) {
  // Both cables gone: leaf 0 has no switch above with a cable to the cores
  // that its pod mates' LIDs come down from, so the layout refuses the
  // tree; the automatic order still delivers every route.
  const Fabric f = tree_without_leaf_cables(2);
  const Laid l = lay_out(f, routing::TreeLayoutOrder::leaf_by_leaf);
  EXPECT_EQ(l.laid.tree_layout, RoutingResult::TreeLayout::off);
  EXPECT_EQ(l.laid.lfts.switch_count(), 0u);
  const RoutingResult r = route_psssp(f, RoutingOptions{});
  EXPECT_EQ(r.tree_layout, RoutingResult::TreeLayout::off);
  trace_all(f, r.lfts);
}

TEST(TreeLayout, RefusedWhereARouteWouldGrow) {
  // Two pods of 2 leaves and 2 aggregation switches, both cores cabled to
  // all four; leaf 0 lost its cable to agg 0. A LID of leaf 1 coming down
  // from agg 0 would be reached from leaf 0 over agg 1, a core and agg 0 (4
  // hops) where agg 1 alone does (2): the layout refuses the tree.
  topo::TopologySpec spec;
  spec.family = "test";
  for (const char* name : {"leaf0", "leaf1", "leaf2", "leaf3"})
    spec.switches.push_back({name, 4, 0});
  for (const char* name : {"agg0", "agg1", "agg2", "agg3", "core0", "core1"})
    spec.switches.push_back({name, 0, 0});
  for (std::size_t leaf = 0; leaf < 4; ++leaf)
    for (std::size_t agg = 4 + 2 * (leaf / 2); agg < 6 + 2 * (leaf / 2); ++agg)
      if (leaf != 0 || agg != 4) spec.cables.push_back({leaf, agg, 0, 0});
  for (std::size_t agg = 4; agg < 8; ++agg)
    for (std::size_t core = 8; core < 10; ++core) spec.cables.push_back({agg, core, 0, 0});
  Fabric f = topo::build_fabric(spec);
  testing::assign_lids(f);
  const Laid l = lay_out(f, routing::TreeLayoutOrder::leaf_by_leaf);
  EXPECT_EQ(l.laid.tree_layout, RoutingResult::TreeLayout::off);
  // Without the hole every route fits the layout.
  spec.cables.push_back({0, 4, 0, 0});
  Fabric whole = topo::build_fabric(spec);
  testing::assign_lids(whole);
  EXPECT_EQ(lay_out(whole, routing::TreeLayoutOrder::leaf_by_leaf).laid.tree_layout,
            RoutingResult::TreeLayout::leaf_by_leaf);
}

}  // namespace
}  // namespace psssp
