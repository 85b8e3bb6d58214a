// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "psssp_routing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <numeric>
#include <set>
#include <string>

#include "formats/fabric_io.h"
#include "pattern_refinement.h"
#include "router.h"
#include "testing/routing_support.h"
#include "testing/topologies.h"

namespace psssp {
namespace {

using testing::trace_route;

// Switch hops from every switch to `target` over usable cables (independent
// of the routing code).
std::vector<unsigned> hop_distances(const Fabric& f, NodeId target) {
  std::vector<unsigned> dist(f.node_count(), ~0u);
  std::deque<NodeId> queue{target};
  dist[target] = 0;
  while (!queue.empty()) {
    const NodeId v = queue.front();
    queue.pop_front();
    for (NodeId u : f.switches()) {
      if (dist[u] != ~0u) continue;
      for (PortNum p = 1; p < f.node(u).ports.size(); ++p) {
        const Port& port = f.node(u).ports[p];
        if (port.usable() && port.remote.node == v) {
          dist[u] = dist[v] + 1;
          queue.push_back(u);
          break;
        }
      }
    }
  }
  return dist;
}

// The switch a LID terminates at.
NodeId lid_switch(const Fabric& f, Lid lid) {
  const PortRef owner = f.port_of_lid(lid);
  if (f.node(owner.node).is_switch()) return owner.node;
  return f.port(owner).remote.node;
}

// Every switch reaches every LID, without loops; with `minimal`, in the
// fewest switch hops.
void expect_complete(const Fabric& f, const RoutingResult& r, bool minimal) {
  for (unsigned l = 1; l <= f.max_lid(); ++l) {
    const Lid lid = static_cast<Lid>(l);
    if (!f.port_of_lid(lid).valid()) continue;
    const auto dist = hop_distances(f, lid_switch(f, lid));
    for (const NodeId sw : f.switches()) {
      std::vector<ChannelId> path;
      ASSERT_EQ(trace_route(f, r.lfts, PortRef{sw, 0}, lid, &path), TraceStatus::delivered)
          << "switch " << f.node(sw).name << " LID " << lid;
      const unsigned switch_hops = static_cast<unsigned>(path.size()) -
                                   (f.node(f.port_of_lid(lid).node).is_switch() ? 0 : 1);
      if (minimal) {
        EXPECT_EQ(switch_hops, dist[sw]) << f.node(sw).name << " LID " << lid;
      }
    }
  }
}

// Routes per channel counted by tracing every (source host, load LID) pair.
std::vector<double> traced_loads(const Fabric& f, const ForwardingTables& lfts,
                                 const std::vector<PortRef>& sources,
                                 const std::vector<PortRef>& destinations) {
  std::vector<double> load(f.channel_count(), 0.0);
  for (const PortRef s : sources)
    for (const PortRef d : destinations)
      for (unsigned k = 0; k < f.port(d).lid_count(); ++k) {
        if (s == d) continue;
        std::vector<ChannelId> path;
        if (trace_route(f, lfts, s, static_cast<Lid>(f.port(d).lid + k), &path) !=
            TraceStatus::delivered)
          continue;
        for (const ChannelId c : path) load[c] += 1.0;
      }
  return load;
}

TEST(Routing, FatTreeCompleteMinimalAndPortZero) {
  const auto t = testing::make_kary_ntree(4, 3);
  const RoutingResult r = route_psssp(t.fabric, {});
  EXPECT_TRUE(r.unreachable.empty());
  expect_complete(t.fabric, r, true);
  for (const NodeId sw : t.fabric.switches())
    EXPECT_EQ(r.lfts.get(sw, t.fabric.node(sw).ports[0].lid), 0);
  for (const NodeId h : t.hosts) {
    const Port& p = t.fabric.node(h).ports[1];
    EXPECT_EQ(r.lfts.get(p.remote.node, p.lid), p.remote.port);
  }
}

TEST(Routing, TorusAndRandomComplete) {
  for (const Fabric& f : {testing::make_torus({4, 3}, 2), testing::make_torus({2, 2, 3}, 1),
                          testing::make_random(20, 5, 3, 11)}) {
    const RoutingResult r = route_psssp(f, {});
    EXPECT_TRUE(r.unreachable.empty());
    expect_complete(f, r, true);
  }
}

TEST(Routing, Deterministic) {
  const Fabric f = testing::make_random(30, 6, 4, 5);
  RoutingOptions o;
  const RoutingResult a = route_psssp(f, o);
  const RoutingResult b = route_psssp(f, o);
  EXPECT_TRUE(a.lfts == b.lfts);
  EXPECT_EQ(a.channel_load, b.channel_load);
  o.threads = 3;
  const RoutingResult c = route_psssp(f, o);
  EXPECT_TRUE(a.lfts == c.lfts);
  EXPECT_EQ(a.channel_load, c.channel_load);
}

TEST(Routing, BoostKernelMatchesLayeredKernel) {
  for (const Fabric& f : {testing::make_random(25, 6, 3, 3), testing::make_torus({4, 4}, 2),
                          testing::make_kary_ntree(4, 3).fabric}) {
    for (const bool capacity : {false, true}) {
      RoutingOptions o;
      o.capacity = capacity ? RoutingOptions::Capacity::on : RoutingOptions::Capacity::off;
      o.effort = RoutingOptions::Effort::fast;  // plain P-SSSP: no affinity in Boost's kernel
      const RoutingResult layered = route_psssp(f, o);
      o.boost_kernel = true;
      const RoutingResult dijkstra = route_psssp(f, o);
      EXPECT_TRUE(layered.lfts == dijkstra.lfts);
    }
  }
}

TEST(Routing, RefinementStopsAtAFixedPoint) {
  // A fat tree settles after one refinement pass; the pass that changed
  // nothing ends the loop, and allowing more passes changes nothing.
  const Fabric f = testing::make_kary_ntree(4, 3).fabric;
  const RoutingResult r = route_psssp(f, {});
  EXPECT_TRUE(r.full_effort);
  EXPECT_TRUE(r.converged);
  ASSERT_LT(r.refine_passes_run, 8u);
  RoutingOptions more;
  more.refine_passes = 20;
  const RoutingResult r20 = route_psssp(f, more);
  EXPECT_EQ(r20.refine_passes_run, r.refine_passes_run);
  EXPECT_TRUE(r20.lfts == r.lfts);
  // The last pass changed nothing, so one pass fewer gives the same tables
  // (and does not know yet that it has converged).
  ASSERT_GE(r.refine_passes_run, 2u);
  RoutingOptions fewer;
  fewer.refine_passes = r.refine_passes_run - 1;
  const RoutingResult early = route_psssp(f, fewer);
  EXPECT_FALSE(early.converged);
  EXPECT_EQ(early.refine_passes_run, r.refine_passes_run - 1);
  EXPECT_TRUE(early.lfts == r.lfts);
  // Two passes fewer: the pass that still changed tables is missing.
  fewer.refine_passes = r.refine_passes_run - 2;
  EXPECT_FALSE(route_psssp(f, fewer).lfts == r.lfts);
}

TEST(Routing, AutomaticEffortFollowsTheWork) {
  const Fabric f = testing::make_torus({4, 4, 4}, 2);
  RoutingOptions o;
  EXPECT_TRUE(route_psssp(f, o).full_effort);
  o.full_effort_limit = 100.0;  // less than one pass of this torus
  const RoutingResult limited = route_psssp(f, o);
  EXPECT_FALSE(limited.full_effort);
  EXPECT_LE(limited.refine_passes_run, 1u);
  RoutingOptions fast;
  fast.effort = RoutingOptions::Effort::fast;
  EXPECT_TRUE(route_psssp(f, fast).lfts == limited.lfts);
  // Affinity off, full effort: only the refinement differs from fast (more
  // passes; ties re-drawn instead of kept), so the first routing is fast's.
  RoutingOptions plain_full;
  plain_full.effort = RoutingOptions::Effort::full;
  plain_full.source_affinity = plain_full.root_affinity = 0.0;
  plain_full.refine_passes = 0;
  plain_full.order = RoutingOptions::Order::switches;  // fast effort's default order
  fast.order = RoutingOptions::Order::switches;        // one routing, no port-order candidate
  fast.refine_passes = 0;
  EXPECT_TRUE(route_psssp(f, plain_full).lfts == route_psssp(f, fast).lfts);
}

// Fast effort on a direct network (hosts on every switch) routes the
// port-order candidate beside the default and keeps it for a clear gain; a
// fat tree (switches without hosts) gets the one routing.
TEST(Routing, FastEffortTriesPortOrderOnDirectNetworks) {
  RoutingOptions fast;
  fast.effort = RoutingOptions::Effort::fast;
  RoutingOptions fast_default = fast;
  fast_default.order = RoutingOptions::Order::switches;

  const Fabric torus = testing::make_torus({4, 4, 4}, 2);
  const RoutingResult r = route_psssp(torus, fast);
  EXPECT_GT(r.estimate(Candidate::port_order), 0.0);
  EXPECT_GT(r.estimate(Candidate::switches), 0.0);
  EXPECT_LT(r.estimate(Candidate::interleaved), 0.0);  // full effort's candidate only
  EXPECT_EQ(r.tie_break, RoutingOptions::TieBreak::first);
  EXPECT_EQ(r.order, RoutingOptions::Order::interleaved);
  EXPECT_GT(testing::estimate_ebb(torus, r.lfts, 400),
            testing::estimate_ebb(torus, route_psssp(torus, fast_default).lfts, 400) + 0.01);

  const auto tree = testing::make_kary_ntree(4, 3, 0, 42);
  const RoutingResult t = route_psssp(tree.fabric, fast);
  EXPECT_LT(t.estimate(Candidate::port_order), 0.0);
  EXPECT_EQ(t.order, RoutingOptions::Order::switches);
  EXPECT_TRUE(t.lfts == route_psssp(tree.fabric, fast_default).lfts);
}

TEST(Routing, SpeculativeRefinementMatchesOneThread) {
  // Fast effort refines with as many searches at a time as threads; the
  // batches are cut at the first changed column, so tables and loads are
  // those of one thread. Some fabrics change columns in the pass (so some
  // speculation is discarded), the fat tree does not.
  bool some_pass_changes_tables = false;
  for (const Fabric& f :
       {testing::make_torus({4, 4}, 2), testing::make_random(40, 6, 3, 9),
        testing::make_kary_ntree(6, 3).fabric, testing::make_torus({3, 3, 3}, 1)}) {
    RoutingOptions o;
    o.effort = RoutingOptions::Effort::fast;
    const RoutingResult one = route_psssp(f, o);
    o.refine_passes = 0;
    some_pass_changes_tables |= !(route_psssp(f, o).lfts == one.lfts);
    o.refine_passes = 1;
    for (const unsigned threads : {2u, 3u, 5u}) {
      o.threads = threads;
      const RoutingResult many = route_psssp(f, o);
      EXPECT_TRUE(many.lfts == one.lfts) << threads << " threads";
      EXPECT_EQ(many.channel_load, one.channel_load) << threads << " threads";
      EXPECT_EQ(many.converged, one.converged);
    }
  }
  EXPECT_TRUE(some_pass_changes_tables);
}

// Three chassis of 8 line and 4 fabric chips in a chain, joined by bundles
// of 2 cables (88 hosts): a fabric where the loose-ties candidate wins.
Fabric director_chain() {
  topo::DirectorParams p;
  p.chassis = 3;
  p.line_chips = 8;
  p.fabric_chips = 4;
  p.chip_ports = 8;
  p.external_ports = 4;
  p.bundle = 2;
  Fabric f = topo::build_fabric(topo::director(p));
  testing::assign_lids(f);
  return f;
}

TEST(Routing, AutomaticOrderKeepsTheBestEstimate) {
  // Full effort routes in both orders, interleaved with ties to the lowest
  // port, and switch by switch with loose ties to the lowest port, and keeps
  // the tables whose estimated eBB (same flows for all) is highest, the
  // earlier on equal estimates, the default (switches) unless another is
  // 0.2% above it; fixed orders route once. Judged on the bisections alone
  // (the structured patterns: pattern_estimate_test.cc).
  bool port_order_kept = false, path_kept = false, loose_kept = false;
  RoutingOptions bisect_only;
  bisect_only.judge_patterns = false;
  for (const Fabric& f : {testing::make_torus({4, 4}, 2), testing::make_random(16, 4, 2, 5),
                          testing::make_torus({3, 3, 3}, 2), director_chain()}) {
    const RoutingResult chosen = route_psssp(f, bisect_only);
    ASSERT_TRUE(chosen.full_effort);
    ASSERT_GE(chosen.estimate(Candidate::switches), 0.0);
    RoutingOptions o;
    o.order = RoutingOptions::Order::switches;
    const RoutingResult by_switch = route_psssp(f, o);
    o.order = RoutingOptions::Order::interleaved;
    const RoutingResult interleaved = route_psssp(f, o);
    o.tie_break = RoutingOptions::TieBreak::first;
    const RoutingResult port_order = route_psssp(f, o);
    o.order = RoutingOptions::Order::switches;
    o.tie_slack = kLooseTieSlack;
    const RoutingResult loose = route_psssp(f, o);
    EXPECT_LT(by_switch.estimate(Candidate::switches), 0.0);  // no estimate without the choice
    EXPECT_LT(by_switch.estimate(Candidate::port_order), 0.0);
    EXPECT_LT(by_switch.estimate(Candidate::loose_ties), 0.0);
    const std::vector<PortRef> hosts = f.host_ports();
    const RoutingOptions defaults;
    const RoutingResult* candidates[] = {&by_switch, &interleaved, &port_order, &loose};
    double estimates[4];
    std::size_t best = 0;
    for (std::size_t i = 0; i < 4; ++i) {
      estimates[i] = estimate_ebb(f, candidates[i]->lfts, hosts, defaults.estimate_runs,
                                  defaults.estimate_seed);
      if (estimates[i] > estimates[best] * (best == 0 ? 1.0 + kFullSwitchMargin : 1.0)) best = i;
    }
    EXPECT_DOUBLE_EQ(chosen.estimate(Candidate::switches), estimates[0]);
    EXPECT_DOUBLE_EQ(chosen.estimate(Candidate::interleaved), estimates[1]);
    EXPECT_DOUBLE_EQ(chosen.estimate(Candidate::port_order), estimates[2]);
    EXPECT_DOUBLE_EQ(chosen.estimate(Candidate::loose_ties), estimates[3]);
    EXPECT_TRUE(chosen.lfts == candidates[best]->lfts);
    EXPECT_EQ(chosen.order, candidates[best]->order);
    EXPECT_EQ(chosen.tie_break, candidates[best]->tie_break);
    EXPECT_EQ(chosen.tie_slack, candidates[best]->tie_slack);
    (best == 3 ? loose_kept : best == 2 ? port_order_kept : path_kept) = true;
  }
  // The fabrics exercise every kind of outcome.
  EXPECT_TRUE(port_order_kept);
  EXPECT_TRUE(path_kept);
  EXPECT_TRUE(loose_kept);
  // An 8-ary 2-tree: a candidate estimates above the default, by less than
  // the margin (the routings are the same up to renaming hosts): the
  // default is kept.
  const Fabric tree = testing::make_kary_ntree(8, 2).fabric;
  const RoutingResult kept = route_psssp(tree, {});
  const double above =
      std::max({kept.estimate(Candidate::interleaved), kept.estimate(Candidate::port_order),
                kept.estimate(Candidate::loose_ties)});
  EXPECT_GT(above, kept.estimate(Candidate::switches));
  EXPECT_LT(above, (1.0 + kFullSwitchMargin) * kept.estimate(Candidate::switches));
  RoutingOptions by_switches;
  by_switches.order = RoutingOptions::Order::switches;
  EXPECT_TRUE(kept.lfts == route_psssp(tree, by_switches).lfts);
  // Another tie-break than path has neither port-order candidate.
  RoutingOptions dmodk;
  dmodk.tie_break = RoutingOptions::TieBreak::dmodk;
  const RoutingResult r = route_psssp(testing::make_torus({4, 4}, 2), dmodk);
  EXPECT_GE(r.estimate(Candidate::interleaved), 0.0);
  EXPECT_LT(r.estimate(Candidate::port_order), 0.0);
  EXPECT_LT(r.estimate(Candidate::loose_ties), 0.0);
  EXPECT_EQ(r.tie_break, RoutingOptions::TieBreak::dmodk);
}

// A candidate's estimate on one structured pattern (-1 if not judged).
double pattern_estimate(const RoutingResult& r, Candidate c, const std::string& pattern) {
  for (const RoutingResult::CandidateEstimate& e : r.estimates)
    if (e.candidate == c)
      for (std::size_t p = 0; p < e.patterns.size(); ++p)
        if (r.pattern_estimates[p].first == pattern) return e.patterns[p];
  return -1.0;
}

// The bisection estimate of the candidate a judged routing kept: the one
// whose pattern estimates are the result's (-1 if none is).
double kept_bisect_estimate(const RoutingResult& r) {
  double bisect = -1.0;
  for (const RoutingResult::CandidateEstimate& e : r.estimates)
    if (e.patterns.size() == r.pattern_estimates.size() &&
        std::equal(e.patterns.begin(), e.patterns.end(), r.pattern_estimates.begin(),
                   [](double v, const auto& named) { return v == named.second; }))
      bisect = e.bisect;
  return bisect;
}

TEST(Routing, RankNeighboursOrderADirectorPair) {
  // Two IS5100 chassis joined by six cables (no tree, so no tree layout):
  // the balanced candidates send a line chip's shifted partners over the
  // same fabric chips; the wide rank-neighbours candidate spreads them
  // without giving up the bisections, and automatic order keeps it.
  topo::DirectorParams p = topo::director_params("is5100");
  p.bundle = 6;
  const Fabric f = testing::with_lids(topo::director(p));
  RoutingOptions unrefined;  // the pattern refinement starts from the kept one
  unrefined.refine_patterns = false;
  const RoutingResult r = route_psssp(f, unrefined);
  ASSERT_TRUE(r.full_effort);
  double balanced_shift = 0.0, balanced_bisect = 0.0;
  for (const Candidate c : {Candidate::switches, Candidate::interleaved, Candidate::port_order,
                            Candidate::loose_ties}) {
    balanced_shift = std::max(balanced_shift, pattern_estimate(r, c, "shift linear"));
    balanced_bisect = std::max(balanced_bisect, r.estimate(c));
  }
  const double wide = pattern_estimate(r, Candidate::neighbours_wide, "shift linear");
  EXPECT_GT(wide, 1.1 * balanced_shift);
  EXPECT_GE(r.estimate(Candidate::neighbours_wide) * (1.0 + kFullSwitchMargin), balanced_bisect);
  RoutingOptions o;
  o.order = RoutingOptions::Order::switches;
  o.neighbour_window = kWideNeighbourWindow;
  EXPECT_TRUE(r.lfts == route_psssp(f, o).lfts);
  expect_complete(f, r, true);
}

TEST(Routing, RankNeighboursCompeteOnlyWithoutGivingUpBisections) {
  // Wherever automatic order keeps a rank-neighbours candidate, its
  // bisections are within the margin of the candidate kept without them;
  // with LMC (a port's LIDs keep apart by their own penalties) there is
  // none.
  bool kept = false;
  for (const Fabric& f :
       {testing::make_torus({4, 4}, 2), testing::make_random(16, 4, 4, 5),
        testing::with_lids(topo::dragonfly(4, 2, 2)), testing::with_lids(topo::kautz(2, 2, 8))}) {
    RoutingOptions unrefined;  // the refinement would start from the kept one
    unrefined.refine_patterns = false;
    const RoutingResult r = route_psssp(f, unrefined);
    ASSERT_GE(r.estimate(Candidate::neighbours), 0.0);
    RoutingOptions without = unrefined;
    without.rank_neighbours = false;
    const RoutingResult plain = route_psssp(f, without);
    EXPECT_LT(plain.estimate(Candidate::neighbours), 0.0);
    for (const unsigned window : {kNeighbourWindow, kWideNeighbourWindow}) {
      RoutingOptions o;
      o.order = RoutingOptions::Order::switches;
      o.neighbour_window = window;
      const RoutingResult alone = route_psssp(f, o);
      expect_complete(f, alone, true);
      if (!(alone.lfts == r.lfts)) continue;
      kept = true;
      const Candidate c =
          window == kNeighbourWindow ? Candidate::neighbours : Candidate::neighbours_wide;
      const double plain_bisect = kept_bisect_estimate(plain);  // kept without them
      ASSERT_GT(plain_bisect, 0.0);
      EXPECT_GE(r.estimate(c) * (1.0 + kFullSwitchMargin), plain_bisect);
    }
  }
  EXPECT_TRUE(kept);
  const RoutingResult lmc = route_psssp(testing::make_kary_ntree(4, 2, 1).fabric, {});
  EXPECT_LT(lmc.estimate(Candidate::neighbours), 0.0);
  EXPECT_GE(lmc.estimate(Candidate::switches), 0.0);
}

TEST(Routing, RankNeighboursKeepTheLoadAccounting) {
  // Refined in the hosts' order with the window sliding, the loads reported
  // are still the routes the tables give, the window changes the tables, and
  // they do not depend on the threads. With LMC there is no window.
  RoutingOptions o;
  o.order = RoutingOptions::Order::switches;
  const Fabric f = testing::make_random(16, 4, 4, 5);
  const RoutingResult plain = route_psssp(f, o);
  o.neighbour_window = kNeighbourWindow;
  const RoutingResult r = route_psssp(f, o);
  EXPECT_FALSE(r.lfts == plain.lfts);
  expect_complete(f, r, true);
  const auto traced = traced_loads(f, r.lfts, f.host_ports(), f.host_ports());
  ASSERT_EQ(r.channel_load.size(), traced.size());
  for (ChannelId c = 0; c < traced.size(); ++c) EXPECT_DOUBLE_EQ(r.channel_load[c], traced[c]) << c;
  o.threads = 2;
  EXPECT_TRUE(route_psssp(f, o).lfts == r.lfts);
  const Fabric lmc = testing::make_kary_ntree(4, 2, 1).fabric;
  RoutingOptions no_window = o;
  no_window.neighbour_window = 0;
  EXPECT_TRUE(route_psssp(lmc, o).lfts == route_psssp(lmc, no_window).lfts);
}

TEST(Routing, PatternRefinementMovesEntriesToShortestNextHops) {
  // Moves keep every route delivered and shortest, the reported load change
  // is the traced one, and the judged patterns' flows share fewer cables:
  // their estimates rise.
  const Fabric f = testing::with_lids(topo::dragonfly(4, 2, 2));
  RoutingOptions o;
  o.order = RoutingOptions::Order::switches;
  RoutingResult r = route_psssp(f, o);
  const StructuredPatterns patterns = structured_patterns(f, f.host_ports(), kShiftPhases);
  const std::vector<double> before = estimate_patterns(f, r.lfts, f.host_ports(), patterns);
  const auto loads_before = traced_loads(f, r.lfts, f.host_ports(), f.host_ports());
  const ForwardingTables unrefined = r.lfts;
  // Passes until one moves nothing, at most four, on the router's graph.
  routing::Router router(f, o);
  router.prepare();
  const auto refine = [&](ForwardingTables& lfts, double weight, std::vector<double>* delta) {
    routing::PatternRefiner refiner = router.pattern_refiner(lfts, patterns, weight);
    EXPECT_TRUE(refiner.applies());
    std::size_t moves = 0;
    for (int pass = 0; pass < 4; ++pass) {
      const std::size_t moved = refiner.pass();
      moves += moved;
      if (moved == 0) break;
    }
    if (delta) *delta = refiner.route_delta();
    lfts = refiner.tables();
    return moves;
  };
  std::vector<double> route_delta;
  const std::size_t moves = refine(r.lfts, 16.0, &route_delta);
  EXPECT_GT(moves, 0u);
  EXPECT_FALSE(r.lfts == unrefined);
  expect_complete(f, r, true);
  const std::vector<double> after = estimate_patterns(f, r.lfts, f.host_ports(), patterns);
  ASSERT_EQ(after.size(), before.size());
  EXPECT_GT(after[0], before[0]) << patterns.patterns[0].name;
  EXPECT_GT(std::accumulate(after.begin(), after.end(), 0.0),
            std::accumulate(before.begin(), before.end(), 0.0));
  const auto loads_after = traced_loads(f, r.lfts, f.host_ports(), f.host_ports());
  ASSERT_EQ(route_delta.size(), loads_after.size());
  for (ChannelId c = 0; c < loads_after.size(); ++c)
    EXPECT_DOUBLE_EQ(loads_before[c] + route_delta[c], loads_after[c]) << c;
  // A dearer balance moves fewer entries.
  ForwardingTables dear = unrefined;
  EXPECT_LT(refine(dear, 4096.0, nullptr), moves);
}

TEST(Routing, PatternRefinedCandidateKeepsTheBisections) {
  // On a dragonfly the automatic order keeps the pattern-refined tables:
  // ahead on every judged pattern of the routing kept without them, within
  // the margin on its bisections, loads as traced, independent of threads.
  const Fabric f = testing::with_lids(topo::dragonfly(6, 3, 3));
  const RoutingResult r = route_psssp(f, {});
  ASSERT_GT(r.pattern_moves, 0u);
  ASSERT_GE(r.estimate(Candidate::pattern_refined), 0.0);
  RoutingOptions without;
  without.refine_patterns = false;
  const RoutingResult unrefined = route_psssp(f, without);
  EXPECT_EQ(unrefined.pattern_moves, 0u);
  EXPECT_LT(unrefined.estimate(Candidate::pattern_refined), 0.0);
  ASSERT_EQ(r.pattern_estimates.size(), unrefined.pattern_estimates.size());
  for (std::size_t p = 0; p < r.pattern_estimates.size(); ++p)
    EXPECT_GE(r.pattern_estimates[p].second, unrefined.pattern_estimates[p].second)
        << r.pattern_estimates[p].first;
  // The bar: the bisections of the routing kept from the candidates that
  // order no routes.
  without.rank_neighbours = false;
  const RoutingResult plain = route_psssp(f, without);
  const double plain_bisect = kept_bisect_estimate(plain);
  ASSERT_GT(plain_bisect, 0.0);
  EXPECT_GE(r.estimate(Candidate::pattern_refined) * (1.0 + kFullSwitchMargin), plain_bisect);
  expect_complete(f, r, true);
  const auto traced = traced_loads(f, r.lfts, f.host_ports(), f.host_ports());
  ASSERT_EQ(r.channel_load.size(), traced.size());
  for (ChannelId c = 0; c < traced.size(); ++c) EXPECT_DOUBLE_EQ(r.channel_load[c], traced[c]) << c;
  RoutingOptions two;
  two.threads = 2;
  EXPECT_TRUE(route_psssp(f, two).lfts == r.lfts);
}

TEST(Routing, TieSlackWidensTheTies) {
  // With ties to the lowest port, a slack keeps routes on the lowest ports
  // while their loads stay within it: other tables, whose busiest switch
  // link carries more routes than with exact ties, still complete and
  // minimal.
  const Fabric f = director_chain();
  RoutingOptions o;
  o.order = RoutingOptions::Order::switches;
  o.tie_break = RoutingOptions::TieBreak::first;
  const RoutingResult exact = route_psssp(f, o);
  o.tie_slack = kLooseTieSlack;
  const RoutingResult loose = route_psssp(f, o);
  EXPECT_FALSE(exact.lfts == loose.lfts);
  EXPECT_EQ(loose.tie_slack, kLooseTieSlack);
  const auto busiest = [&](const RoutingResult& r) {
    double most = 0.0;
    for (ChannelId c = 0; c < r.channel_load.size(); ++c) {
      const PortRef p = f.channel_port(c);
      const PortRef q = f.port(p).remote;
      if (f.node(p.node).is_switch() && q.valid() && f.node(q.node).is_switch())
        most = std::max(most, r.channel_load[c]);
    }
    return most;
  };
  EXPECT_GT(busiest(loose), busiest(exact));
  expect_complete(f, loose, true);
}

TEST(Routing, LoadAccountingMatchesTracedRoutes) {
  for (const bool refine : {false, true}) {
    Fabric f = testing::make_random(16, 5, 3, 9);
    RoutingOptions o;
    o.refine_passes = refine ? 2 : 0;
    const RoutingResult r = route_psssp(f, o);
    const auto traced = traced_loads(f, r.lfts, f.host_ports(), f.host_ports());
    ASSERT_EQ(r.channel_load.size(), traced.size());
    for (ChannelId c = 0; c < traced.size(); ++c)
      EXPECT_DOUBLE_EQ(r.channel_load[c], traced[c]) << c;
  }
}

// Two switches joined by two parallel cables, hosts on both sides.
Fabric two_switches(LinkRate first, LinkRate second, unsigned hosts) {
  Fabric f;
  const NodeId a = f.add_node(NodeType::switch_node, "a", static_cast<PortNum>(hosts + 2));
  const NodeId b = f.add_node(NodeType::switch_node, "b", static_cast<PortNum>(hosts + 2));
  f.connect(PortRef{a, 1}, PortRef{b, 1}, first);
  f.connect(PortRef{a, 2}, PortRef{b, 2}, second);
  for (unsigned i = 0; i < hosts; ++i)
    for (const NodeId sw : {a, b}) {
      const NodeId h = f.add_node(NodeType::ca, f.node(sw).name + std::to_string(i), 1);
      f.connect(PortRef{h, 1}, PortRef{sw, static_cast<PortNum>(3 + i)}, testing::qdr4x());
    }
  testing::assign_guids(f);
  testing::assign_lids(f);
  return f;
}

TEST(Routing, ParallelCablesBothUsed) {
  const Fabric f = two_switches(testing::qdr4x(), testing::qdr4x(), 4);
  const RoutingResult r = route_psssp(f, {});
  for (const PortNum p : {PortNum{1}, PortNum{2}}) {
    EXPECT_EQ(r.channel_load[f.channel(PortRef{0, p})], 8.0) << "a port " << int(p);
    EXPECT_EQ(r.channel_load[f.channel(PortRef{1, p})], 8.0) << "b port " << int(p);
  }
}

TEST(Routing, CapacityWeightsPreferTheFatLink) {
  const LinkRate fat{LinkWidth::x12, LinkSpeed::qdr};
  const Fabric f = two_switches(testing::qdr4x(), fat, 8);
  RoutingOptions o;
  o.capacity = RoutingOptions::Capacity::off;
  const RoutingResult plain = route_psssp(f, o);
  EXPECT_EQ(plain.channel_load[f.channel(PortRef{0, 1})],
            plain.channel_load[f.channel(PortRef{0, 2})]);
  o.capacity = RoutingOptions::Capacity::on;
  const RoutingResult r = route_psssp(f, o);
  const double thin = r.channel_load[f.channel(PortRef{0, 1})];
  const double thick = r.channel_load[f.channel(PortRef{0, 2})];
  EXPECT_EQ(thin + thick, 64.0);
  EXPECT_GE(thick, 2.5 * thin);  // 3x the capacity: about 3x the routes
}

// The default weighs by capacity exactly where the switch cables mix rates.
TEST(Routing, CapacityAutomaticFollowsTheRates) {
  RoutingOptions on, off, automatic;
  on.capacity = RoutingOptions::Capacity::on;
  off.capacity = RoutingOptions::Capacity::off;
  const Fabric mixed = two_switches(testing::qdr4x(), LinkRate{LinkWidth::x12, LinkSpeed::qdr}, 8);
  EXPECT_TRUE(route_psssp(mixed, automatic).lfts == route_psssp(mixed, on).lfts);
  EXPECT_FALSE(route_psssp(mixed, automatic).lfts == route_psssp(mixed, off).lfts);
  const Fabric uniform = two_switches(testing::qdr4x(), testing::qdr4x(), 8);
  EXPECT_TRUE(route_psssp(uniform, automatic).lfts == route_psssp(uniform, off).lfts);
  EXPECT_TRUE(route_psssp(uniform, on).lfts == route_psssp(uniform, off).lfts);
}

// A captured cluster (public-1.topo): two switches joined by a 4xSDR and a
// 1xSDR cable, one host port on a 1x cable. Capacity weights count a route
// by what its hosts' cables let it carry and price a cable by the load a
// new route would meet there, so the fast hosts' traffic takes the fast
// cable and the slow host's the slow one.
TEST(Routing, CapacityWeightsFollowTheHostRatesOfACapture) {
  const Fabric f =
      read_fabric(std::string(PSSSP_SOURCE_DIR) + "/core/formats/testdata/public-1.topo");
  RoutingOptions off;
  off.capacity = RoutingOptions::Capacity::off;
  const RoutingResult r = route_psssp(f, {});
  const std::vector<PortRef> hosts = f.host_ports();
  const double weighed = estimate_ebb(f, r.lfts, hosts, 2000, 1, false, true);
  const double counted = estimate_ebb(f, route_psssp(f, off).lfts, hosts, 2000, 1, false, true);
  EXPECT_GT(weighed, 1.2 * counted);  // 0.795 against 0.649
  // From the 6-port switch, every host of the 24-port one by its cable's rate.
  const NodeId small = *f.find_by_guid(0x0008f10400410015ull);
  const NodeId big = *f.find_by_guid(0x005442ba00003080ull);
  for (const PortRef h : hosts) {
    const Port& cable = f.port(h);
    if (cable.remote.node != big) continue;
    const PortNum out = r.lfts.get(small, cable.lid);
    const double gbps = f.port(PortRef{small, out}).rate.gbps();
    EXPECT_EQ(gbps, cable.rate.gbps()) << "LID " << cable.lid;
  }
}

TEST(Routing, LmcPathsSpread) {
  // 2-level fat tree: 4 leaves, 4 spines, LMC 2 on the hosts: the 4 LIDs of
  // a host reach it from another leaf over 4 different spines.
  Fabric f;
  std::vector<NodeId> leaf, spine;
  for (int i = 0; i < 4; ++i)
    leaf.push_back(f.add_node(NodeType::switch_node, "l" + std::to_string(i), 8));
  for (int i = 0; i < 4; ++i)
    spine.push_back(f.add_node(NodeType::switch_node, "s" + std::to_string(i), 4));
  for (int l = 0; l < 4; ++l)
    for (int s = 0; s < 4; ++s)
      f.connect(PortRef{leaf[l], static_cast<PortNum>(5 + s)},
                PortRef{spine[s], static_cast<PortNum>(1 + l)});
  std::vector<NodeId> hosts;
  for (int l = 0; l < 4; ++l)
    for (int h = 0; h < 4; ++h) {
      hosts.push_back(f.add_node(NodeType::ca, "h" + std::to_string(l) + std::to_string(h), 1));
      f.connect(PortRef{hosts.back(), 1}, PortRef{leaf[l], static_cast<PortNum>(1 + h)});
    }
  testing::assign_guids(f);
  testing::assign_lids(f, 2);
  const RoutingResult r = route_psssp(f, {});
  expect_complete(f, r, true);
  for (const NodeId h : hosts) {
    const Port& p = f.node(h).ports[1];
    for (const NodeId other : leaf) {
      if (other == p.remote.node) continue;
      std::set<PortNum> ports;
      for (unsigned k = 0; k < 4; ++k) ports.insert(r.lfts.get(other, static_cast<Lid>(p.lid + k)));
      EXPECT_EQ(ports.size(), 4u) << f.node(h).name << " from " << f.node(other).name;
    }
  }
}

TEST(Routing, DisconnectedFabricRoutedPerComponent) {
  Fabric f;
  // Component 1: a - b, component 2: c - d - e (a line), hosts everywhere.
  std::vector<NodeId> sw;
  for (const char* n : {"a", "b", "c", "d", "e"})
    sw.push_back(f.add_node(NodeType::switch_node, n, 4));
  f.connect(PortRef{sw[0], 1}, PortRef{sw[1], 1});
  f.connect(PortRef{sw[2], 1}, PortRef{sw[3], 1});
  f.connect(PortRef{sw[3], 2}, PortRef{sw[4], 1});
  for (std::size_t i = 0; i < sw.size(); ++i) {
    const NodeId h = f.add_node(NodeType::ca, "h" + std::to_string(i), 1);
    f.connect(PortRef{h, 1}, PortRef{sw[i], 3});
  }
  testing::assign_guids(f);
  testing::assign_lids(f);
  const RoutingResult r = route_psssp(f, {});
  const auto component = [](NodeId s) { return s < 2 ? 0 : 1; };
  for (unsigned l = 1; l <= f.max_lid(); ++l) {
    const Lid lid = static_cast<Lid>(l);
    const NodeId target = lid_switch(f, lid);
    for (const NodeId s : sw) {
      if (component(s) == component(target))
        EXPECT_EQ(trace_route(f, r.lfts, PortRef{s, 0}, lid), TraceStatus::delivered);
      else
        EXPECT_EQ(r.lfts.get(s, lid), kNoPath);
    }
  }
  // 10 LIDs (5 switches, 5 hosts), each unreachable from the other component.
  EXPECT_EQ(r.unreachable.size(), 10u);
  EXPECT_NE(r.unreachable[0].find("no route from"), std::string::npos);
  // Loads stay inside components: a host of "a" reaches 1 other host.
  EXPECT_EQ(r.channel_load[f.channel(PortRef{5, 1})], 1.0);
}

TEST(Routing, DownLinksAvoided) {
  auto t = testing::make_kary_ntree(4, 3);
  Fabric& f = t.fabric;
  // Take down one leaf up-link and one spine link (both ends).
  for (const PortRef end : {PortRef{t.level[0][0], 5}, PortRef{t.level[1][3], 6}}) {
    const PortRef other = f.port(end).remote;
    f.port(end).healthy = false;
    f.port(other).healthy = false;
  }
  f.index();
  for (const bool minimal : {true, false}) {
    RoutingOptions o;
    o.minimal = minimal;
    const RoutingResult r = route_psssp(f, o);
    expect_complete(f, r, minimal);
    for (const NodeId sw : f.switches())
      for (unsigned l = 1; l <= f.max_lid(); ++l) {
        const PortNum p = r.lfts.get(sw, static_cast<Lid>(l));
        if (p != 0 && p != kNoPath) {
          EXPECT_TRUE(f.port(PortRef{sw, p}).usable());
        }
      }
  }
}

TEST(Routing, NonMinimalStretchBounded) {
  for (const unsigned extra : {0u, 1u, 3u}) {
    const Fabric f = testing::make_torus({5, 4}, 2);
    RoutingOptions o;
    o.minimal = false;
    o.max_extra_hops = extra;
    const RoutingResult r = route_psssp(f, o);
    expect_complete(f, r, false);
    for (unsigned l = 1; l <= f.max_lid(); ++l) {
      const Lid lid = static_cast<Lid>(l);
      const auto dist = hop_distances(f, lid_switch(f, lid));
      for (const NodeId sw : f.switches()) {
        std::vector<ChannelId> path;
        ASSERT_EQ(trace_route(f, r.lfts, PortRef{sw, 0}, lid, &path), TraceStatus::delivered);
        const unsigned hops = static_cast<unsigned>(path.size()) -
                              (f.node(f.port_of_lid(lid).node).is_switch() ? 0 : 1);
        EXPECT_LE(hops, dist[sw] + extra);
      }
    }
    const auto traced = traced_loads(f, r.lfts, f.host_ports(), f.host_ports());
    for (ChannelId c = 0; c < traced.size(); ++c) EXPECT_DOUBLE_EQ(r.channel_load[c], traced[c]);
  }
}

TEST(Routing, DualPortHostsOnDifferentSwitches) {
  Fabric f = testing::make_torus({3, 3}, 1, 1);
  const NodeId dual = f.add_node(NodeType::ca, "dual", 2);
  f.connect(PortRef{dual, 1}, PortRef{f.switches()[0], 6});
  f.connect(PortRef{dual, 2}, PortRef{f.switches()[4], 6});
  // A switch without hosts and a CA with an uncabled port.
  const NodeId lonely = f.add_node(NodeType::switch_node, "nohosts", 2);
  f.connect(PortRef{lonely, 1}, PortRef{f.switches()[8], 6});
  f.add_node(NodeType::ca, "uncabled", 1);
  testing::assign_guids(f);
  f.index();
  testing::assign_lids(f);
  f.node(static_cast<NodeId>(f.node_count() - 1)).ports[1].lid = static_cast<Lid>(f.max_lid() + 1);
  f.index();
  const RoutingResult r = route_psssp(f, {});
  ASSERT_EQ(r.unreachable.size(), 1u);
  EXPECT_NE(r.unreachable[0].find("not cabled"), std::string::npos);
  for (const NodeId sw : f.switches()) EXPECT_EQ(r.lfts.get(sw, f.max_lid()), kNoPath);
  for (const PortNum p : {PortNum{1}, PortNum{2}})
    for (const NodeId sw : f.switches())
      EXPECT_EQ(trace_route(f, r.lfts, PortRef{sw, 0}, f.node(dual).ports[p].lid),
                TraceStatus::delivered);
  const auto traced = traced_loads(f, r.lfts, f.host_ports(), f.host_ports());
  for (ChannelId c = 0; c < traced.size(); ++c) EXPECT_DOUBLE_EQ(r.channel_load[c], traced[c]);
}

TEST(Routing, GuidListOnlyCountsListedTraffic) {
  const Fabric f = testing::make_torus({4, 4}, 2);
  RoutingOptions o;
  std::vector<PortRef> listed;
  for (std::size_t i = 0; i < f.host_ports().size(); i += 3) {
    listed.push_back(f.host_ports()[i]);
    o.guid_list.push_back(f.port(listed.back()).guid);
  }
  o.guid_list_mode = RoutingOptions::GuidListMode::only;
  const RoutingResult r = route_psssp(f, o);
  expect_complete(f, r, true);
  const auto traced = traced_loads(f, r.lfts, listed, listed);
  for (ChannelId c = 0; c < traced.size(); ++c) EXPECT_DOUBLE_EQ(r.channel_load[c], traced[c]);

  o.guid_list_mode = RoutingOptions::GuidListMode::priority;
  const RoutingResult p = route_psssp(f, o);
  expect_complete(f, p, true);
  const auto all = traced_loads(f, p.lfts, f.host_ports(), f.host_ports());
  for (ChannelId c = 0; c < all.size(); ++c) EXPECT_DOUBLE_EQ(p.channel_load[c], all[c]);
}

TEST(Routing, SwitchLidsLoad) {
  const Fabric f = testing::make_torus({3, 3}, 2);
  RoutingOptions o;
  const double without = route_psssp(f, o).channel_load[f.channel(f.host_ports()[0])];
  o.switch_lids_load = true;
  const double with = route_psssp(f, o).channel_load[f.channel(f.host_ports()[0])];
  EXPECT_EQ(with, without + 9.0);  // one route to each of the 9 switch LIDs
}

TEST(Routing, NoSwitchesIsAnError) {
  Fabric f;
  f.add_node(NodeType::ca, "h", 1);
  f.index();
  EXPECT_THROW(route_psssp(f, {}), FabricError);
}

}  // namespace
}  // namespace psssp
