// The P-SSSP driver: destinations in order, one search each, the tree into
// the LFTs and its routes into the link loads; then optional refinement.
#include "psssp_routing.h"

#include <algorithm>
#include <chrono>

#include "destinations.h"
#include "ebb_estimate.h"
#include "endpoint_affinity.h"
#include "hop_layers.h"
#include "link_loads.h"
#include "parallel.h"
#include "routing_graph.h"
#include "search_kernels.h"
#include "worker_team.h"

namespace psssp {
namespace {

using namespace routing;

class Router {
 public:
  Router(const Fabric& fabric, const RoutingOptions& options)
      : fabric_(fabric),
        options_(options),
        graph_(make_routing_graph(fabric)),
        problem_(make_problem(fabric, graph_, options)),
        loads_(graph_, options),
        tree_(graph_.vertex_count),
        team_(effective_threads(options.threads)),
        columns_((static_cast<std::size_t>(fabric.max_lid()) + 1) * graph_.vertex_count, kNoPath) {}

  // The hosts whose traffic adds load (RoutingProblem::source_ports).
  const std::vector<PortRef>& load_sources() const { return problem_.source_ports; }

  RoutingResult run() {
    RoutingResult result;
    result.unreachable = problem_.unroutable;
    for (const Destination& d : problem_.destinations)
      if (d.vertex != kNoVertexId) column(d.lid)[d.vertex] = d.final_port;

    std::vector<bool> roots(graph_.vertex_count, false);
    std::size_t root_count = 0;
    for (const Destination& d : problem_.destinations)
      if (d.vertex != kNoVertexId && !roots[d.vertex]) {
        roots[d.vertex] = true;
        ++root_count;
      }
    // Edge lists of every minimal-hop DAG save the layered kernel its hop
    // tests; skipped when they would take more than ~1 GiB.
    const bool dag_lists =
        options_.minimal && !options_.boost_kernel &&
        static_cast<double>(graph_.edge_count()) * static_cast<double>(root_count) < 2e9;
    layers_ = HopLayers(graph_, roots, effective_threads(options_.threads), dag_lists);
    result.full_effort = full_effort();
    // Fast effort refines by keeping ties: a pass changes only columns that
    // improve, which lets threads check each other's speculative searches.
    keep_ties_ = !result.full_effort;
    if (result.full_effort)
      affinity_ = EndpointAffinity(graph_, problem_.sources_at.data(), options_.source_affinity,
                                   options_.root_affinity);
    const unsigned passes =
        result.full_effort ? options_.refine_passes : std::min(options_.refine_passes, 1u);

    // Per switch: how many load-carrying LIDs its sources reach (host links).
    std::vector<double> reached_loads(graph_.vertex_count, 0.0);
    std::vector<double> host_down(fabric_.channel_count(), 0.0);
    PortRef current_port;
    for (const Destination& d : problem_.destinations) {
      if (d.vertex == kNoVertexId) continue;
      if (d.port != current_port) {
        loads_.clear_penalties();
        current_port = d.port;
      }
      const Layers layers = layers_of(d);
      search(d, layers, tree_, loads_.weights(), column(d.lid), false);
      if (d.loads) {
        const double arriving = add_tree(d, +1);
        if (d.final_port != 0)
          host_down[fabric_.channel(PortRef{graph_.view.node_of_vertex[d.vertex], d.final_port})] +=
              arriving;
        for (std::uint32_t i = 0; i < layers.reached; ++i) reached_loads[layers.order[i]] += 1.0;
      }
      if (fabric_.port(d.port).lid_count() > 1) loads_.penalize(tree_, lmc_penalty());
      if (layers.reached < graph_.vertex_count && d.lid == fabric_.port(d.port).lid)
        result.unreachable.push_back(unreachable_message(d, layers.reached));
    }
    loads_.clear_penalties();

    while (result.refine_passes_run < passes && !result.converged) {
      result.converged = refine() == 0;
      ++result.refine_passes_run;
    }
    result.lfts = transpose_columns();

    result.channel_load = host_down;
    for (EdgeId e = 0; e < graph_.edge_count(); ++e)
      result.channel_load[graph_.channel[e]] += loads_.routes()[e];
    add_host_up_loads(reached_loads, result.channel_load);
    return result;
  }

 private:
  Layers layers_of(const Destination& d) {
    Layers l{d.vertex, layers_.hops(d.vertex), layers_.order(d.vertex), layers_.reached(d.vertex)};
    if (layers_.has_dag_lists()) {
      l.dag = layers_.dag(d.vertex);
      l.dag_begin = layers_.dag_begin(d.vertex);
    }
    return l;
  }

  // LFT entries are written per LID (contiguous here) and transposed into
  // per-switch rows at the end: much cheaper than one cache miss per switch.
  PortNum* column(Lid lid) {
    return &columns_[static_cast<std::size_t>(lid) * graph_.vertex_count];
  }
  const PortNum* column(Lid lid) const {
    return &columns_[static_cast<std::size_t>(lid) * graph_.vertex_count];
  }

  ForwardingTables transpose_columns() const {
    ForwardingTables lfts(fabric_);
    const std::size_t n = graph_.vertex_count, lids = lfts.lid_count();
    constexpr std::size_t kBlock = 64;
    for (std::size_t v0 = 0; v0 < n; v0 += kBlock)
      for (std::size_t l0 = 0; l0 < lids; l0 += kBlock)
        for (std::size_t v = v0; v < std::min(n, v0 + kBlock); ++v) {
          PortNum* row = lfts.row(graph_.view.node_of_vertex[v]);
          for (std::size_t l = l0; l < std::min(lids, l0 + kBlock); ++l)
            row[l] = columns_[l * n + v];
        }
    return lfts;
  }

  // Full effort: minimal-hop DAG lists (the affinity needs the layered
  // kernel with them) and, in automatic mode, a small enough pass.
  bool full_effort() const {
    using Effort = RoutingOptions::Effort;
    if (options_.effort == Effort::fast || !layers_.has_dag_lists()) return false;
    if (options_.effort == Effort::full) return true;
    double visits = 0.0;
    for (const Destination& d : problem_.destinations)
      if (d.vertex != kNoVertexId && d.loads)
        visits += layers_.dag_begin(d.vertex)[layers_.reached(d.vertex)];
    return visits <= options_.full_effort_limit;
  }

  // One destination's tree (tree_) into the link loads and the affinities.
  double add_tree(const Destination& d, int sign) {
    const double arriving =
        loads_.apply_tree(tree_, problem_.sources_at.data(), root_sources(d), sign);
    affinity_.apply_tree(graph_, tree_, loads_.subtree_sources(), sign);
    return arriving;
  }

  static constexpr std::size_t kMinBackoff = 4, kMaxBackoff = 256;

  // A speculative search's own copy of everything a refinement step writes.
  struct Slot {
    LinkLoads* loads;
    SearchTree* tree;
    std::vector<PortNum> column;
    bool changed = false;
  };

  // Threads may refine speculatively when every step is one LID (no LMC
  // penalties), without affinity, with the layered kernel.
  bool speculative() const {
    if (team_.size() <= 1 || !keep_ties_ || !options_.minimal || options_.boost_kernel)
      return false;
    for (const auto& [begin, end] : refine_order_)
      if (end - begin != 1) return false;
    return true;
  }

  // The refinement pass with team_.size() searches at a time. Searches k of a
  // batch each start from the loads of the sequential pass at the batch's
  // start minus their own tree: exactly what the sequential pass gives them
  // as long as no earlier search of the batch changed its column (ripping up
  // and re-adding the same tree restores the loads exactly: integer route
  // counts). The batch is accepted up to its first changed column; the
  // searches after it are discarded and redone in the next batch. Same
  // tables and loads as refine() with one thread.
  std::size_t refine_speculatively() {
    const auto& dests = problem_.destinations;
    const unsigned width = team_.size();
    if (slots_.empty()) {
      spare_loads_.reserve(width - 1);  // slot 0 is the router's own state
      spare_trees_.reserve(width - 1);
      slots_.push_back(Slot{&loads_, &tree_, {}, false});
      for (unsigned k = 1; k < width; ++k) {
        spare_loads_.push_back(loads_);
        spare_trees_.emplace_back(graph_.vertex_count);
        slots_.push_back(Slot{&spare_loads_.back(), &spare_trees_.back(), {}, false});
      }
    }
    // Every slot's loads equal loads_ here and after each batch. Where most
    // columns change (a pass far from its fixed point), speculation is
    // mostly discarded: the pass then goes on one LID at a time for a while
    // (doubling while speculation keeps failing) and re-copies the loads
    // into the slots before it speculates again.
    std::size_t changed = 0;
    std::size_t alone = 0, backoff = kMinBackoff;
    bool slots_stale = false;
    std::vector<const Destination*> batch;
    for (std::size_t next = 0; next < refine_order_.size();) {
      if (alone > 0) {
        const auto& [begin, end] = refine_order_[next++];
        changed += refine_port(begin, end);
        slots_stale = true;
        --alone;
        continue;
      }
      if (slots_stale)
        for (std::size_t k = 1; k < slots_.size(); ++k) slots_[k].loads->copy_from(loads_);
      slots_stale = false;
      batch.clear();
      // Each search reorders its root's DAG lists: one search per switch.
      while (batch.size() < width && next + batch.size() < refine_order_.size()) {
        const Destination& d = dests[refine_order_[next + batch.size()].first];
        bool same_root = false;
        for (const Destination* b : batch) same_root |= b->vertex == d.vertex;
        if (same_root) break;
        batch.push_back(&d);
      }
      team_.run_each(static_cast<std::uint32_t>(batch.size()),
                     [&](std::uint32_t k) { refine_in_slot(*batch[k], slots_[k]); });
      std::size_t first = 0;
      while (first < batch.size() && !slots_[first].changed) ++first;
      if (first < batch.size()) {
        commit_slot(batch, first);
        ++changed;
        next += first + 1;
      } else {
        next += batch.size();
      }
      if (first + 1 < batch.size()) {  // searches were discarded
        alone = backoff;
        backoff = std::min(2 * backoff, kMaxBackoff);
      } else {
        backoff = kMinBackoff;
      }
    }
    return changed;
  }

  // One refinement step on a slot's own loads; an unchanged column puts its
  // tree back, so the slot's loads are the batch's starting loads again.
  void refine_in_slot(const Destination& d, Slot& slot) {
    const Layers layers = layers_of(d);
    const PortNum* current = column(d.lid);
    slot.column.assign(current, current + graph_.vertex_count);
    tree_from_columns(d, layers, *slot.tree);
    const std::uint32_t at_root = root_sources(d);
    slot.loads->apply_tree(*slot.tree, problem_.sources_at.data(), at_root, -1);
    search(d, layers, *slot.tree, slot.loads->weights(), slot.column.data(), true);
    slot.changed = !std::equal(slot.column.begin(), slot.column.end(), current);
    if (!slot.changed) slot.loads->apply_tree(*slot.tree, problem_.sources_at.data(), at_root, +1);
  }

  // The batch's first changed step becomes final: its column goes into the
  // tables and every slot's loads move to the loads after it.
  void commit_slot(const std::vector<const Destination*>& batch, std::size_t first) {
    const Destination& d = *batch[first];
    const Layers layers = layers_of(d);
    tree_from_columns(d, layers, old_tree_);
    Slot& winner = slots_[first];
    std::copy(winner.column.begin(), winner.column.end(), column(d.lid));
    const std::uint32_t* sources = problem_.sources_at.data();
    winner.loads->apply_tree(*winner.tree, sources, root_sources(d), +1);
    for (std::size_t k = 0; k < slots_.size(); ++k) {
      if (k == first) continue;
      Slot& slot = slots_[k];
      if (k < batch.size() && slot.changed) {  // discarded: put its old tree back
        const Destination& other = *batch[k];
        tree_from_columns(other, layers_of(other), *slot.tree);
        slot.loads->apply_tree(*slot.tree, sources, root_sources(other), +1);
      }
      slot.loads->apply_tree(old_tree_, sources, root_sources(d), -1);
      slot.loads->apply_tree(*winner.tree, sources, root_sources(d), +1);
    }
  }

  // Rip-up and reroute every load-carrying LID once, in routing order. The
  // other LIDs of its port keep their penalty so LMC paths stay apart.
  // Returns how many LIDs got a different table column.
  std::size_t refine() {
    if (refine_order_.empty()) refine_order_ = refinement_order();
    if (speculative()) return refine_speculatively();
    std::size_t changed = 0;
    for (const auto& [begin, end] : refine_order_) changed += refine_port(begin, end);
    return changed;
  }

  // Rip-up and reroute the LIDs [begin, end) of one port, one after another;
  // returns how many got a different column.
  std::size_t refine_port(std::size_t begin, std::size_t end) {
    const auto& dests = problem_.destinations;
    std::size_t changed = 0;
    for (std::size_t i = begin; i < end; ++i) {
      const Destination& d = dests[i];
      const Layers layers = layers_of(d);
      for (std::size_t j = begin; j < end; ++j)
        if (j != i) {
          tree_from_columns(dests[j], layers, tree_);
          loads_.penalize(tree_, lmc_penalty());
        }
      tree_from_columns(d, layers, tree_);
      add_tree(d, -1);
      previous_.assign(column(d.lid), column(d.lid) + graph_.vertex_count);
      search(d, layers, tree_, loads_.weights(), column(d.lid), true);
      if (!std::equal(previous_.begin(), previous_.end(), column(d.lid))) ++changed;
      add_tree(d, +1);
      loads_.clear_penalties();
    }
    return changed;
  }

  // The load-carrying ports (ranges of their LIDs in routing order) round
  // robin over their switches: the first port of every switch, then the
  // second, ... Re-routed one switch after another, the ports of a switch
  // would each see the others' fresh changes first; spread out they see
  // everybody's (psssp-route.md: 2-level tree 0.635 -> 0.637, hypercube
  // 0.498 -> 0.499).
  std::vector<std::pair<std::size_t, std::size_t>> refinement_order() const {
    const auto& dests = problem_.destinations;
    std::vector<std::uint32_t> seen(graph_.vertex_count, 0);
    std::vector<std::pair<std::uint64_t, std::pair<std::size_t, std::size_t>>> keyed;
    for (std::size_t begin = 0, end = 0; begin < dests.size(); begin = end) {
      end = begin + 1;
      while (end < dests.size() && dests[end].port == dests[begin].port) ++end;
      const Vertex v = dests[begin].vertex;
      if (v == kNoVertexId || !dests[begin].loads) continue;
      keyed.push_back({(std::uint64_t{seen[v]++} << 32) | v, {begin, end}});
    }
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::pair<std::size_t, std::size_t>> order;
    order.reserve(keyed.size());
    for (const auto& k : keyed) order.push_back(k.second);
    return order;
  }

  // Comparable with the heaviest tree a single LID can add to one link.
  double lmc_penalty() const {
    return std::max<double>(1.0, static_cast<double>(problem_.source_ports.size()));
  }

  std::uint32_t root_sources(const Destination& d) const {
    return problem_.sources_at[d.vertex] - (d.self_source ? 1u : 0u);
  }

  // Searches into `tree` over weights `w` and writes the destination's LFT
  // column `col`. Refining: a switch keeps its next hop on ties (fast effort).
  void search(const Destination& d, const Layers& layers, SearchTree& tree, const double* w,
              PortNum* col, bool refining) const {
    using Tie = RoutingOptions::TieBreak;
    const bool keyed = options_.tie_break == Tie::dmodk || options_.tie_break == Tie::path;
    const TieRule tie{keyed ? d.rank : 0u, options_.tie_break == Tie::path, refining && keep_ties_};
    // The 2^LMC LIDs of a port are meant to take different paths; affinity
    // would pull them together, so their searches go without it.
    const AffinityView affinity =
        fabric_.port(d.port).lid_count() > 1 ? AffinityView{} : affinity_.view(d.vertex);
    if (options_.minimal && !options_.boost_kernel)
      layered_search(graph_, layers, w, tie, tree, affinity);
    else if (!options_.minimal)
      bounded_search(graph_, layers, w, options_.max_extra_hops, options_.hop_weight, tree);
    else
      boost_dag_search(graph_, layers, w, tie, tree);
    for (std::size_t i = 1; i < tree.order.size(); ++i) {
      const Vertex u = tree.order[i];
      col[u] = graph_.out_port[tree.next_edge[u]];
    }
  }

  // Rebuilds a destination's tree from its LFT column (for rip-up). Every
  // vertex must come after its next hop: BFS order does that for minimal
  // trees, a depth sort for bounded ones.
  void tree_from_columns(const Destination& d, const Layers& layers, SearchTree& tree) const {
    tree.order.assign(layers.order, layers.order + layers.reached);
    const PortNum* col = column(d.lid);
    for (std::uint32_t i = 1; i < layers.reached; ++i) {
      const Vertex u = tree.order[i];
      tree.next_edge[u] = graph_.edge_at_port(u, col[u]);
    }
    if (options_.minimal) return;
    std::vector<std::uint32_t> depth(graph_.vertex_count, 0);
    std::vector<bool> known(graph_.vertex_count, false);
    known[layers.root] = true;
    std::vector<Vertex> chain;
    for (const Vertex start : tree.order) {
      Vertex u = start;
      while (!known[u]) {
        chain.push_back(u);
        u = graph_.target[tree.next_edge[u]];
      }
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        depth[*it] = depth[graph_.target[tree.next_edge[*it]]] + 1;
        known[*it] = true;
      }
      chain.clear();
    }
    std::stable_sort(tree.order.begin(), tree.order.end(),
                     [&](Vertex a, Vertex b) { return depth[a] < depth[b]; });
  }

  // A source's own link carries its routes to every load-carrying LID its
  // switch reaches, except its own.
  void add_host_up_loads(const std::vector<double>& reached_loads,
                         std::vector<double>& channel_load) const {
    std::vector<double> own(fabric_.channel_count(), 0.0);
    for (const Destination& d : problem_.destinations)
      if (d.loads && d.vertex != kNoVertexId) own[fabric_.channel(d.port)] += 1.0;
    for (std::size_t s = 0; s < problem_.source_ports.size(); ++s) {
      const ChannelId c = fabric_.channel(problem_.source_ports[s]);
      channel_load[c] += reached_loads[problem_.source_vertex[s]] - own[c];
    }
  }

  std::string unreachable_message(const Destination& d, std::uint32_t reached) const {
    const Port& port = fabric_.port(d.port);
    std::string lids = std::to_string(port.lid);
    if (port.lid_count() > 1) lids += "-" + std::to_string(port.lid + port.lid_count() - 1);
    return "LID " + lids + " (" + describe_node(fabric_, d.port.node) + " port " +
           std::to_string(d.port.port) + "): no route from " +
           std::to_string(graph_.vertex_count - reached) + " of " +
           std::to_string(graph_.vertex_count) + " switches (not connected)";
  }

  const Fabric& fabric_;
  const RoutingOptions& options_;
  RoutingGraph graph_;
  RoutingProblem problem_;
  LinkLoads loads_;
  SearchTree tree_;
  SearchTree old_tree_{graph_.vertex_count};  // scratch of commit_slot
  EndpointAffinity affinity_;                 // empty unless full effort
  std::vector<PortNum> previous_;             // scratch: a column before its refinement
  std::vector<std::pair<std::size_t, std::size_t>> refine_order_;  // port LID ranges
  bool keep_ties_ = false;  // refinement keeps next hops on ties (fast effort)
  WorkerTeam team_;
  std::vector<Slot> slots_;  // speculative refinement: slot 0 is loads_ and tree_
  std::vector<LinkLoads> spare_loads_;
  std::vector<SearchTree> spare_trees_;
  std::vector<PortNum> columns_;  // columns_[lid * vertices + vertex]
  HopLayers layers_;
};

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
  RoutingResult result = router.run();
  result.order = first.order;
  // Neither order wins everywhere (psssp-route.md, "Destination order"):
  // with full effort both are routed and the better estimate is kept.
  if (options.order == Order::automatic && result.full_effort) {
    RoutingOptions second = options;
    second.order = Order::interleaved;
    RoutingResult other = Router(fabric, second).run();
    const std::vector<PortRef>& hosts = router.load_sources();
    const double a =
        estimate_ebb(fabric, result.lfts, hosts, options.estimate_runs, options.estimate_seed);
    const double b =
        estimate_ebb(fabric, other.lfts, hosts, options.estimate_runs, options.estimate_seed);
    if (b > a) {
      result = std::move(other);
      result.order = Order::interleaved;
    }
    result.estimate_switches = a;
    result.estimate_interleaved = b;
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace psssp
