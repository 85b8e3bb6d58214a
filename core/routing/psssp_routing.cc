// The P-SSSP driver: destinations in order, one search each, the tree into
// the LFTs and its routes into the link loads; then optional refinement.
#include "psssp_routing.h"

#include <algorithm>
#include <chrono>

#include "destinations.h"
#include "hop_layers.h"
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
        tree_(graph_.vertex_count) {}

  RoutingResult run() {
    RoutingResult result;
    result.lfts = ForwardingTables(fabric_);
    result.unreachable = problem_.unroutable;
    for (const Destination& d : problem_.destinations)
      if (d.vertex != kNoVertexId)
        result.lfts.set(graph_.view.node_of_vertex[d.vertex], d.lid, d.final_port);

    std::vector<bool> roots(graph_.vertex_count, false);
    for (const Destination& d : problem_.destinations)
      if (d.vertex != kNoVertexId) roots[d.vertex] = true;
    layers_ = HopLayers(graph_, roots, effective_threads(options_.threads));

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
      write(d, result.lfts);
      if (d.loads) {
        const double arriving =
            loads_.apply_tree(tree_, problem_.sources_at.data(), root_sources(d), +1.0);
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

    for (unsigned pass = 0; pass < options_.refine_passes; ++pass) refine(result.lfts);

    result.channel_load = host_down;
    for (EdgeId e = 0; e < graph_.edge_count(); ++e)
      result.channel_load[graph_.channel[e]] += loads_.routes()[e];
    add_host_up_loads(reached_loads, result.channel_load);
    return result;
  }

 private:
  Layers layers_of(const Destination& d) const {
    return Layers{d.vertex, layers_.hops(d.vertex), layers_.order(d.vertex),
                  layers_.reached(d.vertex)};
  }

  // Rip-up and reroute every load-carrying LID once, in routing order. The
  // other LIDs of its port keep their penalty so LMC paths stay apart.
  void refine(ForwardingTables& lfts) {
    const auto& dests = problem_.destinations;
    for (std::size_t begin = 0, end = 0; begin < dests.size(); begin = end) {
      end = begin + 1;
      while (end < dests.size() && dests[end].port == dests[begin].port) ++end;
      if (dests[begin].vertex == kNoVertexId || !dests[begin].loads) continue;
      for (std::size_t i = begin; i < end; ++i) {
        const Destination& d = dests[i];
        const Layers layers = layers_of(d);
        for (std::size_t j = begin; j < end; ++j)
          if (j != i) {
            tree_from_lfts(dests[j], layers, lfts);
            loads_.penalize(tree_, lmc_penalty());
          }
        tree_from_lfts(d, layers, lfts);
        loads_.apply_tree(tree_, problem_.sources_at.data(), root_sources(d), -1.0);
        search(d, layers);
        write(d, lfts);
        loads_.apply_tree(tree_, problem_.sources_at.data(), root_sources(d), +1.0);
        loads_.clear_penalties();
      }
    }
  }

  // Comparable with the heaviest tree a single LID can add to one link.
  double lmc_penalty() const {
    return std::max<double>(1.0, static_cast<double>(problem_.source_ports.size()));
  }

  std::uint32_t root_sources(const Destination& d) const {
    return problem_.sources_at[d.vertex] - (d.self_source ? 1u : 0u);
  }

  void search(const Destination& d, const Layers& layers) {
    const double* w = loads_.weights();
    const TieRule tie{options_.tie_break == RoutingOptions::TieBreak::dmodk ? d.rank : 0u};
    if (!options_.minimal)
      bounded_search(graph_, layers, w, options_.max_extra_hops, options_.hop_weight, tree_);
    else if (options_.boost_kernel)
      boost_dag_search(graph_, layers, w, tie, tree_);
    else
      layered_search(graph_, layers, w, tie, tree_);
  }

  void write(const Destination& d, ForwardingTables& lfts) const {
    for (std::size_t i = 1; i < tree_.order.size(); ++i) {
      const Vertex u = tree_.order[i];
      lfts.set(graph_.view.node_of_vertex[u], d.lid, graph_.out_port[tree_.next_edge[u]]);
    }
  }

  // Rebuilds a destination's tree from its LFT column (for rip-up). Every
  // vertex must come after its next hop: BFS order does that for minimal
  // trees, a depth sort for bounded ones.
  void tree_from_lfts(const Destination& d, const Layers& layers, const ForwardingTables& lfts) {
    tree_.order.assign(layers.order, layers.order + layers.reached);
    for (std::uint32_t i = 1; i < layers.reached; ++i) {
      const Vertex u = tree_.order[i];
      tree_.next_edge[u] = graph_.edge_at_port(u, lfts.get(graph_.view.node_of_vertex[u], d.lid));
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
  HopLayers layers_;
};

}  // namespace

RoutingResult route_psssp(const Fabric& fabric, const RoutingOptions& options) {
  if (fabric.switches().empty()) throw FabricError("the fabric has no switches to route");
  if (!options.minimal && !(options.hop_weight > 0.0))
    throw FabricError("non-minimal routing needs a positive hop weight");
  const auto start = std::chrono::steady_clock::now();
  RoutingResult result = Router(fabric, options).run();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace psssp
