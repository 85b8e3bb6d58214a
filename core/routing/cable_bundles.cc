// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "cable_bundles.h"

#include <algorithm>

namespace psssp::routing {

Bundles find_bundles(const RoutingGraph& g) {
  Bundles b;
  b.of_edge.assign(g.edge_count(), kNoBundle);
  b.index.assign(g.edge_count(), 0);
  b.first.push_back(0);
  std::vector<EdgeId> same;
  for (Vertex u = 0; u < g.vertex_count; ++u) {
    const EdgeId begin = g.first_edge[u], end = g.first_edge[u + 1];
    for (EdgeId e = begin; e < end; ++e) {
      if (b.of_edge[e] != kNoBundle) continue;
      same.clear();
      bool one_rate = true;
      for (EdgeId f = e; f < end; ++f)
        if (g.target[f] == g.target[e]) {
          same.push_back(f);
          one_rate &= g.capacity[f] == g.capacity[e];
        }
      if (same.size() < 2 || !one_rate) continue;
      const auto bundle = static_cast<std::uint32_t>(b.first.size() - 1);
      for (std::size_t i = 0; i < same.size(); ++i) {
        b.of_edge[same[i]] = bundle;
        b.index[same[i]] = static_cast<std::uint32_t>(i);
        b.edges.push_back(same[i]);
      }
      b.first.push_back(static_cast<std::uint32_t>(b.edges.size()));
    }
  }
  return b;
}

std::vector<std::uint32_t> levels_above_hosts(const RoutingGraph& g,
                                              const std::uint32_t* sources_at) {
  std::vector<std::uint32_t> level(g.vertex_count, kNoLevel);
  std::vector<Vertex> frontier, next;
  for (Vertex v = 0; v < g.vertex_count; ++v)
    if (sources_at[v] != 0) {
      level[v] = 0;
      frontier.push_back(v);
    }
  for (std::uint32_t l = 1; !frontier.empty(); ++l) {
    next.clear();
    for (const Vertex u : frontier)
      for (EdgeId e = g.first_edge[u]; e < g.first_edge[u + 1]; ++e)
        if (level[g.target[e]] == kNoLevel) {
          level[g.target[e]] = l;
          next.push_back(g.target[e]);
        }
    frontier.swap(next);
  }
  return level;
}

std::vector<std::uint32_t> layout_levels(const RoutingGraph& g, const std::uint32_t* sources_at,
                                         const std::vector<std::uint32_t>& level) {
  bool hosts_at_both_ends = false;
  for (EdgeId e = 0; e < g.edge_count() && !hosts_at_both_ends; ++e)
    hosts_at_both_ends = level[g.source[e]] == 0 && level[g.target[e]] == 0;
  if (!hosts_at_both_ends) return level;
  // Two sides by BFS colouring (by hand: the graph holds each cable once per
  // direction, and Boost's is_bipartite wants an undirected graph).
  std::vector<std::uint32_t> side(g.vertex_count, kNoLevel);
  std::vector<Vertex> queue;
  double hosts[2] = {0.0, 0.0};
  for (Vertex start = 0; start < g.vertex_count; ++start) {
    if (side[start] != kNoLevel) continue;
    if (start != 0) return level;  // several parts: each would have sides of its own
    side[start] = 0;
    queue.assign(1, start);
    for (std::size_t i = 0; i < queue.size(); ++i) {
      const Vertex u = queue[i];
      hosts[side[u]] += sources_at[u];
      for (EdgeId e = g.first_edge[u]; e < g.first_edge[u + 1]; ++e) {
        const Vertex v = g.target[e];
        if (side[v] == side[u]) return level;  // an odd cycle: no two sides
        if (side[v] != kNoLevel) continue;
        side[v] = 1 - side[u];
        queue.push_back(v);
      }
    }
  }
  const std::uint32_t upper = hosts[0] < hosts[1] ? 0 : 1;
  if (hosts[upper] > kFewUpperHosts * (hosts[0] + hosts[1])) return level;
  for (Vertex v = 0; v < g.vertex_count; ++v) side[v] = side[v] == upper ? 1 : 0;
  return side;
}

TreeLevels which_tree(const RoutingGraph& graph, const std::vector<std::uint32_t>& level) {
  if (std::find(level.begin(), level.end(), 1u) == level.end()) return TreeLevels::none;
  for (const std::uint32_t l : level)
    if (l > 2) return TreeLevels::none;  // deeper, or kNoLevel: no switch with hosts reachable
  // Two levels: cables between the switches above the leaves (a
  // Dragonfly+'s global cables between the spines of its groups) are
  // allowed; the layout sets only entries one hop from a leaf, or of leaves.
  const bool two = std::find(level.begin(), level.end(), 2u) == level.end();
  for (EdgeId e = 0; e < graph.edge_count(); ++e) {
    const std::uint32_t from = level[graph.source[e]], to = level[graph.target[e]];
    if (two && from == 1 && to == 1) continue;
    if (from != to + 1 && to != from + 1) return TreeLevels::none;
  }
  return two ? TreeLevels::two : TreeLevels::three;
}

EdgeId nth_cable(const RoutingGraph& g, Vertex u, Vertex v, std::uint32_t n) {
  if (u >= g.vertex_count) return kNoEdge;  // kNoVertexId
  std::uint32_t count = 0;
  for (EdgeId e = g.first_edge[u]; e < g.first_edge[u + 1]; ++e) count += g.target[e] == v;
  if (count == 0) return kNoEdge;
  n %= count;
  for (EdgeId e = g.first_edge[u]; e < g.first_edge[u + 1]; ++e)
    if (g.target[e] == v && n-- == 0) return e;
  return kNoEdge;
}

void neighbours_at_level(const RoutingGraph& g, const std::vector<std::uint32_t>& level, Vertex u,
                         std::uint32_t at, std::vector<Vertex>& out) {
  out.clear();
  for (EdgeId e = g.first_edge[u]; e < g.first_edge[u + 1]; ++e) {
    const Vertex t = g.target[e];
    if (level[t] == at && std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  }
}

}  // namespace psssp::routing
