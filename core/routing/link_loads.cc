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

LinkLoads::LinkLoads(const RoutingGraph& graph, const RoutingOptions& options)
    : graph_(graph),
      dest_weight_(options.dest_weight),
      scale_(graph.edge_count(), 1.0),
      routes_(graph.edge_count(), 0.0),
      dests_(graph.edge_count(), 0.0),
      weight_(graph.edge_count(), 0.0),
      penalty_(graph.edge_count(), 0.0),
      sub_(graph.vertex_count, 0.0) {
  if (uses_capacity(graph, options)) {
    // Normalised to the fastest link so weights stay in "routes" units.
    const double top = *std::max_element(graph.capacity.begin(), graph.capacity.end());
    for (EdgeId e = 0; e < graph.edge_count(); ++e) scale_[e] = top / graph.capacity[e];
  }
}

void LinkLoads::add_totals(const std::vector<double>& routes, const std::vector<double>& dests) {
  for (EdgeId e = 0; e < routes_.size(); ++e) {
    routes_[e] += routes[e];
    dests_[e] += dests[e];
    refresh(e);
  }
}

double LinkLoads::apply_tree(const SearchTree& tree, const std::uint32_t* sources_at,
                             std::uint32_t root_sources, double sign) {
  const std::size_t n = tree.order.size();
  if (n == 0) return 0.0;
  sub_[tree.order[0]] = root_sources;
  for (std::size_t i = 1; i < n; ++i) sub_[tree.order[i]] = sources_at[tree.order[i]];
  // Children come after their next hop in `order`, so a reverse sweep has
  // every subtree complete before it is pushed one hop further.
  for (std::size_t i = n - 1; i >= 1; --i) {
    const Vertex u = tree.order[i];
    if (sub_[u] == 0.0) continue;
    const EdgeId e = tree.next_edge[u];
    routes_[e] += sign * sub_[u];
    dests_[e] += sign;
    refresh(e);
    sub_[graph_.target[e]] += sub_[u];
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
