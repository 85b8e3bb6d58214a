// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "lid_tree.h"

#include <utility>

namespace psssp::routing {

void set_entry(PortNum* col, Vertex u, PortNum port, std::vector<ColumnChange>& changes) {
  if (col[u] == port) return;
  changes.push_back(ColumnChange{&col[u], col[u]});
  col[u] = port;
}

void undo_changes(std::vector<ColumnChange>& changes, std::size_t from) {
  for (std::size_t k = changes.size(); k-- > from;) *changes[k].entry = changes[k].old_port;
  changes.resize(from);
}

LidTree::LidTree(const RoutingGraph& g, const std::uint32_t* sources_at)
    : g_(g),
      sources_at_(sources_at),
      next_(g.vertex_count, kNoVertexId),
      edge_(g.vertex_count, kNoEdge),
      through_(g.vertex_count, 0.0),
      relays_(g.vertex_count, 0) {}

void LidTree::trace(const std::uint16_t* order, std::uint32_t reached, const PortNum* col) {
  trace_then(order, reached, col, [](Vertex, EdgeId, double) {});
}

template <typename Complete>
void LidTree::trace_then(const std::uint16_t* order, std::uint32_t reached, const PortNum* col,
                         Complete&& complete) {
  for (std::uint32_t i = 1; i < reached; ++i) {
    const Vertex u = order[i];
    const EdgeId e = g_.edge_at_port(u, col[u]);
    edge_[u] = e;
    next_[u] = e == kNoEdge ? kNoVertexId : g_.target[e];
    through_[u] = sources_at_[u];
    relays_[u] = 0;
  }
  next_[order[0]] = kNoVertexId;
  through_[order[0]] = 0.0;
  relays_[order[0]] = 0;
  // Reverse BFS order: a subtree is complete before it moves one hop on.
  for (std::uint32_t i = reached; i-- > 1;) {
    const Vertex u = order[i];
    if (next_[u] == kNoVertexId) continue;
    complete(u, edge_[u], through_[u]);
    through_[next_[u]] += through_[u];
    ++relays_[next_[u]];
  }
}

void LidTree::add_loads(const std::uint16_t* order, std::uint32_t reached, const PortNum* col,
                        double sign, std::vector<double>& route_delta,
                        std::vector<double>* dest_delta) {
  trace_then(order, reached, col, [&](Vertex, EdgeId e, double through) {
    if (through == 0.0) return;
    route_delta[e] += sign * through;
    if (dest_delta) (*dest_delta)[e] += sign;
  });
}

void LidTree::add_change(const std::uint16_t* order, std::uint32_t reached, PortNum* col,
                         std::vector<ColumnChange>& changes, std::size_t from,
                         std::vector<double>& route_delta, std::vector<double>* dest_delta) {
  if (changes.size() == from) return;
  add_loads(order, reached, col, +1.0, route_delta, dest_delta);
  // The old ports back for a moment: swapping twice restores.
  for (std::size_t k = changes.size(); k-- > from;)
    std::swap(*changes[k].entry, changes[k].old_port);
  add_loads(order, reached, col, -1.0, route_delta, dest_delta);
  for (std::size_t k = from; k < changes.size(); ++k)
    std::swap(*changes[k].entry, changes[k].old_port);
}

}  // namespace psssp::routing
