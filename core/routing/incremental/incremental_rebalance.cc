// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// IncrementalRouter: moves onto light links after the repair (incremental_router.h).
#include <algorithm>
#include <boost/range/iterator_range.hpp>

#include "incremental_router.h"

namespace psssp::routing {

std::uint32_t IncrementalRouter::path_length(const Destination& d, Vertex u, Vertex avoid) const {
  const PortNum* col = column(d.lid);
  std::uint32_t n = 0;
  while (u != d.vertex) {
    const EdgeId e = edge_of(u, col[u]);
    if (e == kNoEdge || u == avoid || n > graph_.vertex_count) return kNone;
    u = graph_.target[e];
    ++n;
  }
  return n;
}

void IncrementalRouter::path_costs(const Destination& d, EdgeId a, EdgeId b, double extra,
                                   double& cost_a, double& cost_b) {
  const auto& routes = loads_.routes();
  const PortNum* col = column(d.lid);
  if (++stamp_ == 0) {
    std::fill(mark_.begin(), mark_.end(), 0);
    stamp_ = 1;
  }
  for (Vertex v = graph_.target[a];; v = graph_.target[graph_.edge_at_port(v, col[v])]) {
    mark_[v] = stamp_;
    if (v == d.vertex) break;
  }
  cost_b = routes[b] + extra;
  Vertex meet = graph_.target[b];
  while (mark_[meet] != stamp_) {
    const EdgeId e = graph_.edge_at_port(meet, col[meet]);
    cost_b += routes[e] + extra;
    meet = graph_.target[e];
  }
  cost_a = routes[a];
  for (Vertex v = graph_.target[a]; v != meet;) {
    const EdgeId e = graph_.edge_at_port(v, col[v]);
    cost_a += routes[e];
    v = graph_.target[e];
  }
}

// Moves d's entry at u onto `alt` if that lowers the moved routes' path cost
// (routes over the links where old and new path differ, the moved routes
// counted on the new one) by more than the margin. The caller makes sure
// alt's path does not pass u.
bool IncrementalRouter::try_move(const Destination& d, Vertex u, EdgeId alt) {
  PortNum* col = column(d.lid);
  const EdgeId now = graph_.edge_at_port(u, col[u]);
  if (now == alt) return false;
  const double margin = incremental_.margin;
  double old_cost, new_cost;
  path_costs(d, now, alt, 0.0, old_cost, new_cost);
  if (!(new_cost + margin < old_cost)) return false;  // even with no routes moved
  build_tree(d);
  const std::uint32_t at_root = root_sources(d);
  loads_.apply_tree(tree_, d, problem_.sources_at.data(), at_root, -1);
  const double flow = loads_.subtree_sources()[u];
  loads_.apply_tree(tree_, d, problem_.sources_at.data(), at_root, +1);
  if (flow == 0.0) return false;
  path_costs(d, now, alt, flow, old_cost, new_cost);
  if (!(new_cost + margin < old_cost)) return false;
  loads_.apply_tree(tree_, d, problem_.sources_at.data(), at_root, -1);
  col[u] = graph_.out_port[alt];
  build_tree(d);
  loads_.apply_tree(tree_, d, problem_.sources_at.data(), at_root, +1);
  return true;
}

// A link carrying well under the mean of its switch's links (a cable that
// came back, or tables made for another fabric) takes on routes: those its
// switch x sends over its other links, and those x's neighbours p send
// elsewhere although x, which forwards them over the light link, is as near
// (the choice of a spine is made below it). A move never makes a path
// longer: the new next hop's path is shorter than the switch's own, so it
// cannot pass the switch (no loops). One entry at a time, each only if
// try_move finds it cheaper; at most `budget` moves.
std::size_t IncrementalRouter::rebalance(std::size_t budget) {
  const auto& routes = loads_.routes();
  std::size_t moved = 0;
  for (Vertex x = 0; x < graph_.vertex_count && moved < budget; ++x) {
    const EdgeId first = graph_.first_edge[x], last = graph_.first_edge[x + 1];
    if (last - first < 2) continue;
    double sum = 0.0;
    for (EdgeId e = first; e < last; ++e) sum += routes[e];
    const double mean = sum / static_cast<double>(last - first), light = 0.5 * mean;
    for (EdgeId e = first; e < last && moved < budget; ++e) {
      if (!(routes[e] + incremental_.margin < light)) continue;
      const Vertex y = graph_.target[e];
      for (const Destination& d : problem_.destinations) {
        if (moved >= budget || routes[e] + incremental_.margin >= mean) break;
        if (!d.loads || d.vertex == kNoVertexId || d.vertex == x) continue;
        if (component_[x] != component_[d.vertex]) continue;
        const std::uint32_t lx = path_length(d, x, kNone);
        if (column(d.lid)[x] != graph_.out_port[e]) {
          const std::uint32_t ly = path_length(d, y, x);
          if (ly != kNone && lx != kNone && ly + 1 <= lx && try_move(d, x, e)) ++moved;
          continue;
        }
        for (const auto re :
             boost::make_iterator_range(boost::out_edges(ReverseVertex{x}, graph_.reverse))) {
          const EdgeId in = graph_.reverse[re];
          const Vertex p = graph_.source[in];
          if (p == d.vertex || moved >= budget) continue;
          const std::uint32_t lp = path_length(d, p, kNone);
          if (lp != kNone && lx + 1 <= lp && try_move(d, p, in)) ++moved;
        }
      }
    }
  }
  return moved;
}

}  // namespace psssp::routing
