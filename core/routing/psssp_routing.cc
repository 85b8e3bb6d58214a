// The P-SSSP driver: destinations in order, one search each, the tree into
// the LFTs and its routes into the link loads; then optional refinement.
#include "psssp_routing.h"

#include <algorithm>
#include <chrono>

#include "destinations.h"
#include "ebb_estimate.h"
#include "endpoint_affinity.h"
#include "hop_layers.h"
#include "layer_team.h"
#include "link_loads.h"
#include "parallel.h"
#include "routing_graph.h"
#include "search_kernels.h"

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
        team_(options.minimal && !options.boost_kernel ? effective_threads(options.threads) : 1),
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
      search(d, layers);
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

  // Rip-up and reroute every load-carrying LID once, in routing order. The
  // other LIDs of its port keep their penalty so LMC paths stay apart.
  // Returns how many LIDs got a different table column.
  std::size_t refine() {
    std::size_t changed = 0;
    const auto& dests = problem_.destinations;
    if (refine_order_.empty()) refine_order_ = refinement_order();
    for (const auto& [begin, end] : refine_order_) {
      for (std::size_t i = begin; i < end; ++i) {
        const Destination& d = dests[i];
        const Layers layers = layers_of(d);
        for (std::size_t j = begin; j < end; ++j)
          if (j != i) {
            tree_from_columns(dests[j], layers);
            loads_.penalize(tree_, lmc_penalty());
          }
        tree_from_columns(d, layers);
        add_tree(d, -1);
        previous_.assign(column(d.lid), column(d.lid) + graph_.vertex_count);
        search(d, layers);
        if (!std::equal(previous_.begin(), previous_.end(), column(d.lid))) ++changed;
        add_tree(d, +1);
        loads_.clear_penalties();
      }
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

  // Searches and writes the destination's LFT column.
  void search(const Destination& d, const Layers& layers) {
    const double* w = loads_.weights();
    using Tie = RoutingOptions::TieBreak;
    const bool keyed = options_.tie_break == Tie::dmodk || options_.tie_break == Tie::path;
    const TieRule tie{keyed ? d.rank : 0u, options_.tie_break == Tie::path};
    PortNum* col = column(d.lid);
    // The 2^LMC LIDs of a port are meant to take different paths; affinity
    // would pull them together, so their searches go without it.
    const AffinityView affinity =
        fabric_.port(d.port).lid_count() > 1 ? AffinityView{} : affinity_.view(d.vertex);
    if (options_.minimal && !options_.boost_kernel) {
      tree_.order.resize(layers.reached);
      tree_.order[0] = layers.root;
      tree_.dist[layers.root] = 0.0;
      tree_.next_edge[layers.root] = kNoEdge;
      tree_.rank[layers.root] = 0;
      const LayerTeam::AfterLayer rank =
          tie.by_path ? LayerTeam::AfterLayer(
                            [&](std::uint32_t previous, std::uint32_t begin, std::uint32_t end) {
                              rank_layer_by_position(tree_, previous, begin, end);
                            })
                      : LayerTeam::AfterLayer();
      team_.run_layers(
          layers.hops, layers.order, layers.reached,
          [&](std::uint32_t begin, std::uint32_t end) {
            layered_search_range(graph_, layers, w, tie, tree_, begin, end, affinity);
            for (std::uint32_t i = begin; i < end; ++i) {
              const Vertex u = tree_.order[i];
              col[u] = graph_.out_port[tree_.next_edge[u]];
            }
          },
          rank);
      return;
    }
    if (!options_.minimal)
      bounded_search(graph_, layers, w, options_.max_extra_hops, options_.hop_weight, tree_);
    else
      boost_dag_search(graph_, layers, w, tie, tree_);
    for (std::size_t i = 1; i < tree_.order.size(); ++i) {
      const Vertex u = tree_.order[i];
      col[u] = graph_.out_port[tree_.next_edge[u]];
    }
  }

  // Rebuilds a destination's tree from its LFT column (for rip-up). Every
  // vertex must come after its next hop: BFS order does that for minimal
  // trees, a depth sort for bounded ones.
  void tree_from_columns(const Destination& d, const Layers& layers) {
    tree_.order.assign(layers.order, layers.order + layers.reached);
    const PortNum* col = column(d.lid);
    for (std::uint32_t i = 1; i < layers.reached; ++i) {
      const Vertex u = tree_.order[i];
      tree_.next_edge[u] = graph_.edge_at_port(u, col[u]);
    }
    if (options_.minimal) return;
    std::vector<std::uint32_t> depth(graph_.vertex_count, 0);
    std::vector<bool> known(graph_.vertex_count, false);
    known[layers.root] = true;
    std::vector<Vertex> chain;
    for (const Vertex start : tree_.order) {
      Vertex u = start;
      while (!known[u]) {
        chain.push_back(u);
        u = graph_.target[tree_.next_edge[u]];
      }
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        depth[*it] = depth[graph_.target[tree_.next_edge[*it]]] + 1;
        known[*it] = true;
      }
      chain.clear();
    }
    std::stable_sort(tree_.order.begin(), tree_.order.end(),
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
  EndpointAffinity affinity_;      // empty unless full effort
  std::vector<PortNum> previous_;  // scratch: a column before its refinement
  std::vector<std::pair<std::size_t, std::size_t>> refine_order_;  // port LID ranges
  LayerTeam team_;
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
