// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// regroup_tops (top_regroup.h).
#include "top_regroup.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "cable_bundles.h"
#include "lid_tree.h"

namespace psssp::routing {
namespace {

class Regrouper {
 public:
  Regrouper(const RoutingGraph& g, const CableShape& shape, const HopLayers& layers,
            const std::uint32_t* sources_at, PortNum* columns)
      : g_(g),
        layers_(layers),
        columns_(columns),
        bundles_(shape.bundles),
        level_(shape.level),
        tree_(g, sources_at) {}

  // Bundles, and switches two levels above the hosts' (cores) to regroup
  // under: otherwise no LID has the shape.
  bool applies() const {
    return !bundles_.empty() && std::find(level_.begin(), level_.end(), 2u) != level_.end();
  }

  // Regroups one LID; adds its load change to route_delta / dest_delta.
  // false if its routes are not of the shape above.
  bool regroup(const Destination& d, std::vector<ColumnChange>& changes,
               std::vector<double>& route_delta, std::vector<double>& dest_delta) {
    const Vertex root = d.vertex;
    if (root == kNoVertexId || !d.loads || level_[root] != 0) return false;
    PortNum* col = columns_ + static_cast<std::size_t>(d.lid) * g_.vertex_count;
    const std::uint16_t* order = layers_.order(root);
    const std::uint32_t reached = layers_.reached(root);
    tree_.trace(order, reached, col);
    // The cores above the LID that carry routes, all on one way down: w,
    // then a cable into the LID's switch.
    tops_.clear();
    Vertex w = kNoVertexId;
    for (std::uint32_t i = 1; i < reached; ++i) {
      const Vertex u = order[i];
      if (tree_.through(u) == 0.0 || level_[u] < 2) continue;
      if (level_[u] != 2 || (w != kNoVertexId && tree_.next(u) != w)) return false;
      w = tree_.next(u);
      tops_.push_back(u);
    }
    if (tops_.empty() || w == kNoVertexId || level_[w] != 1 || tree_.next(w) != root) return false;
    const EdgeId entry = g_.edge_at_port(w, col[w]);
    const std::uint32_t entry_bundle = bundles_.of_edge[entry];
    if (entry_bundle == kNoBundle) return false;
    const std::uint32_t x = bundles_.index[entry];
    const std::uint32_t entry_size = bundles_.size(entry_bundle);
    const Vertex core = nth_neighbour_up(w, x);
    if (core == kNoVertexId) return false;
    // The LID's turn among those the core sends down to w: the cables of that
    // bundle are dealt in turn.
    const std::uint64_t pair = std::uint64_t{core} * g_.vertex_count + w;
    std::uint32_t& turn = turns_[pair];
    const std::uint32_t y = turn;
    const EdgeId down = nth_edge(core, w, y);
    if (down == kNoEdge) return false;
    // Every switch sending routes to an old core must reach the new one.
    const std::size_t first_change = changes.size();
    for (std::uint32_t i = 1; i < reached; ++i) {
      const Vertex u = order[i];
      if (level_[u] != 1 || tree_.through(u) == 0.0 || tree_.next(u) == kNoVertexId ||
          std::find(tops_.begin(), tops_.end(), tree_.next(u)) == tops_.end())
        continue;
      const EdgeId up = nth_edge(u, core, y);  // the mirror of the way down
      if (up == kNoEdge) {
        undo_changes(changes, first_change);
        return false;
      }
      set_entry(col, u, g_.out_port[up], changes);
    }
    set_entry(col, core, g_.out_port[down], changes);
    // Leaves of other pods: up over cable x of their bundle.
    tree_.trace(order, reached, col);
    for (std::uint32_t i = 1; i < reached; ++i) {
      const Vertex u = order[i];
      const Vertex v = tree_.next(u);
      if (level_[u] != 0 || tree_.relays(u) != 0 || v == kNoVertexId || tree_.next(v) != core)
        continue;
      const EdgeId e = g_.edge_at_port(u, col[u]);
      const std::uint32_t b = bundles_.of_edge[e];
      if (b == kNoBundle || entry_size % bundles_.size(b) != 0) continue;
      set_entry(col, u, g_.out_port[bundles_.edge(b, x % bundles_.size(b))], changes);
    }
    ++turn;
    tree_.add_change(order, reached, col, changes, first_change, route_delta, &dest_delta);
    return true;
  }

  // Whether the moves leave some cable busier than the busiest before (plus
  // max(1, 1%)). Allowing a bundle's busiest 1.25x an even share, as the
  // alignment does, lost eBB on other three-level trees (psssp-route.md).
  bool overloads(const std::vector<double>& routes, const std::vector<double>& delta) const {
    double before = 0.0, after = 0.0;
    for (EdgeId e = 0; e < g_.edge_count(); ++e) {
      before = std::max(before, routes[e]);
      after = std::max(after, routes[e] + delta[e]);
    }
    return after > before + std::max(1.0, 0.01 * before);
  }

 private:
  // w's (n mod count)-th distinct neighbour one level up, in port order.
  Vertex nth_neighbour_up(Vertex w, std::uint32_t n) {
    neighbours_at_level(g_, level_, w, level_[w] + 1, up_);
    return up_.empty() ? kNoVertexId : up_[n % up_.size()];
  }

  EdgeId nth_edge(Vertex u, Vertex v, std::uint32_t n) const { return nth_cable(g_, u, v, n); }

  const RoutingGraph& g_;
  const HopLayers& layers_;
  PortNum* columns_;
  const Bundles& bundles_;
  const std::vector<std::uint32_t>& level_;
  LidTree tree_;
  std::vector<Vertex> up_;
  std::vector<Vertex> tops_;  // the cores carrying the LID's routes
  // Per (core, w): the next turn. Every pair starts at the same turn:
  // starting each pair of a core one turn later lost eBB on a tree with
  // several cables per pair (psssp-route.md).
  std::unordered_map<std::uint64_t, std::uint32_t> turns_;
};

}  // namespace

TopRegroup regroup_tops(const RoutingGraph& graph, const CableShape& shape, const HopLayers& layers,
                        const std::vector<Destination>& destinations,
                        const std::uint32_t* sources_at, const std::vector<double>& routes,
                        PortNum* columns) {
  TopRegroup result;
  Regrouper regrouper(graph, shape, layers, sources_at, columns);
  if (!regrouper.applies()) return result;
  result.route_delta.assign(graph.edge_count(), 0.0);
  result.dest_delta.assign(graph.edge_count(), 0.0);
  std::vector<ColumnChange> changes;
  for (const Destination& d : destinations)
    result.lids += regrouper.regroup(d, changes, result.route_delta, result.dest_delta);
  if (regrouper.overloads(routes, result.route_delta)) {
    undo_changes(changes, 0);
    return TopRegroup{};
  }
  result.moved = changes.size();
  return result;
}

}  // namespace psssp::routing
