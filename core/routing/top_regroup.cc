// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// regroup_tops (top_regroup.h).
#include "top_regroup.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "cable_bundles.h"

namespace psssp::routing {
namespace {

struct Change {
  PortNum* entry;
  PortNum old_port;
};

class Regrouper {
 public:
  Regrouper(const RoutingGraph& g, const CableShape& shape, const HopLayers& layers,
            const std::uint32_t* sources_at, PortNum* columns)
      : g_(g),
        layers_(layers),
        sources_at_(sources_at),
        columns_(columns),
        bundles_(shape.bundles),
        level_(shape.level),
        next_(g.vertex_count, kNoVertexId),
        sub_(g.vertex_count, 0.0),
        relays_(g.vertex_count, 0) {}

  // Bundles, and switches two levels above the hosts' (cores) to regroup
  // under: otherwise no LID has the shape.
  bool applies() const {
    return !bundles_.empty() && std::find(level_.begin(), level_.end(), 2u) != level_.end();
  }

  // Regroups one LID; adds its load change to route_delta / dest_delta.
  // false if its routes are not of the shape above.
  bool regroup(const Destination& d, std::vector<Change>& changes, std::vector<double>& route_delta,
               std::vector<double>& dest_delta) {
    const Vertex root = d.vertex;
    if (root == kNoVertexId || !d.loads || level_[root] != 0) return false;
    PortNum* col = columns_ + static_cast<std::size_t>(d.lid) * g_.vertex_count;
    const std::uint16_t* order = layers_.order(root);
    const std::uint32_t reached = layers_.reached(root);
    trace(order, reached, col);
    // The cores above the LID that carry routes, all on one way down: w,
    // then a cable into the LID's switch.
    tops_.clear();
    Vertex w = kNoVertexId;
    for (std::uint32_t i = 1; i < reached; ++i) {
      const Vertex u = order[i];
      if (sub_[u] == 0.0 || level_[u] < 2) continue;
      if (level_[u] != 2 || (w != kNoVertexId && next_[u] != w)) return false;
      w = next_[u];
      tops_.push_back(u);
    }
    if (tops_.empty() || w == kNoVertexId || level_[w] != 1 || next_[w] != root) return false;
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
      if (level_[u] != 1 || sub_[u] == 0.0 || next_[u] == kNoVertexId ||
          std::find(tops_.begin(), tops_.end(), next_[u]) == tops_.end())
        continue;
      const EdgeId up = nth_edge(u, core, y);  // the mirror of the way down
      if (up == kNoEdge) {
        undo(changes, first_change);
        return false;
      }
      set(col, u, g_.out_port[up], changes);
    }
    set(col, core, g_.out_port[down], changes);
    // Leaves of other pods: up over cable x of their bundle.
    trace(order, reached, col);
    for (std::uint32_t i = 1; i < reached; ++i) {
      const Vertex u = order[i];
      const Vertex v = next_[u];
      if (level_[u] != 0 || relays_[u] != 0 || v == kNoVertexId || next_[v] != core) continue;
      const EdgeId e = g_.edge_at_port(u, col[u]);
      const std::uint32_t b = bundles_.of_edge[e];
      if (b == kNoBundle || entry_size % bundles_.size(b) != 0) continue;
      set(col, u, g_.out_port[bundles_.edge(b, x % bundles_.size(b))], changes);
    }
    ++turn;
    if (changes.size() == first_change) return true;
    // The load change: this LID's routes per edge after, minus before (the
    // old ports put back for a moment: swapping twice restores).
    add_loads(order, reached, col, +1.0, route_delta, dest_delta);
    for (std::size_t k = changes.size(); k-- > first_change;)
      std::swap(*changes[k].entry, changes[k].old_port);
    add_loads(order, reached, col, -1.0, route_delta, dest_delta);
    for (std::size_t k = first_change; k < changes.size(); ++k)
      std::swap(*changes[k].entry, changes[k].old_port);
    return true;
  }

  // Whether the moves leave some cable busier than the busiest before (plus
  // max(1, 1%)). Allowing a bundle's busiest 1.25x an even share, as the
  // alignment does, lost 1-5% on three other three-level trees.
  bool overloads(const std::vector<double>& routes, const std::vector<double>& delta) const {
    double before = 0.0, after = 0.0;
    for (EdgeId e = 0; e < g_.edge_count(); ++e) {
      before = std::max(before, routes[e]);
      after = std::max(after, routes[e] + delta[e]);
    }
    return after > before + std::max(1.0, 0.01 * before);
  }

  static void undo(std::vector<Change>& changes, std::size_t from) {
    for (std::size_t k = changes.size(); k-- > from;) *changes[k].entry = changes[k].old_port;
    changes.resize(from);
  }

 private:
  // next_ and sub_ (sources routed through each switch) of the LID's tree.
  void trace(const std::uint16_t* order, std::uint32_t reached, const PortNum* col) {
    for (std::uint32_t i = 1; i < reached; ++i) {
      const Vertex u = order[i];
      const EdgeId e = g_.edge_at_port(u, col[u]);
      next_[u] = e == kNoEdge ? kNoVertexId : g_.target[e];
      sub_[u] = sources_at_[u];
      relays_[u] = 0;
    }
    next_[order[0]] = kNoVertexId;
    sub_[order[0]] = 0.0;
    relays_[order[0]] = 0;
    // BFS order from the root: a switch's next hop comes before it.
    for (std::uint32_t i = reached; i-- > 1;) {
      const Vertex u = order[i];
      if (next_[u] == kNoVertexId) continue;
      sub_[next_[u]] += sub_[u];
      ++relays_[next_[u]];
    }
  }

  void add_loads(const std::uint16_t* order, std::uint32_t reached, const PortNum* col, double sign,
                 std::vector<double>& route_delta, std::vector<double>& dest_delta) {
    trace(order, reached, col);
    for (std::uint32_t i = 1; i < reached; ++i) {
      const Vertex u = order[i];
      const EdgeId e = g_.edge_at_port(u, col[u]);
      if (e == kNoEdge || sub_[u] == 0.0) continue;
      route_delta[e] += sign * sub_[u];
      dest_delta[e] += sign;
    }
  }

  void set(PortNum* col, Vertex u, PortNum port, std::vector<Change>& changes) {
    if (col[u] == port) return;
    changes.push_back(Change{&col[u], col[u]});
    col[u] = port;
  }

  // w's (n mod count)-th distinct neighbour one level up, in port order.
  Vertex nth_neighbour_up(Vertex w, std::uint32_t n) {
    up_.clear();
    for (EdgeId e = g_.first_edge[w]; e < g_.first_edge[w + 1]; ++e) {
      const Vertex t = g_.target[e];
      if (level_[t] == level_[w] + 1 && std::find(up_.begin(), up_.end(), t) == up_.end())
        up_.push_back(t);
    }
    return up_.empty() ? kNoVertexId : up_[n % up_.size()];
  }

  // The (n mod count)-th of u's cables to v, in port order; kNoEdge if none.
  EdgeId nth_edge(Vertex u, Vertex v, std::uint32_t n) const {
    if (u == kNoVertexId) return kNoEdge;
    std::uint32_t count = 0;
    for (EdgeId e = g_.first_edge[u]; e < g_.first_edge[u + 1]; ++e) count += g_.target[e] == v;
    if (count == 0) return kNoEdge;
    n %= count;
    for (EdgeId e = g_.first_edge[u]; e < g_.first_edge[u + 1]; ++e)
      if (g_.target[e] == v && n-- == 0) return e;
    return kNoEdge;
  }

  const RoutingGraph& g_;
  const HopLayers& layers_;
  const std::uint32_t* sources_at_;
  PortNum* columns_;
  const Bundles& bundles_;
  const std::vector<std::uint32_t>& level_;
  std::vector<Vertex> next_;
  std::vector<double> sub_;
  std::vector<std::uint32_t> relays_;  // switches whose next hop it is
  std::vector<Vertex> up_;
  std::vector<Vertex> tops_;  // the cores carrying the LID's routes
  // Per (core, w): the next turn. Starting every pair at the same turn
  // measured best (starting each pair of a core one turn later lost 0.5% on
  // a tree with 4 cables per pair).
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
  std::vector<Change> changes;
  for (const Destination& d : destinations)
    result.lids += regrouper.regroup(d, changes, result.route_delta, result.dest_delta);
  if (regrouper.overloads(routes, result.route_delta)) {
    Regrouper::undo(changes, 0);
    return TopRegroup{};
  }
  result.moved = changes.size();
  return result;
}

}  // namespace psssp::routing
