// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// route_psssp: the router for the chosen destination order, or with the
// automatic order both orders and the tables with the better eBB estimate.
#include "psssp_routing.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <vector>

#include "ebb_estimate.h"
#include "pattern_estimate.h"
#include "router.h"

namespace psssp {

using routing::Router;

namespace {
constexpr std::size_t kFastEstimateFlows = 100000;

// judge_patterns: candidate i is behind candidate j when j is ahead on the
// bisections by more than the margin or on a structured pattern by more than
// kPatternTolerance. The bisections' choice stays unless it is behind some
// candidate; else the best on the bisections of those behind none; else (each
// is behind some other) the one whose largest shortfall is smallest. -1
// estimates (a layout that did not apply) are never chosen.
std::size_t choose_on_patterns(const std::vector<double>& bisect,
                               const std::vector<std::vector<double>>& judged, double margin,
                               std::size_t bisect_choice) {
  const std::size_t n = bisect.size();
  const auto valid = [&](std::size_t i) { return bisect[i] >= 0.0; };
  // The largest relative shortfall of i against any candidate, each pattern
  // less its noise (0: behind none).
  const auto shortfall = [&](std::size_t i) {
    double worst = 0.0;
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i || !valid(j)) continue;
      if (bisect[j] > bisect[i] * margin)
        worst = std::max(worst, (bisect[j] - bisect[i] * margin) / bisect[j]);
      for (std::size_t p = 0; p < judged[j].size() && p < judged[i].size(); ++p) {
        const double ahead = judged[j][p] - judged[i][p] * (1.0 + kPatternTolerance);
        if (ahead > 0.0) worst = std::max(worst, ahead / judged[j][p]);
      }
    }
    return worst;
  };
  if (shortfall(bisect_choice) == 0.0) return bisect_choice;
  std::size_t best = n;
  for (std::size_t i = 0; i < n; ++i)
    if (valid(i) && shortfall(i) == 0.0 && (best == n || bisect[i] > bisect[best])) best = i;
  if (best != n) return best;
  double least = 2.0;
  for (std::size_t i = 0; i < n; ++i)
    if (valid(i) && shortfall(i) < least) {
      least = shortfall(i);
      best = i;
    }
  return best;
}
}  // namespace

RoutingResult route_psssp(const Fabric& fabric, const RoutingOptions& options) {
  if (fabric.switches().empty()) throw FabricError("the fabric has no switches to route");
  if (!options.minimal && !(options.hop_weight > 0.0))
    throw FabricError("non-minimal routing needs a positive hop weight");
  const auto start = std::chrono::steady_clock::now();
  using Order = RoutingOptions::Order;
  RoutingOptions first = options;
  if (first.order == Order::automatic) first.order = Order::switches;
  Router router(fabric, first);
  RoutingResult result;
  // Neither order wins everywhere (psssp-route.md, "Destination order"):
  // with full effort both are routed, and interleaved once more with equal
  // costs going to the lowest port, which keeps a consistent port order
  // (dimension order where the cables are numbered by dimension: 3-D HyperX
  // and meshes, "Port-order ties"), and switch by switch with loose ties to
  // the lowest port, which packs the routes that cross a thin bundle onto
  // a few links and leaves the others to the rest ("Loose ties"). With fast
  // effort on a direct network (hosts on every switch: tori, meshes, HyperX,
  // hypercubes, dragonflies) the port-order candidate is routed beside the
  // default: there it is worth up to 11% of eBB and needs far fewer virtual
  // layers ("Fast effort on direct networks"); fat trees and directors
  // (switches without hosts) keep the one routing. On three-level trees
  // (either effort) the default's tables laid out as on a fat tree
  // (tree_layout.h) are two more candidates ("Tree layout"), on two-level
  // trees (full effort) one. The best estimate is kept, the earlier
  // candidate on equal ones; with judge_patterns the structured patterns
  // judge too, and no candidate is kept that another is ahead of on one of
  // them where some candidate is behind none ("Judged on the patterns jobs
  // run"). The routed candidates (routing and estimates each) are tasks for
  // the threads.
  using Tie = RoutingOptions::TieBreak;
  enum Kind { kSwitches, kInterleaved, kPortOrder, kLooseTies, kTreeLayout, kTreeRoundRobin };
  const auto estimate_of = [](RoutingResult& r, Kind k) -> double& {
    switch (k) {
      case kSwitches:
        return r.estimate_switches;
      case kInterleaved:
        return r.estimate_interleaved;
      case kPortOrder:
        return r.estimate_port_order;
      case kLooseTies:
        return r.estimate_loose_ties;
      case kTreeLayout:
        return r.estimate_tree_layout;
      default:
        return r.estimate_tree_layout_round_robin;
    }
  };
  std::vector<Kind> kinds;
  unsigned estimate_runs = options.estimate_runs;
  bool full = false;
  bool layouts = false;  // the tree layouts are candidates too
  if (options.order == Order::automatic) {
    const bool port_order = options.tie_break == Tie::path;
    full = router.prepare();
    if (!full) {
      // A run's cost grows with the hosts and its spread shrinks with them:
      // fast effort (large fabrics) compares on about 100,000 flows.
      const std::size_t hosts = std::max<std::size_t>(1, router.load_sources().size());
      estimate_runs = static_cast<unsigned>(
          std::clamp<std::size_t>(kFastEstimateFlows / hosts, 50, estimate_runs));
    }
    if (full)
      kinds = port_order ? std::vector<Kind>{kSwitches, kInterleaved, kPortOrder, kLooseTies}
                         : std::vector<Kind>{kSwitches, kInterleaved};
    else if (port_order && router.hosts_on_every_switch())
      kinds = {kSwitches, kPortOrder};
    // Two-level trees: with full effort only (with fast effort plain P-SSSP
    // already sends a leaf's partners over distinct spines on the trees
    // measured, and a candidate would cost more than the routing).
    layouts =
        first.minimal && first.tree_layouts && router.tree_shaped(options.judge_patterns && full);
    if (layouts && kinds.empty()) kinds = {kSwitches};
  }
  if (kinds.size() > 1 || layouts) {
    const unsigned threads = parallel::effective_threads(options.threads);
    std::vector<RoutingOptions> other(kinds.size(), first);
    for (std::size_t i = 1; i < kinds.size(); ++i) {
      if (kinds[i] == kInterleaved || kinds[i] == kPortOrder) other[i].order = Order::interleaved;
      if (kinds[i] == kPortOrder || kinds[i] == kLooseTies) other[i].tie_break = Tie::first;
      if (kinds[i] == kLooseTies) other[i].tie_slack = kLooseTieSlack;
      if (threads > 1) other[i].threads = 1;  // it already runs beside the first
    }
    const std::vector<PortRef>& hosts = router.load_sources();
    const bool by_capacity = router.weighs_capacity();
    const BisectionDraws draws(hosts.size(), estimate_runs, options.estimate_seed);
    // The structured patterns: full effort judges kShiftPhases shift phases
    // and every doubling phase; fast effort (large fabrics) the shortest
    // shifts and doublings, about as many flows as its bisections.
    const std::size_t fast_phases = std::clamp<std::size_t>(
        kFastEstimateFlows / 4 / std::max<std::size_t>(1, hosts.size()), 4, kShiftPhases);
    const StructuredPatterns patterns =
        options.judge_patterns
            ? structured_patterns(fabric, hosts, full ? kShiftPhases : fast_phases,
                                  full ? kShiftPhases : fast_phases)
            : StructuredPatterns{};
    std::vector<RoutingResult> routed(kinds.size());
    std::vector<double> estimate(kinds.size(), -1.0);
    std::vector<std::vector<double>> judged(kinds.size());
    parallel::parallel_for(kinds.size(), threads, [&](std::size_t i, unsigned) {
      routed[i] = i == 0 ? router.run() : Router(fabric, other[i]).run();
      routed[i].order = other[i].order;
      routed[i].tie_break = other[i].tie_break;
      routed[i].tie_slack = other[i].tie_slack;
      estimate[i] = estimate_ebb(fabric, routed[i].lfts, hosts, draws, false, by_capacity);
      judged[i] = estimate_patterns(fabric, routed[i].lfts, hosts, patterns, by_capacity);
    });
    // The default is left only for a clear gain. With full effort: below
    // 0.2% routings that are the same up to renaming hosts (two-level trees)
    // differ on the estimate's 1000 bisections by noise alone. Fast effort
    // compares on fewer runs, and on dragonflies (+0.06%) port order would
    // only make the virtual layers costlier.
    const double margin = 1.0 + (full ? kFullSwitchMargin : kFastSwitchMargin);
    std::size_t best = 0;
    for (std::size_t i = 1; i < kinds.size(); ++i)
      if (estimate[i] > estimate[best] * (best == 0 ? margin : 1.0)) best = i;
    // Three-level trees: the default's tables laid out as on a fat tree,
    // LIDs leaf by leaf (full effort only: it was ahead on one tree of 13,
    // round robin on four), then round robin (no routing of their own: the
    // layout decides every route that carries load). One at a time; the
    // best one's tables are kept, and its channel loads traced only if it
    // stays (the traces are most of a layout's time).
    std::optional<RoutingResult> laid_best;
    routing::TreeLayoutOrder laid_best_order = routing::TreeLayoutOrder::round_robin;
    std::vector<routing::TreeLayoutOrder> layout_orders;
    // Two levels: both orders give the same tables (no turns between them).
    const bool two_levels = layouts && router.two_level_tree();
    if (layouts && (full || two_levels))
      layout_orders.push_back(routing::TreeLayoutOrder::leaf_by_leaf);
    if (layouts && !two_levels) layout_orders.push_back(routing::TreeLayoutOrder::round_robin);
    const std::size_t first_layout = kinds.size();
    // The default's tables are rebuilt from the router if it stays the best:
    // meanwhile a layout's own take their place in memory (a 32-ary 3-tree's
    // are 110 MB).
    if (layouts) routed[0].lfts = ForwardingTables();
    for (const routing::TreeLayoutOrder order : layout_orders) {
      kinds.push_back(order == routing::TreeLayoutOrder::leaf_by_leaf ? kTreeLayout
                                                                      : kTreeRoundRobin);
      RoutingResult laid = router.laid_out(routed[0], order, threads);
      const bool off = laid.tree_layout == RoutingResult::TreeLayout::off;
      estimate.push_back(off ? -1.0
                             : estimate_ebb(fabric, laid.lfts, hosts, draws, false, by_capacity));
      judged.push_back(off ? std::vector<double>()
                           : estimate_patterns(fabric, laid.lfts, hosts, patterns, by_capacity));
      if (estimate.back() <= estimate[best] * (best == 0 ? margin : 1.0)) continue;
      best = estimate.size() - 1;
      laid_best = std::move(laid);
      laid_best_order = order;
    }
    if (options.judge_patterns) {
      const std::size_t chosen = choose_on_patterns(estimate, judged, margin, best);
      result.passed_over_bisect_choice = chosen != best;
      if (chosen != best && chosen >= first_layout) {
        laid_best_order = layout_orders[chosen - first_layout];
        laid_best = router.laid_out(routed[0], laid_best_order, threads);
      } else if (chosen != best) {
        laid_best.reset();
      }
      best = chosen;
      for (std::size_t p = 0; p < patterns.patterns.size(); ++p)
        result.pattern_estimates.emplace_back(patterns.patterns[p].name, judged[best][p]);
    }
    if (laid_best) {
      laid_best->channel_load = router.laid_out_loads(routed[0], laid_best_order);
      routed[0] = std::move(*laid_best);  // in the default's place
      best = 0;
    } else if (layouts && best == 0) {
      routed[0].lfts = router.tables();
    }
    const bool passed_over = result.passed_over_bisect_choice;
    auto pattern_estimates = std::move(result.pattern_estimates);
    result = std::move(routed[best]);
    result.passed_over_bisect_choice = passed_over;
    result.pattern_estimates = std::move(pattern_estimates);
    for (std::size_t i = 0; i < kinds.size(); ++i) estimate_of(result, kinds[i]) = estimate[i];
  } else {
    result = router.run();
    result.order = first.order;
    result.tie_break = first.tie_break;
    result.tie_slack = first.tie_slack;
  }
  result.capacity_weights = router.weighs_capacity();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace psssp
