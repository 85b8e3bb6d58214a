// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The first pass, the searches and the LFT columns of the router.
#include "router.h"

#include <algorithm>
#include <utility>

#include "lid_columns.h"
#include "lid_tree.h"
#include "parallel/run_workers.h"
#include "parallel_cables.h"
#include "top_regroup.h"
#include "tree_layout.h"

namespace psssp::routing {

TreeLevels Router::tree_levels() const { return shape_ ? shape_->tree : TreeLevels::none; }

bool Router::prepare() {
  if (prepared_) return full_effort_;
  prepared_ = true;
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
  layers_ = HopLayers(graph_, roots, parallel::effective_threads(options_.threads), dag_lists);
  if (options_.minimal) shape_.emplace(graph_, problem_.sources_at.data());
  full_effort_ = full_effort();
  if (options_.neighbour_window > 0) rank_destinations();
  if (full_effort_)
    affinity_ = EndpointAffinity(graph_, problem_.sources_at.data(), options_.source_affinity,
                                 options_.root_affinity);
  return full_effort_;
}

RoutingResult Router::run() {
  prepare();
  RoutingResult result;
  result.unreachable = problem_.unroutable;
  result.full_effort = full_effort_;
  const unsigned passes =
      result.full_effort ? options_.refine_passes : std::min(options_.refine_passes, 1u);

  // Per switch: how many load-carrying LIDs its sources reach (host links).
  std::vector<double> reached_loads(graph_.vertex_count, 0.0);
  std::vector<double> host_down(fabric_.channel_count(), 0.0);
  PortRef current_port;
  std::vector<const Destination*> later;
  for (const Destination& d : problem_.destinations) {
    if (d.vertex == kNoVertexId) continue;
    if (d.port != current_port && by_rank_.empty()) {  // LMC penalties: per port
      loads_.clear_penalties();
      current_port = d.port;
    }
    const Layers layers = layers_of(d);
    if (layers.reached < graph_.vertex_count && d.lid == fabric_.port(d.port).lid)
      result.unreachable.push_back(unreachable_message(d, layers.reached));
    if (!d.loads && fabric_.port(d.port).lid_count() == 1) {
      later.push_back(&d);
      continue;
    }
    const std::size_t index = static_cast<std::size_t>(&d - problem_.destinations.data());
    weigh_window(index, true);
    search(d, layers, tree_, loads_.weights(d), column(d.lid), false);
    if (!by_rank_.empty() && rank_of_[index] != kNotRanked) routed_[rank_of_[index]] = 1;
    if (d.loads) {
      const double arriving = add_tree(d, +1);
      if (d.final_port != 0)
        host_down[fabric_.channel(PortRef{graph_.view.node_of_vertex[d.vertex], d.final_port})] +=
            arriving;
      for (std::uint32_t i = 0; i < layers.reached; ++i) reached_loads[layers.order[i]] += 1.0;
    }
    if (fabric_.port(d.port).lid_count() > 1) loads_.penalize(tree_, lmc_penalty());
  }
  clear_window();

  while (result.refine_passes_run < passes && !result.converged) {
    result.converged = refine() == 0;
    ++result.refine_passes_run;
  }
  route_without_load(std::move(later));
  if (options_.minimal && options_.align_parallel_cables) {
    const TopRegroup regrouped =
        regroup_tops(graph_, *shape_, layers_, problem_.destinations, problem_.sources_at.data(),
                     loads_.routes(), columns_.data());
    if (regrouped.moved) loads_.add_totals(regrouped.route_delta, regrouped.dest_delta);
    const CableAlignment aligned =
        align_parallel_cables(graph_, *shape_, layers_, problem_.destinations,
                              problem_.sources_at.data(), loads_.routes(), columns_.data());
    if (aligned.moved) loads_.add_totals(aligned.route_delta, aligned.dest_delta);
  }
  result.lfts = transpose_columns();

  result.channel_load = host_down;
  for (EdgeId e = 0; e < graph_.edge_count(); ++e)
    result.channel_load[graph_.channel[e]] += loads_.routes()[e];
  add_host_up_loads(reached_loads, result.channel_load);
  return result;
}

RoutingResult Router::laid_out(const RoutingResult& ran, TreeLayoutOrder order, unsigned threads,
                               std::vector<PortNum>* columns_out) const {
  RoutingResult result;
  if (!shape_) return result;
  std::vector<PortNum> columns = columns_;
  if (!lay_out_tree(graph_, *shape_, layers_, problem_.destinations, problem_.sources_at.data(),
                    order, columns.data()))
    return result;
  result.tree_layout = order == TreeLayoutOrder::round_robin
                           ? RoutingResult::TreeLayout::round_robin
                           : RoutingResult::TreeLayout::leaf_by_leaf;
  result.lfts = tables_from_columns(fabric_, graph_.view, columns, threads);
  result.unreachable = ran.unreachable;
  result.full_effort = ran.full_effort;
  result.refine_passes_run = ran.refine_passes_run;
  result.converged = ran.converged;
  result.order = ran.order;
  result.tie_break = ran.tie_break;
  result.tie_slack = ran.tie_slack;
  if (columns_out) *columns_out = std::move(columns);
  return result;
}

std::vector<double> Router::laid_out_loads(const RoutingResult& ran,
                                           const std::vector<PortNum>& laid_columns,
                                           unsigned threads) const {
  // Every LID's routes traced once on the laid-out columns take the place
  // of ran's (the routes between switches; the host links carry the same).
  // Slices of the LIDs on the threads, each into its own counts (whole
  // numbers: the sum does not depend on the threads).
  const std::vector<Destination>& lids = problem_.destinations;
  const unsigned slices = std::max(1u, std::min(threads, static_cast<unsigned>(lids.size())));
  std::vector<std::vector<double>> routes(slices);
  parallel::parallel_slices(
      lids.size(), slices, [&](std::size_t begin, std::size_t end, unsigned slice) {
        routes[slice].assign(graph_.edge_count(), 0.0);
        LidTree tree(graph_, problem_.sources_at.data());
        for (std::size_t i = begin; i < end; ++i) {
          const Destination& d = lids[i];
          if (d.loads && d.vertex != kNoVertexId)
            tree.add_loads(
                layers_.order(d.vertex), layers_.reached(d.vertex),
                laid_columns.data() + static_cast<std::size_t>(d.lid) * graph_.vertex_count, 1.0,
                routes[slice], nullptr);
        }
      });
  std::vector<double> load = ran.channel_load;
  for (EdgeId e = 0; e < graph_.edge_count(); ++e) {
    double laid = 0.0;
    for (const std::vector<double>& r : routes) laid += r[e];
    load[graph_.channel[e]] += laid - loads_.routes()[e];
  }
  return load;
}

Layers Router::layers_of(const Destination& d) {
  Layers l{d.vertex, layers_.hops(d.vertex), layers_.order(d.vertex), layers_.reached(d.vertex)};
  if (layers_.has_dag_lists()) {
    l.dag = layers_.dag(d.vertex);
    l.dag_begin = layers_.dag_begin(d.vertex);
  }
  return l;
}

ForwardingTables Router::transpose_columns() const {
  return tables_from_columns(fabric_, graph_.view, columns_,
                             parallel::effective_threads(options_.threads));
}

bool Router::full_effort() const {
  using Effort = RoutingOptions::Effort;
  if (options_.effort == Effort::fast || !layers_.has_dag_lists()) return false;
  if (options_.effort == Effort::full) return true;
  double visits = 0.0;
  for (const Destination& d : problem_.destinations)
    if (d.vertex != kNoVertexId && d.loads)
      visits += layers_.dag_begin(d.vertex)[layers_.reached(d.vertex)];
  return visits <= options_.full_effort_limit;
}

double Router::add_tree(const Destination& d, int sign) {
  const double arriving =
      loads_.apply_tree(tree_, d, problem_.sources_at.data(), root_sources(d), sign);
  affinity_.apply_tree(graph_, tree_, loads_.subtree_sources(), sign);
  return arriving;
}

void Router::search(const Destination& d, const Layers& layers, SearchTree& tree, const double* w,
                    PortNum* col, bool refining) {
  const RootSearch lend_dag_lists(searching_[d.vertex]);
  using Tie = RoutingOptions::TieBreak;
  const bool keyed = options_.tie_break == Tie::dmodk || options_.tie_break == Tie::path;
  // The 2^LMC LIDs of a port are meant to take different paths; affinity
  // and a tie slack would pull them together, so their searches go without.
  const bool lmc = fabric_.port(d.port).lid_count() > 1;
  // Fast effort refines by keeping ties: a pass changes only columns that
  // improve, which the stay check and the speculation build on.
  const TieRule tie{keyed ? d.rank : 0u, options_.tie_break == Tie::path, refining && !full_effort_,
                    lmc ? 0.0 : options_.tie_slack};
  const AffinityView affinity = lmc ? AffinityView{} : affinity_.view(d.vertex);
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

void Router::tree_from_columns(const Destination& d, const Layers& layers, SearchTree& tree) const {
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

void Router::add_host_up_loads(const std::vector<double>& reached_loads,
                               std::vector<double>& channel_load) const {
  std::vector<double> own(fabric_.channel_count(), 0.0);
  for (const Destination& d : problem_.destinations)
    if (d.loads && d.vertex != kNoVertexId) own[fabric_.channel(d.port)] += 1.0;
  for (std::size_t s = 0; s < problem_.source_ports.size(); ++s) {
    const ChannelId c = fabric_.channel(problem_.source_ports[s]);
    channel_load[c] += reached_loads[problem_.source_vertex[s]] - own[c];
  }
}

std::string Router::unreachable_message(const Destination& d, std::uint32_t reached) const {
  const Port& port = fabric_.port(d.port);
  std::string lids = std::to_string(port.lid);
  if (port.lid_count() > 1) lids += "-" + std::to_string(port.lid + port.lid_count() - 1);
  return "LID " + lids + " (" + describe_node(fabric_, d.port.node) + " port " +
         std::to_string(d.port.port) + "): no route from " +
         std::to_string(graph_.vertex_count - reached) + " of " +
         std::to_string(graph_.vertex_count) + " switches (not connected)";
}

void Router::route_without_load(std::vector<const Destination*> by_root) {
  // Tasks of whole switches (a search reorders its root's DAG lists), about 8
  // per thread, each with its own search tree; no loads change, so neither
  // the order nor the thread running a task matters.
  std::stable_sort(by_root.begin(), by_root.end(), [](const Destination* a, const Destination* b) {
    return a->vertex < b->vertex;
  });
  std::vector<std::size_t> starts;  // where each switch's LIDs begin
  for (std::size_t i = 0; i < by_root.size(); ++i)
    if (i == 0 || by_root[i]->vertex != by_root[i - 1]->vertex) starts.push_back(i);
  starts.push_back(by_root.size());
  const std::size_t switches = starts.size() - 1;
  const std::uint32_t tasks =
      static_cast<std::uint32_t>(std::min<std::size_t>(switches, 8u * team_.size()));
  team_.run_each(tasks, [&](std::uint32_t k) {
    SearchTree tree(graph_.vertex_count);
    const std::size_t from = starts[switches * k / tasks];
    const std::size_t to = starts[switches * (k + 1) / tasks];
    for (std::size_t i = from; i < to; ++i) {
      const Destination& d = *by_root[i];
      search(d, layers_of(d), tree, loads_.weights(d), column(d.lid), false);
    }
  });
}

}  // namespace psssp::routing
