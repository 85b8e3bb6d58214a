// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "pricer.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>
#include <utility>

namespace psssp::bound {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}

Pricer::Pricer(const ChannelNetwork& net, bool minimal)
    : net_(net),
      minimal_(minimal),
      hop_(net.vertex_count()),
      dist_(net.vertex_count()),
      next_arc_(net.vertex_count()) {}

void Pricer::hops(std::uint32_t t) {  // BFS over reversed arcs
  std::fill(hop_.begin(), hop_.end(), kNoVertex);
  queue_.clear();
  hop_[t] = 0;
  queue_.push_back(t);
  for (std::size_t head = 0; head < queue_.size(); ++head) {
    const std::uint32_t v = queue_[head];
    for (std::uint32_t i = net_.in_begin()[v]; i < net_.in_begin()[v + 1]; ++i) {
      const std::uint32_t u = net_.arcs()[net_.in_arcs()[i]].from;
      if (hop_[u] != kNoVertex) continue;
      hop_[u] = hop_[v] + 1;
      queue_.push_back(u);
    }
  }
}

bool Pricer::allowed(std::uint32_t arc) const {
  const Arc& a = net_.arcs()[arc];
  if (hop_[a.from] == kNoVertex || hop_[a.from] == 0) return false;  // never leaves t
  return !minimal_ || hop_[a.from] == hop_[a.to] + 1;
}

double Pricer::price(const std::vector<Commodity>& fs, const std::vector<double>& y,
                     std::vector<double>& length, std::vector<std::vector<ChannelId>>* paths) {
  double capacity_cost = 0.0;
  for (ChannelId c = 0; c < y.size(); ++c)
    if (y[c] > 0.0) capacity_cost += net_.capacity(c) * y[c];
  double bound = 0.0;
  length.assign(fs.size(), 0.0);
  if (paths) paths->assign(fs.size(), {});

  std::vector<std::uint32_t> order;  // switched commodities by destination switch
  for (std::uint32_t f = 0; f < fs.size(); ++f) {
    const Commodity& c = fs[f];
    if (c.kind == Commodity::self) {
      bound += 1.0;
    } else if (c.kind == Commodity::direct) {
      length[f] = y[c.up];
      if (paths) (*paths)[f] = {c.up};
    } else if (c.kind == Commodity::switched) {
      order.push_back(f);
    }
  }
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return fs[a].to < fs[b].to; });

  using Item = std::pair<double, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
  for (std::size_t i = 0; i < order.size();) {
    const std::uint32_t t = fs[order[i]].to;
    hops(t);
    std::fill(dist_.begin(), dist_.end(), kInf);
    dist_[t] = 0.0;
    next_arc_[t] = kNoVertex;
    heap.push({0.0, t});
    while (!heap.empty()) {
      const auto [d, v] = heap.top();
      heap.pop();
      if (d > dist_[v]) continue;
      for (std::uint32_t k = net_.in_begin()[v]; k < net_.in_begin()[v + 1]; ++k) {
        const std::uint32_t ai = net_.in_arcs()[k];
        if (!allowed(ai)) continue;
        const Arc& a = net_.arcs()[ai];
        const double nd = d + y[a.channel];
        if (nd < dist_[a.from]) {
          dist_[a.from] = nd;
          next_arc_[a.from] = ai;
          heap.push({nd, a.from});
        }
      }
    }
    for (; i < order.size() && fs[order[i]].to == t; ++i) {
      const std::uint32_t f = order[i];
      const Commodity& c = fs[f];
      if (dist_[c.from] == kInf) {  // no (minimal) path: the flow gets nothing
        length[f] = kInf;
        continue;
      }
      length[f] = y[c.up] + dist_[c.from] + y[c.down];
      if (!paths) continue;
      std::vector<ChannelId>& p = (*paths)[f];
      p.push_back(c.up);
      for (std::uint32_t v = c.from; v != t;) {
        const Arc& a = net_.arcs()[next_arc_[v]];
        p.push_back(a.channel);
        v = a.to;
      }
      p.push_back(c.down);
    }
  }
  return bound + scaled_bound(capacity_cost, fs, length, &theta_);
}

double scaled_bound(double capacity_cost, const std::vector<Commodity>& fs,
                    const std::vector<double>& length, double* best_theta) {
  // L(theta) = theta C + sum_f cap_f max(0, weight_f - theta len_f) is convex
  // and piecewise linear in theta; its kinks are weight_f / len_f. Walk them
  // in order while the slope (C minus cap_f len_f of the flows still below
  // their kink) is negative.
  struct Kink {
    double theta, slope;  // where flow f stops counting, and its cap_f len_f
  };
  std::vector<Kink> kinks;
  double value = 0.0, slope = capacity_cost;  // at theta = 0
  for (std::size_t f = 0; f < fs.size(); ++f) {
    const Commodity& c = fs[f];
    if (c.kind != Commodity::switched && c.kind != Commodity::direct) continue;
    if (!std::isfinite(length[f])) continue;  // no path: the flow gets nothing
    value += c.cap * c.weight;
    if (length[f] <= 0.0) continue;  // a free path: counts in full at every theta
    kinks.push_back({c.weight / length[f], c.cap * length[f]});
    slope -= c.cap * length[f];
  }
  std::sort(kinks.begin(), kinks.end(),
            [](const Kink& a, const Kink& b) { return a.theta < b.theta; });
  double theta = 0.0;
  for (const Kink& k : kinks) {
    if (slope >= 0.0) break;
    value += slope * (k.theta - theta);
    theta = k.theta;
    slope += k.slope;
  }
  if (best_theta) *best_theta = theta;
  return value;
}

}  // namespace psssp::bound
