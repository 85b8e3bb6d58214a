// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// lay_out_tree (tree_layout.h).
#include "tree_layout.h"

#include <algorithm>

#include "lid_tree.h"  // set_entry, undo_changes

namespace psssp::routing {
namespace {

class Layout {
 public:
  Layout(const RoutingGraph& g, const CableShape& shape, const HopLayers& layers,
         const std::uint32_t* sources_at, PortNum* columns)
      : g_(g),
        layers_(layers),
        sources_at_(sources_at),
        columns_(columns),
        bundles_(shape.bundles),
        level_(shape.tree_level),
        back_(g.edge_count(), kNoEdge),
        stamp_(g.vertex_count, 0),
        via_(g.vertex_count, kNoVertexId),
        via_edge_(g.vertex_count, kNoEdge),
        up_edge_(g.vertex_count, kNoEdge),
        two_level_(shape.tree == TreeLevels::two) {
    // Each edge's way back: the first cable (port order) of its target to
    // its source.
    for (Vertex u = 0; u < g.vertex_count; ++u)
      for (EdgeId e = g.first_edge[u]; e < g.first_edge[u + 1]; ++e)
        back_[e] = nth_cable(g, g.target[e], u, 0);
  }

  // Lays out the routes to d, the k-th LID of its leaf; false (nothing
  // changed) if one would not be minimal. About one step per LFT entry set:
  // the switches below w and below the core are marked first.
  bool lay_out(const Destination& d, std::uint32_t position, std::uint32_t lmc_class,
               std::uint32_t classes, std::vector<ColumnChange>& changes) {
    const Vertex leaf = d.vertex;
    PortNum* col = columns_ + static_cast<std::size_t>(d.lid) * g_.vertex_count;
    const std::uint16_t* order = layers_.order(leaf);
    const std::uint32_t reached = layers_.reached(leaf);
    hops_ = layers_.hops(leaf);
    neighbours_at_level(g_, level_, leaf, 1, above_);
    if (above_.empty()) return false;
    const auto a = static_cast<std::uint32_t>(above_.size());
    // The LMC classes of one port start their turns that many switches
    // apart, so that each class alone is dealt like the base LIDs and the
    // classes of a port leave the leaf through different switches.
    // Where the classes outnumber those switches, the classes that share
    // one take its cores from further on.
    const std::uint32_t rotation = lmc_class * std::max(1u, a / std::max(1u, classes));
    const std::uint32_t k = position + rotation;
    const Vertex w = above_[k % a];
    if (two_level_) return lay_out_two_level(d, k, w, a, col, changes);
    neighbours_at_level(g_, level_, w, 2, cores_);
    if (cores_.empty()) return false;
    const Vertex core = cores_[(lids_through(lmc_class)[w]++ + rotation / a) % cores_.size()];
    const EdgeId core_to_w = nth_cable(g_, core, w, 0);
    if (core_to_w == kNoEdge) return false;  // a cable usable one way only
    std::uint32_t* turns = turns_of(lmc_class);
    const std::uint32_t y = turns[core_to_w]++ + position_below(core, w);
    mark_below(w, core);
    const std::size_t first = changes.size();
    bool minimal = set_toward(col, w, cable(nth_cable(g_, w, leaf, 0), k / a), changes) &&
                   set_toward(col, core, cable(core_to_w, y), changes);
    for (std::uint32_t i = 1; i < reached && minimal; ++i) {
      const Vertex u = order[i];
      if (level_[u] != 0 || sources_at_[u] == 0) continue;
      if (stamp_[u] != stamp_now_) {  // reaches neither w nor a switch below the core
        minimal = false;
        break;
      }
      const Vertex v = via_[u];  // w, or the switch above u below the core
      minimal = via_edge_[u] != kNoEdge &&
                set_toward(col, u, cable(via_edge_[u], turns[via_edge_[u]]++), changes) &&
                (v == w || set_toward(col, v, cable(up_edge_[v], y), changes));
    }
    if (!minimal) undo_changes(changes, first);
    return minimal;
  }

 private:
  // Two levels: the LID comes down from w over cable (k / a) mod X of its
  // bundle into the leaf; every other leaf cabled to w sends it up over the
  // mirror of that cable (the same position in its own bundle to w), so the
  // LIDs that share a switch and a cable down share the cable up too; a
  // leaf not cabled to w keeps psssp's entry (its own minimal path).
  bool lay_out_two_level(const Destination& d, std::uint32_t k, Vertex w, std::uint32_t a,
                         PortNum* col, std::vector<ColumnChange>& changes) {
    const std::size_t first = changes.size();
    const std::uint32_t round = k / a;
    bool minimal = set_toward(col, w, cable(nth_cable(g_, w, d.vertex, 0), round), changes);
    // The leaves cabled to w, each once.
    if (++stamp_now_ == 0) {  // wrapped: forget all
      std::fill(stamp_.begin(), stamp_.end(), 0u);
      stamp_now_ = 1;
    }
    stamp_[d.vertex] = stamp_now_;
    for (EdgeId e = g_.first_edge[w]; e < g_.first_edge[w + 1] && minimal; ++e) {
      const Vertex u = g_.target[e];
      if (level_[u] != 0 || sources_at_[u] == 0 || stamp_[u] == stamp_now_) continue;
      stamp_[u] = stamp_now_;
      minimal = set_toward(col, u, cable(back_[e], round), changes);
    }
    if (!minimal) undo_changes(changes, first);
    return minimal;
  }

  std::uint32_t* turns_of(std::uint32_t lmc_class) {
    if (turns_.size() <= lmc_class) turns_.resize(lmc_class + 1);
    if (turns_[lmc_class].empty()) turns_[lmc_class].assign(g_.edge_count(), 0);
    return turns_[lmc_class].data();
  }
  std::uint32_t* lids_through(std::uint32_t lmc_class) {
    if (lids_through_.size() <= lmc_class) lids_through_.resize(lmc_class + 1);
    if (lids_through_[lmc_class].empty()) lids_through_[lmc_class].assign(g_.vertex_count, 0);
    return lids_through_[lmc_class].data();
  }

  // Marks the leaves below w (they go up to w), then those below the
  // core's other switches, each by the first such switch in the core's port
  // order (they go up to it, and it up to the core).
  void mark_below(Vertex w, Vertex core) {
    if (++stamp_now_ == 0) {  // wrapped: forget all
      std::fill(stamp_.begin(), stamp_.end(), 0u);
      stamp_now_ = 1;
    }
    mark_leaves_below(w, w);
    for (EdgeId e = g_.first_edge[core]; e < g_.first_edge[core + 1]; ++e) {
      const Vertex v = g_.target[e];
      if (v == w || level_[v] + 1 != level_[core] || up_edge_stamp(v)) continue;
      up_edge_[v] = back_[e];
      mark_leaves_below(v, v);
    }
  }

  // Whether v's way up to the core is set for this LID already.
  bool up_edge_stamp(Vertex v) {
    const bool seen = stamp_[v] == stamp_now_;
    stamp_[v] = stamp_now_;
    return seen;
  }

  void mark_leaves_below(Vertex v, Vertex via) {
    for (EdgeId e = g_.first_edge[v]; e < g_.first_edge[v + 1]; ++e) {
      const Vertex u = g_.target[e];
      if (level_[u] != 0 || stamp_[u] == stamp_now_) continue;
      stamp_[u] = stamp_now_;
      via_[u] = via;
      via_edge_[u] = back_[e];
    }
  }

  // The n-th (mod count) of the cables that edge e's bundle holds, in port
  // order (e itself outside a bundle).
  EdgeId cable(EdgeId e, std::uint32_t n) const {
    if (e == kNoEdge) return kNoEdge;
    const std::uint32_t b = bundles_.of_edge[e];
    return b == kNoBundle ? e : bundles_.edge(b, n % bundles_.size(b));
  }

  // Sets u's entry to edge e if e leads one hop closer to the LID's switch.
  bool set_toward(PortNum* col, Vertex u, EdgeId e, std::vector<ColumnChange>& changes) {
    if (e == kNoEdge || hops_[g_.target[e]] + 1 != hops_[u]) return false;
    set_entry(col, u, g_.out_port[e], changes);
    return true;
  }

  // w's place among the core's switches one level down, in port order: the
  // core's bundles start their turns that many cables on, so that the
  // cable each bundle deals once more than the others differs between them
  // (without it a 3-cable tree fell behind ftree; psssp-route.md).
  std::uint32_t position_below(Vertex core, Vertex w) {
    neighbours_at_level(g_, level_, core, level_[core] - 1, below_);
    return static_cast<std::uint32_t>(std::find(below_.begin(), below_.end(), w) - below_.begin());
  }

  const RoutingGraph& g_;
  const HopLayers& layers_;
  const std::uint32_t* sources_at_;
  PortNum* columns_;
  const Bundles& bundles_;
  const std::vector<std::uint32_t>& level_;
  const std::uint16_t* hops_ = nullptr;  // to the current LID's switch
  std::vector<Vertex> above_, cores_, below_;
  std::vector<EdgeId> back_;  // per edge: the first cable back
  // Per LMC class (each class is dealt as the base LIDs are):
  std::vector<std::vector<std::uint32_t>> turns_;  // per first cable of a pair: the next turn
  std::vector<std::vector<std::uint32_t>> lids_through_;  // per aggregation switch
  // This LID's marks: stamp_[u] == stamp_now_ for the switches set below.
  std::uint32_t stamp_now_ = 0;
  std::vector<std::uint32_t> stamp_;
  std::vector<Vertex> via_;       // per leaf: the switch it goes up to
  std::vector<EdgeId> via_edge_;  // and its first cable there
  std::vector<EdgeId> up_edge_;   // per switch below the core: its first cable up to it
  bool two_level_;                // leaves and the switches above them only
};

}  // namespace

bool lay_out_tree(const RoutingGraph& graph, const CableShape& shape, const HopLayers& layers,
                  const std::vector<Destination>& destinations, const std::uint32_t* sources_at,
                  TreeLayoutOrder order, PortNum* columns) {
  if (shape.tree == TreeLevels::none) return false;
  // Each leaf's load-carrying ports in the order of the leaf's ports they
  // are cabled to (their position), the LIDs of a port (LMC) in LID order
  // (their class); leaves in vertex order.
  struct Laid {
    const Destination* d;
    std::uint32_t position, lmc_class, classes;
  };
  std::vector<Laid> laid;
  for (const Destination& d : destinations)
    if (d.loads && d.vertex != kNoVertexId && shape.tree_level[d.vertex] == 0)
      laid.push_back({&d, 0, 0, 1});
  std::sort(laid.begin(), laid.end(), [](const Laid& a, const Laid& b) {
    if (a.d->vertex != b.d->vertex) return a.d->vertex < b.d->vertex;
    if (a.d->final_port != b.d->final_port) return a.d->final_port < b.d->final_port;
    return a.d->lid < b.d->lid;
  });
  for (std::size_t i = 1; i < laid.size(); ++i) {
    const Laid& prev = laid[i - 1];
    if (prev.d->vertex != laid[i].d->vertex) continue;
    if (prev.d->port == laid[i].d->port) {
      laid[i].position = prev.position;
      laid[i].lmc_class = prev.lmc_class + 1;
    } else {
      laid[i].position = prev.position + 1;
    }
  }
  for (std::size_t i = laid.size(); i-- > 0;)
    laid[i].classes = i + 1 < laid.size() && laid[i + 1].d->port == laid[i].d->port
                          ? laid[i + 1].classes
                          : laid[i].lmc_class + 1;
  if (order == TreeLayoutOrder::round_robin)
    std::stable_sort(laid.begin(), laid.end(), [](const Laid& a, const Laid& b) {
      return a.position != b.position ? a.position < b.position : a.lmc_class < b.lmc_class;
    });
  Layout layout(graph, shape, layers, sources_at, columns);
  std::vector<ColumnChange> changes;  // one LID's
  for (const Laid& l : laid) {
    changes.clear();
    if (!layout.lay_out(*l.d, l.position, l.lmc_class, l.classes, changes)) return false;
  }
  return true;
}

}  // namespace psssp::routing
