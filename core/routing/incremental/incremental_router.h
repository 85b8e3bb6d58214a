// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The incremental router behind route_psssp_incremental (incremental.h),
// internal to the routing library. Its parts:
//  - incremental.cc: run(), the order of the steps
//  - incremental_check.cc: which entries still deliver, the intact loads
//  - incremental_repair.cc: new hops for the failure points, shortcuts
//  - incremental_straighten.cc: repaired destinations back onto minimal paths
//  - incremental_rebalance.cc: moves onto light links
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "incremental.h"
#include "parallel/run_workers.h"
#include "parallel/thread_count.h"
#include "routing/delivery_walk.h"
#include "routing/destinations.h"
#include "routing/lid_columns.h"
#include "routing/link_loads.h"
#include "routing/routing_graph.h"
#include "routing/search_kernels.h"

namespace psssp::routing {

// Columns are LID-major (as in the router): one destination's entries for
// every switch are contiguous.
class IncrementalRouter {
 public:
  IncrementalRouter(const Fabric& fabric, const ForwardingTables& previous,
                    const RoutingOptions& options, const IncrementalOptions& incremental,
                    const ForwardingTables* reference)
      : fabric_(fabric),
        previous_(previous),
        reference_(reference),
        options_(options),
        incremental_(incremental),
        graph_(make_routing_graph(fabric)),
        problem_(make_problem(fabric, graph_, options)),
        loads_(graph_, options, problem_),
        tree_(graph_.vertex_count),
        columns_((static_cast<std::size_t>(fabric.max_lid()) + 1) * graph_.vertex_count, kNoPath),
        walk_(graph_.vertex_count),
        cost_(graph_.vertex_count, 0.0),
        child_(graph_.vertex_count, kNone),
        sibling_(graph_.vertex_count, kNone),
        mark_(graph_.vertex_count, 0),
        position_(graph_.vertex_count, 0),
        flow_(graph_.vertex_count, 0.0),
        depth_(graph_.vertex_count, 0),
        straight_edge_(graph_.vertex_count, kNoEdge),
        threads_(parallel::effective_threads(options.threads)) {}

  // False (with `reason`) when the fabric needs a full routing.
  bool run(RoutingResult& result, std::string& reason);
  bool weighs_capacity() const { return loads_.weighs_capacity(); }

 private:
  static constexpr Vertex kNone = 0xFFFFFFFFu;
  // The check pass sums an edge's delivering routes and destinations in one
  // 64-bit word: routes below bit 40, destinations above. Routes on an edge
  // are at most sources x destinations, both below 49152 (unicast LIDs):
  // under 2^32; destinations under 2^24.
  static constexpr unsigned kPackedShift = 40;
  static constexpr std::uint64_t kPackedRoutes = (std::uint64_t{1} << kPackedShift) - 1;
  // A shortcut must save at least this many source switches' routes one
  // hop each (hops saved times routes through the switch), else it is
  // churn for nothing (shortcuts()).
  static constexpr double kShortcutSwitches = 4.0;
  // A repair candidate: the bad switch u may hop over e to a good switch,
  // giving a path of `length` hops and `cost`; smallest first.
  struct Candidate {
    std::uint32_t length;
    double cost;
    double routes;
    Vertex u;
    EdgeId e;
    bool operator>(const Candidate& o) const {
      if (length != o.length) return length > o.length;
      if (cost != o.cost) return cost > o.cost;
      if (routes != o.routes) return routes > o.routes;
      if (u != o.u) return u > o.u;
      return e > o.e;
    }
  };
  using CandidateQueue =
      std::priority_queue<Candidate, std::vector<Candidate>, std::greater<Candidate>>;

  PortNum* column(Lid lid) {
    return &columns_[static_cast<std::size_t>(lid) * graph_.vertex_count];
  }
  const PortNum* column(Lid lid) const {
    return &columns_[static_cast<std::size_t>(lid) * graph_.vertex_count];
  }
  EdgeId edge_of(Vertex u, PortNum port) const { return DeliveryWalk::edge_of(graph_, u, port); }
  std::uint32_t root_sources(const Destination& d) const {
    return problem_.sources_at[d.vertex] - (d.self_source ? 1u : 0u);
  }
  std::size_t index_of(const Destination& d) const {
    return static_cast<std::size_t>(&d - problem_.destinations.data());
  }
  // Keeps a copy of d's column before its first change (for the counts).
  void touch(const Destination& d) {
    std::vector<PortNum>& b = before_[index_of(d)];
    if (b.empty()) {
      const PortNum* col = column(d.lid);
      b.assign(col, col + graph_.vertex_count);
    }
  }
  // run()'s phases, in order (incremental.cc).
  // The previous tables as columns, the per-destination state, the reference.
  void prepare();
  // Entries the tables must hold (per destination, its component's
  // switches); marks the LIDs some destination routes to.
  std::uint64_t count_entries(std::vector<bool>& routed_lid) const;
  // False (with `reason`) when the check pass's packed sums could overflow.
  bool load_sums_fit(std::string& reason) const;
  // Checks every destination's column (broken_, failures_), summing the
  // delivering routes per thread into `packed`; returns the failure points.
  std::uint64_t check_all(std::vector<std::vector<std::uint64_t>>& packed);
  void clear_unrouted_lids(const std::vector<bool>& routed_lid);
  // False (with `reason`) when nothing is routed or too many entries lost
  // their hop (incremental_.full_above).
  bool few_enough_failures(std::uint64_t entries, std::uint64_t failure_points,
                           std::string& reason) const;
  void add_intact_loads(const std::vector<std::vector<std::uint64_t>>& packed);
  // Repairs every destination with broken entries, keeping loads_ current.
  void repair_broken();
  // Changed entries: back to the reference's (`restored`) or set anew.
  void count_changes(std::uint64_t& restored, std::uint64_t& repaired) const;
  // Entries the shortcuts, straightening and rebalancing may move.
  std::size_t rebalance_budget(std::uint64_t failure_points, std::uint64_t repaired) const;
  // Shortcuts and straightening after a fault, then rebalancing; returns the
  // entries moved.
  std::size_t improve(std::size_t budget, std::uint64_t failure_points);
  void fill_result(RoutingResult& result, std::uint64_t entries, std::uint64_t restored,
                   std::uint64_t repaired, std::size_t moved) const;

  void find_components();
  void find_differences();
  // Hops from u to d's root over the column; kNone without a path or when it
  // passes `avoid` (the tables are loop-free when this is called).
  std::uint32_t path_length(const Destination& d, Vertex u, Vertex avoid) const;
  // Sum of routes over the edges where the paths from u via `a` and via `b`
  // towards d differ (they meet at the latest at the root and coincide from
  // there); `extra` is added per edge of the path via `b`.
  void path_costs(const Destination& d, EdgeId a, EdgeId b, double extra, double& cost_a,
                  double& cost_b);
  bool try_move(const Destination& d, Vertex u, EdgeId alt);
  // Sets d's root entry, kNoPath where d cannot be reached, the reference
  // entries where their hop is live, then walks the column; restored entries
  // whose path does not deliver go back to what they were. Leaves `walk` run.
  void check(const Destination& d, DeliveryWalk& walk);
  void add_intact_load(const Destination& d, const DeliveryWalk& walk,
                       std::vector<std::uint64_t>& packed, std::vector<std::uint64_t>& sub) const;
  // tree_ from a walk's good vertices.
  void tree_from(const DeliveryWalk& walk);
  // The tree of d over the current (delivering) column.
  void build_tree(const Destination& d);
  // The walk's bad switches hop to good ones; tree_ is the whole tree after.
  void repair(const Destination& d);
  void attach(const double* weight, Vertex u, EdgeId e, PortNum* col, CandidateQueue& failures,
              CandidateQueue& others);
  // Records the shortcuts of d's switches from tree_.order[first] on (the
  // ones the repair attached or kept behind a detour).
  void find_shortcuts(const Destination& d, std::size_t first);
  // Route hops a move must save (kShortcutSwitches switches' sources by one
  // hop each), else it is churn for nothing (shortcuts, straighten).
  double worth_per_change() const;
  // Makes the `budget` shortcuts with the largest gain; returns how many.
  std::size_t shortcuts(std::size_t budget);
  struct Shortcut {
    double gain;
    std::uint32_t dest;
    Vertex x;
    EdgeId e;
  };
  std::size_t rebalance(std::size_t budget);
  struct Hops {
    std::vector<std::uint32_t> hop;  // per vertex: hops to the root, kNone if unreachable
    std::vector<Vertex> order;       // the reached vertices, nearest first
  };
  const Hops& hops_to(Vertex root);
  // The same BFS, not cached: safe on any thread.
  void find_hops(Vertex root, Hops& h) const;
  std::int64_t straight_column(const Destination& d, double& saved);
  std::pair<std::int64_t, double> estimate_straight(const Destination& d, std::size_t first);
  // Whole repaired destinations onto minimal paths; returns the changes added.
  std::size_t straighten(std::size_t budget);

  const Fabric& fabric_;
  const ForwardingTables& previous_;
  const ForwardingTables* reference_;
  std::vector<const PortNum*> reference_rows_;  // per vertex; null without a reference row
  // LID-major bits (differs_words_ words per LID): previous entry differs
  // from the reference row's; empty without a reference.
  std::vector<std::uint64_t> differs_;
  std::size_t differs_words_ = 0;
  const RoutingOptions& options_;
  const IncrementalOptions& incremental_;
  RoutingGraph graph_;
  RoutingProblem problem_;
  LinkLoads loads_;
  SearchTree tree_;
  std::vector<PortNum> columns_;
  std::vector<std::uint32_t> component_;  // per vertex: connected component
  std::vector<std::uint32_t> component_size_;
  DeliveryWalk walk_;                  // for the destination at hand (serial phases)
  std::vector<double> cost_;           // per vertex: path cost to the destination at hand
  std::vector<Vertex> child_;          // per vertex: first bad switch hopping to it (repair)
  std::vector<Vertex> sibling_;        // per bad switch: the next one with the same hop
  std::vector<std::uint32_t> mark_;    // per vertex: path_costs' stamp
  std::vector<std::size_t> position_;  // per vertex: place in tree_.order (shortcut)
  std::vector<double> flow_;           // per vertex: routes through it (find_shortcuts)
  std::vector<Shortcut> shortcuts_;
  std::unordered_map<Vertex, Hops> hops_;  // straighten: per destination switch
  std::vector<std::uint32_t> depth_;       // straighten: hops of each switch's path now
  std::vector<PortNum> straight_;          // straighten: the minimal column
  std::vector<EdgeId> straight_edge_;      // straighten: per vertex, its edge in straight_
  // Per destination: straight_column's added changes and route hops saved,
  // as the repair left it (saved -1: not repaired, or below the bar even so).
  std::vector<std::pair<std::int64_t, double>> straight_estimate_;
  double worth_ = 0.0;  // worth_per_change(), set before the repairs
  std::uint32_t stamp_ = 0;
  std::vector<Vertex> propagate_;      // repair scratch
  std::vector<Vertex> parents_;        // repair scratch: the vertices with a child_
  std::vector<std::uint32_t> broken_;  // per destination: switches whose path does not deliver
  // Per destination: those among them whose own hop is dead, missing or on
  // a loop (the entries that must change).
  std::vector<std::uint32_t> failures_;
  std::vector<std::vector<PortNum>> before_;  // per destination: column before its first change
  unsigned threads_;
};

}  // namespace psssp::routing
