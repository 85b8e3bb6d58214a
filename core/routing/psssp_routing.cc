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
#include "pattern_refinement.h"
#include "router.h"

namespace psssp {

using routing::Router;
using routing::TreeLayoutOrder;
using routing::TreeLevels;

namespace {
constexpr std::size_t kFastEstimateFlows = 100000;
using Order = RoutingOptions::Order;
using Tie = RoutingOptions::TieBreak;

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

namespace {

// Which candidates Order::automatic routes, and how they are judged.
struct Plan {
  std::vector<Candidate> routed;  // the default first; each a routing of its own
  bool layouts = false;           // the tree layouts of the default are candidates too
  bool refine_patterns = false;   // the kept routing's pattern refinement is one too
  bool full = false;              // full effort
  unsigned estimate_runs = 0;
};

// Neither order wins everywhere (psssp-route.md, "Destination order"): with
// full effort both are routed, and interleaved once more with equal costs
// going to the lowest port, which keeps a consistent port order (dimension
// order where the cables are numbered by dimension: "Port-order ties"), and
// switch by switch with loose ties to the lowest port, which packs the
// routes that cross a thin bundle onto a few links and leaves the others to
// the rest ("Loose ties"). With fast effort on a direct network (hosts on
// every switch) the port-order candidate is routed beside the default ("Fast
// effort on direct networks"); fat trees and directors keep the one routing.
// On three-level trees (either effort) the default's tables laid out as on a
// fat tree are two more candidates ("Tree layout"), on two-level trees one
// (judged on the patterns).
Plan plan_candidates(Router& router, const RoutingOptions& options, const RoutingOptions& first) {
  Plan plan;
  plan.estimate_runs = options.estimate_runs;
  if (options.order != Order::automatic) return plan;
  const bool port_order = options.tie_break == Tie::path;
  plan.full = router.prepare();
  if (!plan.full) {
    // A run's cost grows with the hosts and its spread shrinks with them:
    // fast effort (large fabrics) compares on a fixed number of flows.
    const std::size_t hosts = std::max<std::size_t>(1, router.load_sources().size());
    plan.estimate_runs = static_cast<unsigned>(
        std::clamp<std::size_t>(kFastEstimateFlows / hosts, 50, plan.estimate_runs));
  }
  using C = Candidate;
  if (plan.full)
    plan.routed = port_order
                      ? std::vector<C>{C::switches, C::interleaved, C::port_order, C::loose_ties}
                      : std::vector<C>{C::switches, C::interleaved};
  else if (port_order && router.hosts_on_every_switch())
    plan.routed = {C::switches, C::port_order};
  // Full effort judged on the patterns: two rank-neighbours candidates, a
  // narrow and a wide window ("Rank neighbours"; with LMC a port's LIDs
  // already keep apart by their own penalties; three-level trees have the
  // tree layouts, which order a leaf's partners exactly).
  const TreeLevels levels = router.tree_levels();
  if (plan.full && options.judge_patterns && first.rank_neighbours && first.minimal &&
      router.single_lids() && levels != TreeLevels::three) {
    plan.routed.push_back(C::neighbours);
    plan.routed.push_back(C::neighbours_wide);
  }
  // The same fabrics: the kept routing with its entries moved to spread the
  // judged patterns' flows ("Pattern refinement").
  plan.refine_patterns = plan.full && options.judge_patterns && first.refine_patterns &&
                         first.minimal && router.single_lids() && levels != TreeLevels::three;
  // Two-level trees (a Dragonfly+'s groups too): judged on the patterns,
  // with either effort.
  const bool two_levels = levels == TreeLevels::two && options.judge_patterns;
  plan.layouts = first.minimal && first.tree_layouts && (levels == TreeLevels::three || two_levels);
  if (plan.layouts && plan.routed.empty()) plan.routed = {C::switches};
  return plan;
}

// The options of a routed candidate.
RoutingOptions candidate_options(Candidate c, const RoutingOptions& first, unsigned threads) {
  RoutingOptions o = first;
  if (c == Candidate::switches) return o;
  if (c == Candidate::interleaved || c == Candidate::port_order) o.order = Order::interleaved;
  if (c == Candidate::port_order || c == Candidate::loose_ties) o.tie_break = Tie::first;
  if (c == Candidate::loose_ties) o.tie_slack = kLooseTieSlack;
  if (c == Candidate::neighbours) o.neighbour_window = kNeighbourWindow;
  if (c == Candidate::neighbours_wide) o.neighbour_window = kWideNeighbourWindow;
  if (threads > 1) o.threads = 1;  // it already runs beside the first
  return o;
}

// What every candidate is judged on, with the same draws and phases for all.
struct Judge {
  const Fabric& fabric;
  const std::vector<PortRef>& hosts;
  bool by_capacity;
  BisectionDraws draws;
  StructuredPatterns patterns;
  double margin;  // the default is left only for a candidate this much ahead
};

struct Scored {
  Candidate candidate;
  double bisect = -1.0;        // -1: a layout that did not apply
  std::vector<double> judged;  // on judge.patterns
};

Scored score(const Judge& judge, Candidate c, const ForwardingTables& lfts) {
  return {c, estimate_ebb(judge.fabric, lfts, judge.hosts, judge.draws, false, judge.by_capacity),
          estimate_patterns(judge.fabric, lfts, judge.hosts, judge.patterns, judge.by_capacity)};
}

// The default is left only for a clear gain: routings that are the same up
// to renaming hosts differ on the estimate by noise alone below the margin.
std::size_t best_on_bisections(const std::vector<double>& bisect, double margin) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < bisect.size(); ++i)
    if (bisect[i] > bisect[best] * (best == 0 ? margin : 1.0)) best = i;
  return best;
}

RoutingResult route_one(Router& router, const RoutingOptions& first) {
  RoutingResult result = router.run();
  result.order = first.order;
  result.tie_break = first.tie_break;
  result.tie_slack = first.tie_slack;
  result.neighbour_window = first.neighbour_window;
  return result;
}

class Choice {
 public:
  Choice(const Fabric& fabric, const RoutingOptions& options, const RoutingOptions& first,
         Router& router, Plan plan)
      : fabric_(fabric),
        options_(options),
        first_(first),
        router_(router),
        plan_(std::move(plan)),
        threads_(parallel::effective_threads(options.threads)),
        judge_{fabric,
               router.load_sources(),
               router.weighs_capacity(),
               BisectionDraws(router.load_sources().size(), plan_.estimate_runs,
                              options.estimate_seed),
               patterns(),
               1.0 + (plan_.full ? kFullSwitchMargin : kFastSwitchMargin)} {}

  RoutingResult run() {
    route_candidates();
    std::size_t best = best_on_bisections(raw_bisect(), judge_.margin);
    try_layouts(best);
    RoutingResult result;
    if (options_.judge_patterns) {
      std::size_t chosen = choose_on_patterns(bisect_estimates(), judged(), judge_.margin, best);
      if (try_pattern_refinement(chosen))
        chosen = choose_on_patterns(bisect_estimates(), judged(), judge_.margin, best);
      result.passed_over_bisect_choice = chosen != best;
      if (chosen == refined_at_) {
        laid_best_.reset();
      } else if (chosen != best && chosen >= first_layout_) {
        laid_best_.emplace();
        laid_best_->result = router_.laid_out(routed_[0], layout_orders_[chosen - first_layout_],
                                              threads_, &laid_best_->columns);
      } else if (chosen != best) {
        laid_best_.reset();
      }
      best = chosen;
      for (std::size_t p = 0; p < judge_.patterns.patterns.size(); ++p)
        result.pattern_estimates.emplace_back(judge_.patterns.patterns[p].name,
                                              scored_[best].judged[p]);
    }
    if (laid_best_) {
      laid_best_->result.channel_load =
          router_.laid_out_loads(routed_[0], laid_best_->columns, threads_);
      routed_[0] = std::move(laid_best_->result);  // in the default's place
      laid_best_.reset();
      best = 0;
    } else if (plan_.layouts && best == 0) {
      routed_[0].lfts = router_.tables();
    }
    return keep(std::move(result), best);
  }

 private:
  // The structured patterns: full effort judges kShiftPhases shift phases
  // and every doubling phase; fast effort (large fabrics) the shortest
  // shifts and doublings, about as many flows as its bisections.
  StructuredPatterns patterns() const {
    if (!options_.judge_patterns) return StructuredPatterns{};
    const std::size_t hosts = router_.load_sources().size();
    const std::size_t phases =
        plan_.full ? kShiftPhases
                   : std::clamp<std::size_t>(
                         kFastEstimateFlows / 4 / std::max<std::size_t>(1, hosts), 4, kShiftPhases);
    return structured_patterns(fabric_, router_.load_sources(), phases, phases);
  }

  // The routed candidates (routing and estimates each) are tasks for the threads.
  void route_candidates() {
    const std::size_t n = plan_.routed.size();
    std::vector<RoutingOptions> options(n);
    for (std::size_t i = 0; i < n; ++i)
      options[i] = candidate_options(plan_.routed[i], first_, threads_);
    routed_.resize(n);
    scored_.resize(n);
    parallel::parallel_for(n, threads_, [&](std::size_t i, unsigned) {
      routed_[i] = i == 0 ? router_.run() : Router(fabric_, options[i]).run();
      routed_[i].order = options[i].order;
      routed_[i].tie_break = options[i].tie_break;
      routed_[i].tie_slack = options[i].tie_slack;
      routed_[i].neighbour_window = options[i].neighbour_window;
      scored_[i] = score(judge_, plan_.routed[i], routed_[i].lfts);
    });
  }

  // Tree layouts: the default's tables laid out as on a fat tree, LIDs leaf
  // by leaf (three levels: full effort only), then round robin (no routing
  // of their own: the layout decides every route that carries load). One at
  // a time; the best one's tables are kept, and its channel loads traced
  // only if it stays (the traces are most of a layout's time).
  void try_layouts(std::size_t& best) {
    first_layout_ = scored_.size();
    if (!plan_.layouts) return;
    // Two levels: both orders give the same tables (no turns between them).
    const bool two_levels = router_.tree_levels() == TreeLevels::two;
    if (plan_.full || two_levels) layout_orders_.push_back(TreeLayoutOrder::leaf_by_leaf);
    if (!two_levels) layout_orders_.push_back(TreeLayoutOrder::round_robin);
    // The default's tables are rebuilt from the router if it stays the best:
    // meanwhile a layout's own take their place in memory.
    routed_[0].lfts = ForwardingTables();
    for (const TreeLayoutOrder order : layout_orders_) {
      const Candidate c = order == TreeLayoutOrder::leaf_by_leaf
                              ? Candidate::tree_layout
                              : Candidate::tree_layout_round_robin;
      KeptLayout laid;
      laid.result = router_.laid_out(routed_[0], order, threads_, &laid.columns);
      if (laid.result.tree_layout == RoutingResult::TreeLayout::off)
        scored_.push_back({c, -1.0, {}});
      else
        scored_.push_back(score(judge_, c, laid.result.lfts));
      // Kept when ahead (of the default: beyond the margin); with fast effort
      // on a two-level tree unless behind beyond it: the layout is d-mod-k's
      // order, whose lead on the patterns not judged the few flows miss.
      const double laid_bisect = scored_.back().bisect, kept = scored_[best].bisect;
      const bool take = two_levels && !plan_.full
                            ? laid_bisect * judge_.margin >= kept
                            : laid_bisect > kept * (best == 0 ? judge_.margin : 1.0);
      if (!take) continue;
      best = scored_.size() - 1;
      laid_best_ = std::move(laid);
    }
  }

  // The kept routed candidate's tables refined for the patterns, balance
  // priced from dear to cheap and each price pass by pass, while the tables
  // keep the bar below: the last such tables are a candidate (scored last).
  // False if none are. Cheaper prices and more passes move more entries and
  // give up more balance, so the first tables below the bar end the search.
  bool try_pattern_refinement(std::size_t kept) {
    if (!plan_.refine_patterns || kept >= first_layout_) return false;
    const double bar = plain_bar();
    const ForwardingTables from =
        kept == 0 && plan_.layouts ? router_.tables() : routed_[kept].lfts;
    std::optional<Scored> scored;
    ForwardingTables best;
    std::vector<double> best_delta;
    std::size_t best_moves = 0;
    for (const double weight : kPatternBalanceWeights) {
      routing::PatternRefiner refiner = router_.pattern_refiner(from, judge_.patterns, weight);
      if (!refiner.applies()) break;
      std::size_t moves = 0;
      bool below = false;
      for (std::size_t pass = 0; pass < kPatternRefinementPasses; ++pass) {
        const std::size_t moved = refiner.pass();
        if (moved == 0) break;
        moves += moved;
        Scored s = score(judge_, Candidate::pattern_refined, refiner.tables());
        if ((below = s.bisect < bar)) break;
        scored = std::move(s);
        best = refiner.tables();
        best_delta = refiner.route_delta();
        best_moves = moves;
      }
      if (below) break;
    }
    if (!scored) return false;
    refined_ = routed_[kept];
    refined_->lfts = std::move(best);
    for (std::size_t c = 0; c < best_delta.size(); ++c) refined_->channel_load[c] += best_delta[c];
    refined_->pattern_moves = best_moves;
    refined_at_ = scored_.size();
    scored_.push_back(std::move(*scored));
    return true;
  }

  // An ordering candidate (rank neighbours, pattern refinement) orders the
  // routes without giving up balance: it competes only where it is not
  // behind, on the bisections (beyond the margin), the candidate the others
  // alone would give.
  static bool ordering(Candidate c) {
    return c == Candidate::neighbours || c == Candidate::neighbours_wide ||
           c == Candidate::pattern_refined;
  }
  double plain_bar() const {
    std::vector<double> plain;
    for (const Scored& s : scored_) plain.push_back(ordering(s.candidate) ? -1.0 : s.bisect);
    const std::size_t plain_choice = choose_on_patterns(plain, judged(), judge_.margin,
                                                        best_on_bisections(plain, judge_.margin));
    return plain[plain_choice] / judge_.margin;
  }
  std::vector<double> bisect_estimates() const {
    const double bar = plain_bar();
    std::vector<double> out;
    for (const Scored& s : scored_)
      out.push_back(ordering(s.candidate) && s.bisect < bar ? -1.0 : s.bisect);
    return out;
  }

  std::vector<double> raw_bisect() const {
    std::vector<double> out;
    for (const Scored& s : scored_) out.push_back(s.bisect);
    return out;
  }
  std::vector<std::vector<double>> judged() const {
    std::vector<std::vector<double>> out;
    for (const Scored& s : scored_) out.push_back(s.judged);
    return out;
  }

  // The kept candidate's result with the comparison's record.
  RoutingResult keep(RoutingResult record, std::size_t best) {
    RoutingResult result = best == refined_at_ ? std::move(*refined_) : std::move(routed_[best]);
    result.passed_over_bisect_choice = record.passed_over_bisect_choice;
    result.pattern_estimates = std::move(record.pattern_estimates);
    for (const Scored& s : scored_)
      if (s.bisect >= 0.0) result.estimates.push_back({s.candidate, s.bisect, s.judged});
    return result;
  }

  const Fabric& fabric_;
  const RoutingOptions& options_;
  const RoutingOptions& first_;
  Router& router_;
  Plan plan_;
  unsigned threads_;
  Judge judge_;
  std::vector<RoutingResult> routed_;
  std::vector<Scored> scored_;  // the routed candidates, then the layouts
  std::vector<TreeLayoutOrder> layout_orders_;
  std::size_t first_layout_ = 0;
  // The best layout so far: its routing and its columns (for its loads).
  struct KeptLayout {
    RoutingResult result;
    std::vector<PortNum> columns;
  };
  std::optional<KeptLayout> laid_best_;
  std::optional<RoutingResult> refined_;  // the pattern refinement's, if scored
  std::size_t refined_at_ = ~std::size_t{0};
};

}  // namespace

const char* candidate_key(Candidate c) {
  switch (c) {
    case Candidate::switches:
      return "switches";
    case Candidate::interleaved:
      return "interleaved";
    case Candidate::port_order:
      return "port_order";
    case Candidate::loose_ties:
      return "loose_ties";
    case Candidate::tree_layout:
      return "tree_layout";
    case Candidate::tree_layout_round_robin:
      return "tree_layout_round_robin";
    case Candidate::neighbours:
      return "neighbours";
    case Candidate::neighbours_wide:
      return "neighbours_wide";
    default:
      return "pattern_refined";
  }
}

const char* candidate_text(Candidate c) {
  switch (c) {
    case Candidate::port_order:
      return "interleaved with port-order ties";
    case Candidate::loose_ties:
      return "switches with loose port-order ties";
    case Candidate::tree_layout:
      return "tree layout";
    case Candidate::tree_layout_round_robin:
      return "tree layout round robin";
    case Candidate::neighbours:
      return "rank neighbours";
    case Candidate::neighbours_wide:
      return "rank neighbours, wide";
    case Candidate::pattern_refined:
      return "pattern-refined";
    default:
      return candidate_key(c);
  }
}

double RoutingResult::estimate(Candidate candidate) const {
  for (const CandidateEstimate& e : estimates)
    if (e.candidate == candidate) return e.bisect;
  return -1.0;
}

// The best estimate is kept, the earlier candidate on equal ones; with
// judge_patterns the structured patterns judge too, and no candidate is kept
// that another is ahead of on one of them where some candidate is behind
// none ("Judged on the patterns jobs run").
RoutingResult route_psssp(const Fabric& fabric, const RoutingOptions& options) {
  if (fabric.switches().empty()) throw FabricError("the fabric has no switches to route");
  if (!options.minimal && !(options.hop_weight > 0.0))
    throw FabricError("non-minimal routing needs a positive hop weight");
  const auto start = std::chrono::steady_clock::now();
  RoutingOptions first = options;
  if (first.order == Order::automatic) first.order = Order::switches;
  Router router(fabric, first);
  Plan plan = plan_candidates(router, options, first);
  RoutingResult result = plan.routed.size() > 1 || plan.layouts
                             ? Choice(fabric, options, first, router, std::move(plan)).run()
                             : route_one(router, first);
  result.capacity_weights = router.weighs_capacity();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace psssp
