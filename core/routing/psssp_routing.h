// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// P-SSSP: one shortest-path search per destination LID over the switch graph,
// edge weight = load already placed on the link; the search tree, written in
// reverse, becomes every switch's LFT entry for that LID; then the tree's
// links take on the load of the sources routed through them.
// The algorithm and its choices are described in psssp-route.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"

namespace psssp {

struct RoutingOptions {
  // Minimal-hop mode balances only among shortest paths (as OpenSM's sssp).
  // Otherwise paths may be up to max_extra_hops longer than the shortest.
  bool minimal = true;
  unsigned max_extra_hops = 2;
  // Non-minimal mode: cost of one hop, in routes (keeps idle links from
  // attracting detours; 0 < hop_weight).
  double hop_weight = 1.0;
  // Weight = load / capacity (Gb/s) instead of the plain route count: on,
  // off, or automatic = on exactly when the switch cables mix rates (a 1x or
  // DDR cable among 4x QDR ones), where counting routes alone would load the
  // slow cable like the fast ones. On uniform fabrics all three are the same.
  enum class Capacity { automatic, on, off } capacity = Capacity::automatic;
  // Switch port-0 LIDs are always routed; with this they also add load.
  bool switch_lids_load = false;
  // Port GUIDs from a cn_guid_file-style list: routed first (priority) or the
  // only sources and destinations of load (only).
  std::vector<Guid> guid_list;
  enum class GuidListMode { priority, only } guid_list_mode = GuidListMode::priority;
  // Worker threads (0 = hardware concurrency): the BFS per switch, the LIDs
  // without load, the two orders of Order::automatic and the fast effort's
  // speculative refinement. The LFTs do not depend on it.
  unsigned threads = 0;

  // --- Tuning knobs; the defaults are the measured best (psssp-route.md). ---
  // Destination order: round-robin over destination switches (interleaved:
  // consecutive searches land in different subtrees), switch by switch
  // (switches: all ports of a switch in a row, as OpenSM's sssp), or LID order.
  // automatic: switches; with full effort both switches and interleaved, and
  // with the path tie-break also interleaved with ties to the lowest port
  // (TieBreak::first), and the tables with the highest estimated eBB
  // (ebb_estimate.h, estimate_runs random bisections of the load sources,
  // fixed seed; capacity-aware eBB with capacity weights) are kept, the
  // default's unless another is kFullSwitchMargin ahead. With fast effort on
  // a direct network (hosts on every switch) switches and that port-order
  // candidate, compared on fewer runs, the port order kept only
  // kFastSwitchMargin ahead.
  enum class Order { interleaved, switches, lid, automatic } order = Order::automatic;
  unsigned estimate_runs = 1000;
  std::uint64_t estimate_seed = 0x9E3779B97F4A7C15ull;
  // Among equal-cost next hops: the lowest port (first); the candidate
  // (key mod count) in port order, key = the destination's rank on its
  // switch, spreading destinations like ftree's d-mod-k (dmodk); or that
  // candidate in the order of their paths from the destination (path): all
  // switches then prefer the same branch, whatever their port numbering, so
  // the routes to one destination converge early.
  enum class TieBreak { first, dmodk, path } tie_break = TieBreak::path;
  // Next hops costing up to (1 + tie_slack) x the cheapest count as tied
  // (0: only equal costs). With the lowest-port tie-break a slack packs
  // routes onto the same low ports of every switch while the loads allow;
  // automatic order routes such a candidate (psssp-route.md, "Loose ties").
  double tie_slack = 0.0;
  // Link weight = routes + dest_weight * (distinct load-carrying LIDs routed
  // over the link). Measured no gain over 0 (psssp-route.md); kept for
  // experiments.
  double dest_weight = 0.0;
  // Rip-up-and-reroute passes after the first, at most: each load-carrying
  // LID is re-searched with its own load removed and everybody else's in
  // place. Stops early after a pass that changed no table (a fixed point:
  // another pass would change nothing either).
  unsigned refine_passes = 8;
  // Endpoint affinity (minimal mode, layered kernel; endpoint_affinity.h):
  // a switch with hosts prefers paths whose links already carry routes of
  // its hosts (source), and the routes into a switch prefer links that
  // already carry routes of its hosts (root). 0 turns each off.
  double source_affinity = 3.0;
  double root_affinity = 1.0;
  // full: endpoint affinity and up to refine_passes passes; fast: neither,
  // plain P-SSSP with at most one refinement pass, in which a switch keeps
  // its next hop while it is among the cheapest (psssp-route.md); automatic:
  // full while one pass visits at most full_effort_limit shortest-path edges
  // (all destinations together; about 1000 hosts), else fast, so routing time
  // stays near one pass per destination on large fabrics.
  enum class Effort { automatic, full, fast } effort = Effort::automatic;
  double full_effort_limit = 2e6;
  // Minimal mode only: search with Boost.Graph's Dijkstra on the shortest-path
  // DAG instead of the layered kernel. Identical LFTs, slower (bench_route).
  bool boost_kernel = false;
  // Minimal mode: where a route crosses two bundles of parallel cables in a
  // row, the LIDs that share a cable of the second share one of the first
  // (parallel_cables.h); off only for experiments.
  bool align_parallel_cables = true;
  // Order automatic on three-level trees: the default's tables laid out as
  // on a fat tree are candidates too (tree_layout.h); off only for
  // experiments.
  bool tree_layouts = true;
  // Each load-carrying LID is searched with the trees of the LIDs up to this
  // many places before and after it in the hosts' order (load sources'
  // order) weighing extra on their links, neighbour_penalty x the sources
  // each (at least one route): the LIDs that shift and XOR patterns send a
  // switch's hosts to take different links, as d-mod-k spreads them, while
  // the loads still balance the rest (psssp-route.md, "Rank neighbours").
  // 0: off (the default candidate); off too with LMC, where a port's LIDs
  // keep apart by their own penalties. Order automatic routes candidates
  // with kNeighbourWindow and kWideNeighbourWindow.
  unsigned neighbour_window = 0;
  double neighbour_penalty = 0.05;
  // Order automatic, full effort, judged on the patterns: the two
  // rank-neighbours candidates; off only for experiments and comparisons.
  bool rank_neighbours = true;
  // Order::automatic with judge_patterns: the kept routing with its entries
  // moved to spread the judged patterns' flows is a candidate too
  // (pattern_refinement.h; off for comparisons).
  bool refine_patterns = true;
  // Order automatic: the candidates are judged on random bisections and on
  // shift, recursive doubling and ring with the ranks in fabric and in
  // hostname order (pattern_estimate.h), two-level trees get the tree layout
  // as a candidate too, and no candidate is kept that another is ahead of on
  // any of them by more than noise (psssp-route.md, "Judged on the patterns
  // jobs run"). false: bisections alone and layouts on three-level trees
  // only, as before (for comparisons).
  bool judge_patterns = true;
};

// The routings Order::automatic compares (psssp-route.md): the default
// (switch by switch), interleaved, interleaved with ties to the lowest port,
// switch by switch with loose ties to the lowest port, and the default's
// tables laid out as on a fat tree, leaf by leaf or round robin.
enum class Candidate {
  switches,
  interleaved,
  port_order,
  loose_ties,
  tree_layout,
  tree_layout_round_robin,
  neighbours,
  neighbours_wide,
  pattern_refined
};
// "port_order": the JSON key; "interleaved with port-order ties": the text.
const char* candidate_key(Candidate candidate);
const char* candidate_text(Candidate candidate);

struct RoutingResult {
  ForwardingTables lfts;
  std::vector<double> channel_load;      // routes per fabric channel (sources x paths)
  std::vector<std::string> unreachable;  // messages: destinations some switch cannot reach
  double seconds = 0.0;                  // compute time
  bool full_effort = false;              // endpoint affinity and refine_passes were used
  unsigned refine_passes_run = 0;        // refinement passes done
  bool converged = false;                // the last of them changed no table
  RoutingOptions::Order order = RoutingOptions::Order::switches;        // the order used
  RoutingOptions::TieBreak tie_break = RoutingOptions::TieBreak::path;  // the tie-break used
  double tie_slack = 0.0;                                               // and its slack
  bool capacity_weights = false;  // loads weighed by capacity (RoutingOptions::capacity)
  // Order::automatic: the candidates compared and their estimated eBB, in
  // the order they were tried (empty when there was no choice).
  struct CandidateEstimate {
    Candidate candidate;
    double bisect;  // estimated eBB on random bisections
    // judge_patterns: on each of pattern_estimates' patterns, in its order
    std::vector<double> patterns;
  };
  std::vector<CandidateEstimate> estimates;
  // A candidate's estimate; -1 when it was not tried.
  double estimate(Candidate candidate) const;
  // The tables are the default candidate's with the host LIDs' routes laid
  // out as on a fat tree (tree_layout.h), LIDs in this order.
  enum class TreeLayout { off, leaf_by_leaf, round_robin } tree_layout = TreeLayout::off;
  // The window of the rank-neighbours routing the tables are (0: none;
  // RoutingOptions::neighbour_window).
  unsigned neighbour_window = 0;
  // Entries the pattern refinement moved (0: not the refined candidate).
  std::size_t pattern_moves = 0;
  // judge_patterns: the kept candidate's estimates on the structured
  // patterns (name, mean share), and whether the candidate the bisections
  // alone preferred was passed over for being behind on one of them.
  std::vector<std::pair<std::string, double>> pattern_estimates;
  bool passed_over_bisect_choice = false;
  // route_psssp_incremental only (incremental.h): kept, repaired, moved.
  struct Incremental {
    bool used = false;  // false: full routing (reason says why, if asked for)
    std::string reason;
    std::uint64_t entries = 0, kept = 0, repaired = 0, rebalanced = 0;
    std::uint64_t restored = 0;  // back to the reference tables' entry
  } incremental;
};

// The tie slack of Order::automatic's loose-ties candidate: next hops this
// much dearer than the cheapest count as tied (psssp-route.md, "Loose ties").
constexpr double kLooseTieSlack = 0.4;

// Order::automatic leaves the default candidate only for one whose estimate
// is this much higher (relative): with full effort, where routings equal up
// to renaming hosts differ on the estimate by noise, and with fast effort's
// fewer runs (psssp-route.md).
constexpr double kFullSwitchMargin = 0.002;
constexpr double kFastSwitchMargin = 0.005;

// The windows of order automatic's rank-neighbours candidates
// (RoutingOptions::neighbour_window): about the hosts of a small switch, and
// of a director's line card.
constexpr unsigned kNeighbourWindow = 4;
constexpr unsigned kWideNeighbourWindow = 16;

// The prices of load balance the pattern refinement tries, dearest first
// (pattern_refinement.h): the cheapest whose tables keep within the margin
// on the bisections is the candidate. Passes over the destinations, at most.
constexpr double kPatternBalanceWeights[] = {4096.0, 1024.0, 256.0, 64.0, 16.0};
constexpr std::size_t kPatternRefinementPasses = 4;

// judge_patterns: a candidate counts as behind another on a structured
// pattern (fixed phases, no runs' noise) when the other is this much ahead
// (relative); on the bisections the margins above are the noise.
constexpr double kPatternTolerance = 0.001;
// Shift phases judged with full effort (the shortest half, the rest spread);
// fast effort judges about as many flows as its bisections.
constexpr std::size_t kShiftPhases = 64;

// Throws FabricError if the fabric cannot be routed at all (no switches).
RoutingResult route_psssp(const Fabric& fabric, const RoutingOptions& options);

}  // namespace psssp
