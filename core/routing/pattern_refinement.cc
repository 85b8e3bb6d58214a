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

namespace psssp {
namespace {

constexpr std::uint32_t kNone = 0xFFFFFFFFu;
constexpr std::uint16_t kFar = 0xFFFF;

struct Link {
  PortNum port;
  std::uint32_t to;  // row of the switch at the far end
  ChannelId channel;
};

}  // namespace

class PatternRefiner::Impl {
 public:
  Impl(const Fabric& fabric, ForwardingTables& lfts, const std::vector<PortRef>& hosts,
       const StructuredPatterns& patterns, double balance_weight)
      : fabric_(fabric), lfts_(lfts), hosts_(hosts), weight_(balance_weight) {
    const std::size_t rows = lfts.switch_count();
    links_.resize(rows);
    port_link_.resize(rows);
    for (std::uint32_t r = 0; r < rows; ++r) {
      const Node& node = fabric.node(lfts.switch_at(r));
      port_link_[r].assign(node.ports.size(), kNone);
      for (PortNum p = 1; p < node.ports.size(); ++p) {
        const Port& port = node.ports[p];
        if (!port.usable() || !fabric.node(port.remote.node).is_switch()) continue;
        const std::uint32_t to = lfts.row_index(port.remote.node);
        if (to == SwitchLidTable::kNoRow) continue;
        port_link_[r][p] = static_cast<std::uint32_t>(links_[r].size());
        links_[r].push_back({p, to, fabric.channel({lfts.switch_at(r), p})});
      }
    }
    host_row_.assign(hosts.size(), kNone);
    hosts_at_.assign(rows, 0);
    for (std::size_t h = 0; h < hosts.size(); ++h) {
      const PortRef remote = fabric.port(hosts[h]).remote;
      if (!remote.valid() || !fabric.node(remote.node).is_switch()) continue;
      host_row_[h] = lfts.row_index(remote.node);
      if (host_row_[h] != kNone) ++hosts_at_[host_row_[h]];
    }
    flows_to_.resize(hosts.size());
    for (const auto& pattern : patterns.patterns)
      for (const auto& phase : pattern.phases) {
        for (const auto& [src, dst] : phase)
          flows_to_[dst].push_back({static_cast<std::uint32_t>(phase_count_), src});
        ++phase_count_;
      }
    channels_ = fabric.channel_count();
    crowd_.assign(phase_count_ * channels_, 0);
    load_.assign(channels_, 0.0);
    next_.assign(rows, kNone);
    subtree_.assign(rows, 0.0);
    through_.resize(rows);
  }

  // Counts the tables' loads and phase flows; false (and nothing will
  // move) where some route is not shortest.
  bool start() {
    for (std::size_t d = 0; d < hosts_.size(); ++d) {
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
    for (std::size_t d = 0; d < hosts_.size(); ++d) moved += refine_destination(d);
    return moved;
  }

  std::vector<double> route_delta() const {
    std::vector<double> delta(load_.size());
    for (std::size_t c = 0; c < load_.size(); ++c) delta[c] = load_[c] - start_load_[c];
    return delta;
  }

 private:
  struct Flow {
    std::uint32_t phase;
    std::uint32_t source;  // host index
  };

  // Least hops to `root` from every row (cables both ways), and the rows
  // farthest first (computed once per root).
  struct Distances {
    std::vector<std::uint16_t> hops;
    std::vector<std::uint32_t> farthest_first;
  };
  const Distances& distances_to(std::uint32_t root) {
    if (distances_.empty()) distances_.resize(links_.size());
    Distances& d = distances_[root];
    if (!d.hops.empty()) return d;
    d.hops.assign(links_.size(), kFar);
    std::vector<std::uint32_t> queue{root};
    d.hops[root] = 0;
    for (std::size_t i = 0; i < queue.size(); ++i)
      for (const Link& l : links_[queue[i]])
        if (d.hops[l.to] == kFar) {
          d.hops[l.to] = static_cast<std::uint16_t>(d.hops[queue[i]] + 1);
          queue.push_back(l.to);
        }
    d.farthest_first.resize(links_.size());
    std::iota(d.farthest_first.begin(), d.farthest_first.end(), 0u);
    std::sort(d.farthest_first.begin(), d.farthest_first.end(),
              [&](std::uint32_t a, std::uint32_t b) { return d.hops[a] > d.hops[b]; });
    return d;
  }

  // next_ for destination d; shortest_ whether every entry leads one hop
  // nearer. False when d is on no switch.
  bool load_tree(std::size_t d) {
    root_ = host_row_[d];
    if (root_ == kNone) return false;
    lid_ = fabric_.port(hosts_[d]).lid;
    now_ = &distances_to(root_);
    hops_now_ = &now_->hops;
    shortest_ = true;
    for (std::uint32_t r = 0; r < links_.size(); ++r) {
      next_[r] = kNone;
      if (r == root_) continue;
      const PortNum p = lfts_.at(r, lid_);
      if (p >= port_link_[r].size() || port_link_[r][p] == kNone) continue;
      next_[r] = port_link_[r][p];
      if ((*hops_now_)[links_[r][next_[r]].to] + 1 != (*hops_now_)[r]) shortest_ = false;
    }
    return true;
  }

  // The route's switch cables from row r to the root.
  void path(std::uint32_t r, std::vector<ChannelId>& out) const {
    out.clear();
    while (r != root_ && next_[r] != kNone) {
      out.push_back(links_[r][next_[r]].channel);
      r = links_[r][next_[r]].to;
    }
  }

  // Adds (sign +1) or removes the loads and phase flows of the tree.
  void count_tree(std::size_t d, double sign) {
    for (std::uint32_t r = 0; r < links_.size(); ++r) {
      if (hosts_at_[r] == 0 || r == root_) continue;
      path(r, path_a_);
      for (const ChannelId c : path_a_) load_[c] += sign * hosts_at_[r];
    }
    for (const Flow& f : flows_to_[d]) {
      const std::uint32_t s = host_row_[f.source];
      if (s == kNone) continue;
      path(s, path_a_);
      for (const ChannelId c : path_a_) {
        std::uint32_t& n = crowd_[f.phase * channels_ + c];
        n = sign > 0 ? n + 1 : n - 1;
      }
    }
  }

  double mean_switch_load() const {
    double sum = 0.0;
    std::size_t n = 0;
    for (const auto& row : links_)
      for (const Link& l : row) {
        sum += load_[l.channel];
        ++n;
      }
    return n == 0 || sum == 0.0 ? 1.0 : sum / static_cast<double>(n);
  }

  // Routes below each row (subtree_) and the phases whose flow crosses it.
  void index_tree(std::size_t d) {
    for (std::uint32_t r = 0; r < links_.size(); ++r) {
      subtree_[r] = r == root_ ? 0.0 : hosts_at_[r];
      through_[r].clear();
    }
    for (const std::uint32_t r : now_->farthest_first)
      if ((*hops_now_)[r] != kFar && r != root_ && next_[r] != kNone)
        subtree_[links_[r][next_[r]].to] += subtree_[r];
    for (const Flow& f : flows_to_[d])
      for (std::uint32_t r = host_row_[f.source]; r != kNone && r != root_ && next_[r] != kNone;
           r = links_[r][next_[r]].to)
        through_[r].push_back(f.phase);
  }

  std::size_t refine_destination(std::size_t d) {
    if (!load_tree(d) || !shortest_) return 0;
    index_tree(d);
    std::size_t moved = 0;
    for (const std::uint32_t u : now_->farthest_first) {
      if (through_[u].empty() || next_[u] == kNone) continue;
      std::uint32_t best = kNone;
      double best_price = 0.0;
      path(u, path_a_);
      for (std::uint32_t l = 0; l < links_[u].size(); ++l) {
        const std::uint32_t w = links_[u][l].to;
        if (l == next_[u] || (*hops_now_)[w] + 1 != (*hops_now_)[u]) continue;
        if (w != root_ && next_[w] == kNone) continue;
        path(w, path_b_);
        path_b_.insert(path_b_.begin(), links_[u][l].channel);
        const double price = move_price(u, path_a_, path_b_);
        if (price < best_price) {
          best_price = price;
          best = l;
        }
      }
      if (best == kNone) continue;
      count_tree(d, -1.0);
      next_[u] = best;
      lfts_.set(lfts_.switch_at(u), lid_, links_[u][best].port);
      count_tree(d, +1.0);
      index_tree(d);
      ++moved;
    }
    return moved;
  }

  // Price of moving row u's subtree from route a to route b (their common
  // tail left out); below 0 the move is made.
  double move_price(std::uint32_t u, const std::vector<ChannelId>& a,
                    const std::vector<ChannelId>& b) const {
    std::size_t na = a.size(), nb = b.size();
    while (na > 0 && nb > 0 && a[na - 1] == b[nb - 1]) {
      --na;
      --nb;
    }
    double crowd = 0.0;
    for (const std::uint32_t k : through_[u]) {
      const std::uint32_t* row = &crowd_[k * channels_];
      for (std::size_t i = 0; i < nb; ++i) crowd += 2.0 * row[b[i]] + 1.0;
      for (std::size_t i = 0; i < na; ++i) crowd -= 2.0 * row[a[i]] - 1.0;
    }
    const double w = subtree_[u];
    double balance = 0.0;
    for (std::size_t i = 0; i < nb; ++i) balance += load_[b[i]] - start_load_[b[i]] + w / 2.0;
    for (std::size_t i = 0; i < na; ++i) balance -= load_[a[i]] - start_load_[a[i]] - w / 2.0;
    return crowd + weight_ * balance / mean_load_;
  }

  const Fabric& fabric_;
  ForwardingTables& lfts_;
  const std::vector<PortRef>& hosts_;
  double weight_;
  std::vector<std::vector<Link>> links_;
  std::vector<std::vector<std::uint32_t>> port_link_;
  std::vector<std::uint32_t> host_row_, hosts_at_;
  std::vector<std::vector<Flow>> flows_to_;
  std::size_t phase_count_ = 0, channels_ = 0;
  std::vector<std::uint32_t> crowd_;  // per (phase, channel): flows
  std::vector<double> load_;          // per channel: routes
  std::vector<double> start_load_;    // load_ before the first move
  double mean_load_ = 1.0;
  std::vector<Distances> distances_;  // per root row, computed when first needed
  const Distances* now_ = nullptr;
  const std::vector<std::uint16_t>* hops_now_ = nullptr;
  std::uint32_t root_ = kNone;
  Lid lid_ = 0;
  bool shortest_ = true;
  std::vector<std::uint32_t> next_;
  std::vector<double> subtree_;
  std::vector<std::vector<std::uint32_t>> through_;
  std::vector<ChannelId> path_a_, path_b_;
};

PatternRefiner::PatternRefiner(const Fabric& fabric, ForwardingTables& lfts,
                               const std::vector<PortRef>& hosts,
                               const StructuredPatterns& patterns, double balance_weight)
    : impl_(std::make_unique<Impl>(fabric, lfts, hosts, patterns, balance_weight)),
      applies_(impl_->start()) {}

PatternRefiner::~PatternRefiner() = default;

std::size_t PatternRefiner::pass() { return applies_ ? impl_->pass() : 0; }

std::vector<double> PatternRefiner::route_delta() const { return impl_->route_delta(); }

}  // namespace psssp
