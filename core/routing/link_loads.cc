// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "link_loads.h"

#include <algorithm>

namespace psssp::routing {

bool uses_capacity(const RoutingGraph& graph, const RoutingOptions& options) {
  using Capacity = RoutingOptions::Capacity;
  if (options.capacity == Capacity::off || graph.edge_count() == 0) return false;
  if (options.capacity == Capacity::on) return true;
  const auto [least, most] = std::minmax_element(graph.capacity.begin(), graph.capacity.end());
  return *least != *most;
}

LinkLoads::LinkLoads(const RoutingGraph& graph, const RoutingOptions& options,
                     const RoutingProblem& problem)
    : graph_(graph),
      dest_weight_(options.dest_weight),
      edges_(graph.edge_count()),
      class_route_(1, 0.0),
      scale_(graph.edge_count(), 1.0),
      routes_(graph.edge_count(), 0.0),
      dests_(graph.edge_count(), 0.0),
      weight_(graph.edge_count(), 0.0),
      penalty_(graph.edge_count(), 0.0),
      sub_(graph.vertex_count, 0.0) {
  if (!uses_capacity(graph, options)) return;
  // Normalised to the fastest link so weights stay in "routes" units.
  const auto [least, most] = std::minmax_element(graph.capacity.begin(), graph.capacity.end());
  const double top = *most;
  // Where every switch cable has one rate the route's own demand is the same
  // on every path of a length: left out, so forcing capacity weights on a
  // uniform fabric changes nothing.
  const bool mixed = *least != *most;
  for (EdgeId e = 0; e < graph.edge_count(); ++e) scale_[e] = top / graph.capacity[e];
  by_demand_ = true;
  classes_ = problem.demand_rates.size();  // at least the switch LIDs' class
  class_route_.assign(classes_, 0.0);
  source_demand_.assign(classes_ * graph.vertex_count, 0.0);
  for (std::size_t c = 0; c < classes_; ++c) {
    const double rate = problem.demand_rates[c];
    class_route_[c] = mixed ? std::min(rate, top) / top : 0.0;
    for (std::size_t i = 0; i < problem.source_ports.size(); ++i)
      source_demand_[c * graph.vertex_count + problem.source_vertex[i]] +=
          std::min({problem.source_rates[i], rate, top}) / top;
  }
  demand_.assign(edges_, 0.0);
  sub_demand_.assign(graph.vertex_count, 0.0);
  weight_.assign(classes_ * edges_, 0.0);
  for (EdgeId e = 0; e < graph.edge_count(); ++e) refresh(e);
}

void LinkLoads::add_totals(const std::vector<double>& routes, const std::vector<double>& dests) {
  for (EdgeId e = 0; e < routes_.size(); ++e) {
    routes_[e] += routes[e];
    dests_[e] += dests[e];
    refresh(e);
  }
}

double LinkLoads::apply_tree(const SearchTree& tree, const Destination& d,
                             const std::uint32_t* sources_at, std::uint32_t root_sources,
                             double sign) {
  const std::size_t n = tree.order.size();
  if (n == 0) return 0.0;
  sub_[tree.order[0]] = root_sources;
  for (std::size_t i = 1; i < n; ++i) sub_[tree.order[i]] = sources_at[tree.order[i]];
  if (by_demand_) {
    const double* own = source_demand_.data() + class_of(d) * graph_.vertex_count;
    sub_demand_[tree.order[0]] = 0.0;  // the root's own sources use no switch link
    for (std::size_t i = 1; i < n; ++i) sub_demand_[tree.order[i]] = own[tree.order[i]];
  }
  // Children come after their next hop in `order`, so a reverse sweep has
  // every subtree complete before it is pushed one hop further.
  for (std::size_t i = n - 1; i >= 1; --i) {
    const Vertex u = tree.order[i];
    if (sub_[u] == 0.0) continue;
    const EdgeId e = tree.next_edge[u];
    routes_[e] += sign * sub_[u];
    dests_[e] += sign;
    sub_[graph_.target[e]] += sub_[u];
    if (by_demand_) {
      demand_[e] += sign * sub_demand_[u];
      sub_demand_[graph_.target[e]] += sub_demand_[u];
    }
    refresh(e);
  }
  return sub_[tree.order[0]];
}

void LinkLoads::penalize(const SearchTree& tree, double amount) {
  for (std::size_t i = 1; i < tree.order.size(); ++i) {
    const EdgeId e = tree.next_edge[tree.order[i]];
    if (penalty_[e] == 0.0) penalized_.push_back(e);
    penalty_[e] += amount;
    refresh(e);
  }
}

void LinkLoads::clear_penalties() {
  for (const EdgeId e : penalized_) {
    penalty_[e] = 0.0;
    refresh(e);
  }
  penalized_.clear();
}

}  // namespace psssp::routing
