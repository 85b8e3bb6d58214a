// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "endpoint_affinity.h"

namespace psssp::routing {

EndpointAffinity::EndpointAffinity(const RoutingGraph& graph, const std::uint32_t* sources_at,
                                   double source, double root)
    : root_(root), edges_(graph.edge_count()), row_of_(graph.vertex_count, kNoRow) {
  if (!(source > 0.0) && !(root > 0.0)) return;
  std::uint32_t rows = 0;
  for (Vertex u = 0; u < graph.vertex_count; ++u)
    if (sources_at[u] > 0) {
      row_of_[u] = rows++;
      hosts_.push_back(sources_at[u]);
      source_scale_.push_back(source / sources_at[u]);
    }
  count_.assign(static_cast<std::size_t>(rows) * edges_, 0);
}

AffinityView EndpointAffinity::view(Vertex root) const {
  AffinityView v;
  if (!enabled()) return v;
  v.counts = count_.data();
  v.row_of = row_of_.data();
  v.source_scale = source_scale_.data();
  v.edges = edges_;
  if (root_ > 0.0 && row_of_[root] != kNoRow) {
    v.root_counts = &count_[static_cast<std::size_t>(row_of_[root]) * edges_];
    v.root_scale = root_ / hosts_[row_of_[root]];
  }
  return v;
}

void EndpointAffinity::apply_tree(const RoutingGraph& graph, const SearchTree& tree,
                                  const double* sub, std::int64_t sign) {
  if (!enabled() || tree.order.empty()) return;
  const Vertex root = tree.order[0];
  auto add = [&](std::uint32_t r, EdgeId e, std::int64_t routes) {
    const std::size_t i = static_cast<std::size_t>(r) * edges_ + e;
    count_[i] = static_cast<std::uint32_t>(static_cast<std::int64_t>(count_[i]) + sign * routes);
  };
  // Every host of a source switch has one route to this LID along its path.
  for (std::size_t i = 1; i < tree.order.size(); ++i) {
    const Vertex u = tree.order[i];
    const std::uint32_t r = row_of_[u];
    if (r == kNoRow) continue;
    const std::int64_t hosts = hosts_[r];
    for (Vertex v = u; v != root; v = graph.target[tree.next_edge[v]])
      add(r, tree.next_edge[v], hosts);
  }
  // The routes arriving at the destination's host, over each tree edge.
  const std::uint32_t r = row_of_[root];
  if (r == kNoRow) return;
  for (std::size_t i = 1; i < tree.order.size(); ++i) {
    const Vertex u = tree.order[i];
    if (sub[u] > 0.0) add(r, tree.next_edge[u], static_cast<std::int64_t>(sub[u]));
  }
}

}  // namespace psssp::routing
