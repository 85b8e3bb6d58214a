// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// A move re-points one switch's entry for one host LID to another neighbour
// one hop nearer the destination's switch, so every route stays shortest and
// the tables stay free of loops. Its price: the change in the sum over the
// judged phases and cables of the squared flow counts (each phase is one
// permutation, so the flows a move shifts are one per phase), plus
// balance_weight times the change in the sum of squared differences between
// each link's load and its load before the first move, scaled to the moved
// routes and the mean load: the routing's balance, which the bisections
// see, is the target, not an even spread (evening loads out loses
// bisections against P-SSSP's own routes).
// A pass goes over the destinations once; at each switch that a judged
// flow to the destination crosses, the cheapest alternative below 0 is
// taken.
#include "pattern_refinement.h"

#include <algorithm>
#include <cstdint>
#include <numeric>

#include "lid_tree.h"

namespace psssp::routing {

class PatternRefiner::Impl {
 public:
  Impl(const Fabric& fabric, const RoutingGraph& graph, const HopLayers& layers,
       const RoutingProblem& problem, const ForwardingTables& lfts,
       const StructuredPatterns& patterns, double balance_weight)
      : fabric_(fabric),
        g_(graph),
        layers_(layers),
        problem_(problem),
        lfts_(lfts),
        weight_(balance_weight),
        tree_(graph, problem.sources_at.data()),
        row_(graph.vertex_count, SwitchLidTable::kNoRow),
        col_(graph.vertex_count, 0) {
    for (Vertex v = 0; v < g_.vertex_count; ++v)
      row_[v] = lfts.row_index(g_.view.node_of_vertex[v]);
    flows_to_.resize(problem.source_ports.size());
    for (const auto& pattern : patterns.patterns)
      for (const auto& phase : pattern.phases) {
        for (const auto& [src, dst] : phase)
          flows_to_[dst].push_back({static_cast<std::uint32_t>(phase_count_), src});
        ++phase_count_;
      }
    channels_ = fabric.channel_count();
    crowd_.assign(phase_count_ * channels_, 0);
    load_.assign(channels_, 0.0);
    phases_through_.resize(g_.vertex_count);
    farthest_first_.resize(g_.vertex_count);
  }

  // Counts the tables' loads and phase flows; false (and nothing will
  // move) where some route is not shortest.
  bool start() {
    for (std::size_t d = 0; d < flows_to_.size(); ++d) {
      if (!load_tree(d)) continue;
      if (!shortest_) return false;
      count_tree(d, +1.0);
    }
    start_load_ = load_;
    mean_load_ = mean_switch_load();
    return true;
  }

  std::size_t pass() {
    std::size_t moved = 0;
    for (std::size_t d = 0; d < flows_to_.size(); ++d) moved += refine_destination(d);
    return moved;
  }

  const ForwardingTables& tables() const { return lfts_; }

  std::vector<double> route_delta() const {
    std::vector<double> delta(load_.size());
    for (std::size_t c = 0; c < load_.size(); ++c) delta[c] = load_[c] - start_load_[c];
    return delta;
  }

 private:
  struct Flow {
    std::uint32_t phase;
    std::uint32_t source;  // load source index
  };

  // The edge u's entry takes, kNoEdge if it leads to no switch.
  EdgeId edge_of(Vertex u) const { return g_.edge_at_port(u, col_[u]); }

  // Destination d's column (col_) and tree; shortest_ whether every entry
  // leads one hop nearer. False when d is on no switch.
  bool load_tree(std::size_t d) {
    root_ = problem_.source_vertex[d];
    if (root_ == kNoVertexId) return false;
    lid_ = fabric_.port(problem_.source_ports[d]).lid;
    hops_ = layers_.hops(root_);
    // Entries that are no port of the switch (kNoPath) read as port 0,
    // which leads to no switch either.
    for (Vertex v = 0; v < g_.vertex_count; ++v) {
      const PortNum p = row_[v] == SwitchLidTable::kNoRow ? 0 : lfts_.at(row_[v], lid_);
      col_[v] = p < g_.port_stride ? p : 0;
    }
    tree_.trace(layers_.order(root_), layers_.reached(root_), col_.data());
    shortest_ = true;
    for (Vertex v = 0; v < g_.vertex_count; ++v) {
      if (v == root_) continue;
      const EdgeId e = edge_of(v);
      if (e != kNoEdge && hops_[g_.target[e]] + 1 != hops_[v]) shortest_ = false;
    }
    return true;
  }

  // The route's switch cables from u to the root.
  void path(Vertex u, std::vector<ChannelId>& out) const {
    out.clear();
    for (EdgeId e; u != root_ && (e = edge_of(u)) != kNoEdge; u = g_.target[e])
      out.push_back(g_.channel[e]);
  }

  // Adds (sign +1) or removes the loads and phase flows of the tree.
  void count_tree(std::size_t d, double sign) {
    for (Vertex u = 0; u < g_.vertex_count; ++u) {
      const EdgeId e = edge_of(u);
      if (u != root_ && e != kNoEdge && hops_[u] != kUnreached)
        load_[g_.channel[e]] += sign * tree_.through(u);
    }
    for (const Flow& f : flows_to_[d]) {
      const Vertex s = problem_.source_vertex[f.source];
      if (s == kNoVertexId) continue;
      path(s, path_a_);
      for (const ChannelId c : path_a_) {
        std::uint32_t& n = crowd_[f.phase * channels_ + c];
        n = sign > 0 ? n + 1 : n - 1;
      }
    }
  }

  double mean_switch_load() const {
    double sum = 0.0;
    for (EdgeId e = 0; e < g_.edge_count(); ++e) sum += load_[g_.channel[e]];
    return g_.edge_count() == 0 || sum == 0.0 ? 1.0 : sum / g_.edge_count();
  }

  // The phases whose flow crosses each switch, and the switches farthest
  // from the root first (fixed for a root: the moves keep every route
  // shortest).
  void index_tree(std::size_t d) {
    for (Vertex u = 0; u < g_.vertex_count; ++u) phases_through_[u].clear();
    for (const Flow& f : flows_to_[d]) {
      EdgeId e;
      for (Vertex u = problem_.source_vertex[f.source];
           u != kNoVertexId && u != root_ && (e = edge_of(u)) != kNoEdge; u = g_.target[e])
        phases_through_[u].push_back(f.phase);
    }
  }
  void order_farthest_first() {
    std::iota(farthest_first_.begin(), farthest_first_.end(), 0u);
    std::sort(farthest_first_.begin(), farthest_first_.end(),
              [&](Vertex a, Vertex b) { return hops_[a] > hops_[b]; });
  }

  std::size_t refine_destination(std::size_t d) {
    if (!load_tree(d) || !shortest_) return 0;
    index_tree(d);
    order_farthest_first();
    std::size_t moved = 0;
    for (const Vertex u : farthest_first_) {
      if (phases_through_[u].empty() || edge_of(u) == kNoEdge) continue;
      EdgeId best = kNoEdge;
      double best_price = 0.0;
      path(u, path_a_);
      for (EdgeId e = g_.first_edge[u]; e < g_.first_edge[u + 1]; ++e) {
        const Vertex w = g_.target[e];
        if (e == edge_of(u) || hops_[w] + 1 != hops_[u]) continue;
        if (w != root_ && edge_of(w) == kNoEdge) continue;
        path(w, path_b_);
        path_b_.insert(path_b_.begin(), g_.channel[e]);
        const double price = move_price(u, path_a_, path_b_);
        if (price < best_price) {
          best_price = price;
          best = e;
        }
      }
      if (best == kNoEdge) continue;
      count_tree(d, -1.0);
      col_[u] = g_.out_port[best];
      lfts_.set(g_.view.node_of_vertex[u], lid_, g_.out_port[best]);
      tree_.trace(layers_.order(root_), layers_.reached(root_), col_.data());
      count_tree(d, +1.0);
      index_tree(d);
      ++moved;
    }
    return moved;
  }

  // Price of moving u's subtree from route a to route b (their common tail
  // left out); below 0 the move is made.
  double move_price(Vertex u, const std::vector<ChannelId>& a,
                    const std::vector<ChannelId>& b) const {
    std::size_t na = a.size(), nb = b.size();
    while (na > 0 && nb > 0 && a[na - 1] == b[nb - 1]) {
      --na;
      --nb;
    }
    double crowd = 0.0;
    for (const std::uint32_t k : phases_through_[u]) {
      const std::uint32_t* row = &crowd_[k * channels_];
      for (std::size_t i = 0; i < nb; ++i) crowd += 2.0 * row[b[i]] + 1.0;
      for (std::size_t i = 0; i < na; ++i) crowd -= 2.0 * row[a[i]] - 1.0;
    }
    const double w = tree_.through(u);
    double balance = 0.0;
    for (std::size_t i = 0; i < nb; ++i) balance += load_[b[i]] - start_load_[b[i]] + w / 2.0;
    for (std::size_t i = 0; i < na; ++i) balance -= load_[a[i]] - start_load_[a[i]] - w / 2.0;
    return crowd + weight_ * balance / mean_load_;
  }

  const Fabric& fabric_;
  const RoutingGraph& g_;
  const HopLayers& layers_;
  const RoutingProblem& problem_;
  ForwardingTables lfts_;
  double weight_;
  LidTree tree_;                    // the current destination's
  std::vector<std::uint32_t> row_;  // per vertex: its row of lfts_
  std::vector<PortNum> col_;        // the current destination's entries
  std::vector<std::vector<Flow>> flows_to_;
  std::size_t phase_count_ = 0, channels_ = 0;
  std::vector<std::uint32_t> crowd_;  // per (phase, channel): flows
  std::vector<double> load_;          // per channel: routes
  std::vector<double> start_load_;    // load_ before the first move
  double mean_load_ = 1.0;
  Vertex root_ = kNoVertexId;
  Lid lid_ = 0;
  const std::uint16_t* hops_ = nullptr;  // to root_
  bool shortest_ = true;
  std::vector<std::vector<std::uint32_t>> phases_through_;
  std::vector<Vertex> farthest_first_;
  std::vector<ChannelId> path_a_, path_b_;
};

PatternRefiner::PatternRefiner(const Fabric& fabric, const RoutingGraph& graph,
                               const HopLayers& layers, const RoutingProblem& problem,
                               const ForwardingTables& lfts, const StructuredPatterns& patterns,
                               double balance_weight)
    : impl_(std::make_unique<Impl>(fabric, graph, layers, problem, lfts, patterns, balance_weight)),
      applies_(impl_->start()) {}

PatternRefiner::~PatternRefiner() = default;
PatternRefiner::PatternRefiner(PatternRefiner&&) noexcept = default;
PatternRefiner& PatternRefiner::operator=(PatternRefiner&&) noexcept = default;

std::size_t PatternRefiner::pass() { return applies_ ? impl_->pass() : 0; }

const ForwardingTables& PatternRefiner::tables() const { return impl_->tables(); }

std::vector<double> PatternRefiner::route_delta() const { return impl_->route_delta(); }

}  // namespace psssp::routing
