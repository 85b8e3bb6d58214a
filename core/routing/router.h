// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The P-SSSP router for one destination order (internal to route_psssp):
// destinations in order, one search each, the tree into the LFT columns and
// its routes into the link loads; then the refinement passes.
//  - router.cc: the first pass, searches, LFT columns, results
//  - refinement.cc: rip-up and reroute passes, sequential or speculative
#pragma once

#include <algorithm>
#include <atomic>
#include <cassert>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "destinations.h"
#include "endpoint_affinity.h"
#include "hop_layers.h"
#include "link_loads.h"
#include "parallel/run_workers.h"
#include "parallel/thread_count.h"
#include "parallel/worker_team.h"
#include "pattern_refinement.h"
#include "psssp_routing.h"
#include "routing_graph.h"
#include "search_kernels.h"
#include "tree_layout.h"

namespace psssp::routing {

class Router {
 public:
  Router(const Fabric& fabric, const RoutingOptions& options)
      : fabric_(fabric),
        options_(options),
        graph_(make_routing_graph(fabric)),
        problem_(make_problem(fabric, graph_, options)),
        loads_(graph_, options, problem_),
        tree_(graph_.vertex_count),
        team_(std::min(parallel::effective_threads(options.threads), kMaxTeam)),
        columns_((static_cast<std::size_t>(fabric.max_lid()) + 1) * graph_.vertex_count, kNoPath),
        searching_(new std::atomic<bool>[graph_.vertex_count]()) {}

  // The hosts whose traffic adds load (RoutingProblem::source_ports).
  const std::vector<PortRef>& load_sources() const { return problem_.source_ports; }

  // Whether every switch has load sources attached (a direct network: tori,
  // meshes, HyperX, dragonflies; not fat trees or directors).
  bool hosts_on_every_switch() const {
    return std::all_of(problem_.sources_at.begin(), problem_.sources_at.end(),
                       [](std::uint32_t n) { return n != 0; });
  }

  // Whether every destination port has a single LID (LMC 0).
  bool single_lids() const;

  // Whether loads are weighed by capacity (then candidates compare on the
  // capacity-aware eBB, the measure the weights aim at).
  bool weighs_capacity() const { return loads_.weighs_capacity(); }
  // After prepare(): the tree the layout sees (CableShape::tree); none
  // outside minimal mode.
  TreeLevels tree_levels() const;

  // The BFS per switch and the choice of effort (run() calls it if needed);
  // returns whether the routing will be full effort.
  bool prepare();
  RoutingResult run();
  // After run(): its tables again (the same bytes).
  ForwardingTables tables() const { return transpose_columns(); }
  // After run() gave `ran`: its tables with the routes to the host LIDs laid
  // out as on a fat tree (tree_layout.h), its other fields as ran's but no
  // channel loads (enough to compare candidates); tree_layout off (and no
  // tables) where that does not apply. The laid-out columns into `columns`
  // if given (for laid_out_loads). Reads only, so layouts may run side by
  // side.
  RoutingResult laid_out(const RoutingResult& ran, TreeLayoutOrder order, unsigned threads,
                         std::vector<PortNum>* columns = nullptr) const;
  // ran's channel loads with the routes of laid_out's columns in place of
  // ran's (for the one kept: tracing them is most of a layout's time).
  std::vector<double> laid_out_loads(const RoutingResult& ran,
                                     const std::vector<PortNum>& laid_columns,
                                     unsigned threads) const;
  // After prepare(): a refiner of `lfts` (any shortest routing of this
  // fabric) for the patterns, on this router's graph, layers and load
  // sources (pattern_refinement.h). It must not outlive the router.
  PatternRefiner pattern_refiner(const ForwardingTables& lfts, const StructuredPatterns& patterns,
                                 double balance_weight) const {
    return PatternRefiner(fabric_, graph_, layers_, problem_, lfts, patterns, balance_weight);
  }

 private:
  Layers layers_of(const Destination& d);

  // LFT entries are written per LID (contiguous here) and transposed into
  // per-switch rows at the end: much cheaper than one cache miss per switch.
  PortNum* column(Lid lid) {
    return &columns_[static_cast<std::size_t>(lid) * graph_.vertex_count];
  }
  const PortNum* column(Lid lid) const {
    return &columns_[static_cast<std::size_t>(lid) * graph_.vertex_count];
  }

  ForwardingTables transpose_columns() const;

  // Full effort: minimal-hop DAG lists (the affinity needs the layered
  // kernel with them) and, in automatic mode, a small enough pass.
  bool full_effort() const;

  // One destination's tree (tree_) into the link loads and the affinities.
  double add_tree(const Destination& d, int sign);

  // Speculative batches wider than this rarely survive whole, and every
  // slot keeps its own copy of the loads.
  static constexpr unsigned kMaxTeam = 8;

  // Pauses a shortcut that keeps failing: after each failure it is skipped
  // for 4, 8, ... 256 tries; a success resets the pause.
  class Backoff {
   public:
    bool try_now() {
      if (skip_ == 0) return true;
      --skip_;
      return false;
    }
    void record(bool worked) {
      if (worked) {
        pause_ = kMin;
      } else {
        skip_ = pause_;
        pause_ = std::min(2 * pause_, kMax);
      }
    }

   private:
    static constexpr std::size_t kMin = 4, kMax = 256;
    std::size_t skip_ = 0, pause_ = kMin;
  };

  // How a refinement step ended: the stay check kept the tree, or the search
  // ran and gave the same or a changed column.
  enum class Reroute { kept, same, changed };

  // A speculative search's own copy of everything a refinement step writes.
  struct Slot {
    LinkLoads* loads;
    SearchTree* tree;
    std::vector<PortNum> column;
    Reroute result = Reroute::same;
  };

  // Fast effort with the layered kernel: refinement keeps ties, so a step
  // usually leaves its tree alone; that is what the stay check and the
  // speculation bet on.
  bool fast_layered() const;
  // Threads may refine speculatively when every step is one LID (no LMC
  // penalties) and fast_layered().
  bool speculative() const;

  // Re-searches d over w (its own tree ripped out of w; `tree` holds its
  // current next hops). With `check` the stay check (layered_tree_stays,
  // about half a search) runs first and the search only if the tree moves.
  // A searched column goes to `out`. Either way the tables are the search's.
  Reroute reroute(const Destination& d, const Layers& layers, SearchTree& tree, const double* w,
                  std::vector<PortNum>& out, bool check);

  // The refinement pass with team_.size() searches at a time. Searches k of a
  // batch each start from the loads of the sequential pass at the batch's
  // start minus their own tree: exactly what the sequential pass gives them
  // as long as no earlier search of the batch changed its column (ripping up
  // and re-adding the same tree restores the loads exactly: integer route
  // counts). The batch is accepted up to its first changed column; the
  // searches after it are discarded and redone in the next batch. Same
  // tables and loads as refine() with one thread.
  std::size_t refine_speculatively();

  // One refinement step on a slot's own loads; an unchanged column puts its
  // tree back, so the slot's loads are the batch's starting loads again.
  void refine_in_slot(const Destination& d, Slot& slot, bool check);

  // The batch's first changed step becomes final: its column goes into the
  // tables and every slot's loads move to the loads after it.
  void commit_slot(const std::vector<const Destination*>& batch, std::size_t first);

  // Rip-up and reroute every load-carrying LID once, in routing order. The
  // other LIDs of its port keep their penalty so LMC paths stay apart.
  // Returns how many LIDs got a different table column.
  std::size_t refine();

  // Rip-up and reroute the LIDs [begin, end) of one port, one after another;
  // returns how many got a different column.
  std::size_t refine_port(std::size_t begin, std::size_t end);

  // The load-carrying ports (ranges of their LIDs in routing order) round
  // robin over their switches: the first port of every switch, then the
  // second, ... Re-routed one switch after another, the ports of a switch
  // would each see the others' fresh changes first; spread out they see
  // everybody's (psssp-route.md: 2-level tree 0.635 -> 0.637, hypercube
  // 0.498 -> 0.499).
  std::vector<std::pair<std::size_t, std::size_t>> refinement_order() const;

  // RoutingOptions::neighbour_window: the trees of destination i's
  // neighbours in the hosts' order weigh extra (in the first pass only those
  // routed already), the others no longer; clear_window() drops them all
  // (with every other penalty).
  void weigh_window(std::size_t i, bool first_pass);
  void clear_window();
  // A refinement pass in the hosts' order, so that the window slides.
  std::size_t refine_by_rank();
  // Per destination: its place in the hosts' order (kNotRanked if it adds
  // no load); the destinations in that order (empty: no window, also with
  // LMC, where a port's LIDs keep apart by their own penalties); per place,
  // whether its tree weighs now and whether it is routed (first pass).
  static constexpr std::size_t kNotRanked = ~std::size_t{0};
  void rank_destinations();
  std::vector<std::size_t> rank_of_, by_rank_;
  std::vector<char> weighs_, routed_;
  std::size_t window_lo_ = 0, window_hi_ = 0;
  SearchTree neighbour_tree_;  // sized by rank_destinations

  // Comparable with the heaviest tree a single LID can add to one link.
  double lmc_penalty() const {
    return std::max<double>(1.0, static_cast<double>(problem_.source_ports.size()));
  }

  std::uint32_t root_sources(const Destination& d) const {
    return problem_.sources_at[d.vertex] - (d.self_source ? 1u : 0u);
  }

  // After the refinement: the single-LID destinations that add no load
  // (switch LIDs by default), against the final loads, on all threads.
  void route_without_load(std::vector<const Destination*> later);

  // Searches into `tree` over weights `w` and writes the destination's LFT
  // column `col`. Refining: a switch keeps its next hop on ties (fast effort).
  // Not const: the layered kernel reorders the root's DAG lists in place
  // (Layers::dag), so at most one search per root may run at a time;
  // refine() batches distinct roots and route_without_load() gives each task
  // whole switches. RootSearch checks it (assert in debug builds).
  void search(const Destination& d, const Layers& layers, SearchTree& tree, const double* w,
              PortNum* col, bool refining);

  // Marks a root as being searched for the lifetime of the object.
  class RootSearch {
   public:
    explicit RootSearch(std::atomic<bool>& flag) : flag_(flag) {
      [[maybe_unused]] const bool busy = flag_.exchange(true, std::memory_order_acquire);
      assert(!busy && "two searches towards one root at once");
    }
    ~RootSearch() { flag_.store(false, std::memory_order_release); }
    RootSearch(const RootSearch&) = delete;
    RootSearch& operator=(const RootSearch&) = delete;

   private:
    std::atomic<bool>& flag_;
  };

  // Rebuilds a destination's tree from its LFT column (for rip-up). Every
  // vertex must come after its next hop: BFS order does that for minimal
  // trees, a depth sort for bounded ones.
  void tree_from_columns(const Destination& d, const Layers& layers, SearchTree& tree) const;

  // A source's own link carries its routes to every load-carrying LID its
  // switch reaches, except its own.
  void add_host_up_loads(const std::vector<double>& reached_loads,
                         std::vector<double>& channel_load) const;

  std::string unreachable_message(const Destination& d, std::uint32_t reached) const;

  const Fabric& fabric_;
  const RoutingOptions& options_;
  RoutingGraph graph_;
  RoutingProblem problem_;
  LinkLoads loads_;
  SearchTree tree_;
  SearchTree old_tree_{graph_.vertex_count};  // scratch of commit_slot
  EndpointAffinity affinity_;                 // empty unless full effort
  std::vector<PortNum> scratch_column_;       // a refined column before it is kept
  std::vector<std::pair<std::size_t, std::size_t>> refine_order_;  // port LID ranges
  bool prepared_ = false;
  bool full_effort_ = false;
  // Minimal mode: the bundles and levels the cable passes and the tree
  // layout read (prepare() builds them once).
  std::optional<CableShape> shape_;
  Backoff stay_checks_;  // skipped where trees keep moving
  parallel::WorkerTeam team_;
  std::vector<Slot> slots_;  // speculative refinement: slot 0 is loads_ and tree_
  std::vector<LinkLoads> spare_loads_;
  std::vector<SearchTree> spare_trees_;
  std::vector<PortNum> columns_;                    // columns_[lid * vertices + vertex]
  std::unique_ptr<std::atomic<bool>[]> searching_;  // per vertex: a search towards it runs
  HopLayers layers_;
};

}  // namespace psssp::routing
