// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// align_parallel_cables (parallel_cables.h).
#include "parallel_cables.h"

#include <algorithm>

#include "cable_bundles.h"
#include "lid_tree.h"

namespace psssp::routing {
namespace {

// d-mod-k itself leaves a bundle uneven when its LIDs do not divide by the
// cables (24 LIDs over 3 spines x 3 cables: 3, 3, 2 per spine cable), which
// costs less than the alignment gains; a cable well above its share means
// the LIDs sent this way are not spread over the next bundle.
constexpr double kMaxOverShare = 1.25;

struct Move {
  PortNum* entry;
  PortNum old_port;
  EdgeId from, to;
  double routes;  // sources routed through the entry's switch to its LID
};

class Aligner {
 public:
  Aligner(const RoutingGraph& g, const CableShape& shape, const HopLayers& layers,
          const std::vector<Destination>& dests, const std::uint32_t* sources_at, PortNum* columns)
      : g_(g),
        layers_(layers),
        dests_(dests),
        sources_at_(sources_at),
        columns_(columns),
        bundles_(shape.bundles),
        level_(shape.level),
        tree_(g, sources_at),
        relay_(g.vertex_count, 0) {}

  bool has_bundles() const { return !bundles_.empty(); }
  std::size_t bundle_count() const { return bundles_.first.size() - 1; }

  // One walk over every destination with the bundles in `frozen` left alone.
  void walk(const std::vector<char>& frozen, std::vector<Move>& moves) {
    for (const Destination& d : dests_) {
      if (d.vertex == kNoVertexId) continue;
      const std::size_t first_move = moves.size();
      PortNum* col = columns_ + static_cast<std::size_t>(d.lid) * g_.vertex_count;
      const std::uint16_t* order = layers_.order(d.vertex);
      const std::uint32_t reached = layers_.reached(d.vertex);
      // Switches that forward other switches' routes to d.
      ++stamp_;
      for (std::uint32_t i = 1; i < reached; ++i) {
        const EdgeId e = g_.edge_at_port(order[i], col[order[i]]);
        if (e != kNoEdge) relay_[g_.target[e]] = stamp_;
      }
      // BFS order: v's entry is final before u's, one hop farther, is read.
      for (std::uint32_t i = 1; i < reached; ++i) {
        const Vertex u = order[i];
        const EdgeId e = g_.edge_at_port(u, col[u]);
        if (e == kNoEdge) continue;
        const std::uint32_t be = bundles_.of_edge[e];
        const Vertex v = g_.target[e];
        if (be == kNoBundle || frozen[be] || v == d.vertex || sources_at_[v] != 0) continue;
        const EdgeId f = g_.edge_at_port(v, col[v]);
        if (f == kNoEdge) continue;
        const std::uint32_t bf = bundles_.of_edge[f];
        if (bf == kNoBundle || bundles_.size(bf) % bundles_.size(be) != 0) continue;
        // Only where both bundles carry the same flows: u sends only its
        // own hosts' routes to d, v adds none of its own and the second
        // bundle enters d's switch, so that its cables carry the flows to
        // their own LIDs only; or at the top of an up-down route (u and
        // the switch after v one level above the hosts' switches or more, v
        // one level higher), where the flows up to v are the flows down
        // from it (the cable back down mirrors the one up, as OpenSM's
        // ftree routes). Elsewhere (HyperX, director line chips) aligning
        // lost eBB.
        const Vertex w = g_.target[f];
        const bool into_lid = w == d.vertex && relay_[u] != stamp_;
        const bool at_top = level_[u] != 0 && level_[u] != kNoLevel && level_[w] == level_[u] &&
                            level_[v] == level_[u] + 1;
        if (!into_lid && !at_top) continue;
        const EdgeId to =
            bundles_.edges[bundles_.first[be] + bundles_.index[f] % bundles_.size(be)];
        if (to == e) continue;
        moves.push_back(Move{&col[u], col[u], e, to, 0.0});
        col[u] = g_.out_port[to];
      }
      if (d.loads && moves.size() > first_move) weigh(d, col, moves, first_move);
    }
  }

  // Bundles whose busiest cable the moves overload; false if none.
  bool overloaded(const std::vector<Move>& moves, const std::vector<double>& routes,
                  std::vector<char>& frozen) const {
    std::vector<double> after(routes);
    for (const Move& m : moves) {
      after[m.from] -= m.routes;
      after[m.to] += m.routes;
    }
    bool any = false;
    for (std::uint32_t b = 0; b < bundle_count(); ++b) {
      double before_max = 0.0, after_max = 0.0, total = 0.0;
      for (std::uint32_t i = bundles_.first[b]; i < bundles_.first[b + 1]; ++i) {
        before_max = std::max(before_max, routes[bundles_.edges[i]]);
        after_max = std::max(after_max, after[bundles_.edges[i]]);
        total += routes[bundles_.edges[i]];
      }
      // Moves stay inside their bundle, so its total is the same after.
      const double even_share = total / bundles_.size(b);
      const double limit =
          std::max(before_max + std::max(1.0, 0.01 * before_max), kMaxOverShare * even_share);
      if (after_max > limit) {
        frozen[b] = 1;
        any = true;
      }
    }
    return any;
  }

 private:
  // The routes through each moved entry: the sources of its switch's
  // subtree in d's tree (only cables move, so the tree of switches is the
  // one routed).
  void weigh(const Destination& d, const PortNum* col, std::vector<Move>& moves,
             std::size_t first_move) {
    tree_.trace(layers_.order(d.vertex), layers_.reached(d.vertex), col);
    for (std::size_t k = first_move; k < moves.size(); ++k)
      moves[k].routes = tree_.through(g_.source[moves[k].from]);
  }

  const RoutingGraph& g_;
  const HopLayers& layers_;
  const std::vector<Destination>& dests_;
  const std::uint32_t* sources_at_;
  PortNum* columns_;
  const Bundles& bundles_;
  const std::vector<std::uint32_t>& level_;  // levels_above_hosts
  LidTree tree_;
  std::vector<std::uint32_t> relay_;  // == stamp_: forwards others' routes to the LID
  std::uint32_t stamp_ = 0;
};

void undo(const std::vector<Move>& moves) {
  for (auto m = moves.rbegin(); m != moves.rend(); ++m) *m->entry = m->old_port;
}

}  // namespace

CableAlignment align_parallel_cables(const RoutingGraph& graph, const CableShape& shape,
                                     const HopLayers& layers,
                                     const std::vector<Destination>& destinations,
                                     const std::uint32_t* sources_at,
                                     const std::vector<double>& routes, PortNum* columns) {
  CableAlignment result;
  Aligner aligner(graph, shape, layers, destinations, sources_at, columns);
  if (!aligner.has_bundles()) return result;
  std::vector<char> frozen(aligner.bundle_count(), 0);
  std::vector<Move> moves;
  for (int attempt = 0;; ++attempt) {
    moves.clear();
    aligner.walk(frozen, moves);
    if (!aligner.overloaded(moves, routes, frozen)) break;
    undo(moves);
    if (attempt == 2) {  // still overloading somewhere: leave every cable as routed
      moves.clear();
      break;
    }
  }
  result.route_delta.assign(graph.edge_count(), 0.0);
  result.dest_delta.assign(graph.edge_count(), 0.0);
  for (const Move& m : moves) {
    result.route_delta[m.from] -= m.routes;
    result.route_delta[m.to] += m.routes;
    if (m.routes > 0.0) {
      result.dest_delta[m.from] -= 1.0;
      result.dest_delta[m.to] += 1.0;
    }
  }
  result.moved = moves.size();
  result.frozen = static_cast<std::size_t>(std::count(frozen.begin(), frozen.end(), 1));
  return result;
}

}  // namespace psssp::routing
