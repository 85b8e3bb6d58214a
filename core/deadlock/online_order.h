// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Incremental cycle detection: a topological order of a growing DAG kept up
// to date edge by edge. Adding x -> y where y comes before x searches forward
// from y through the vertices ordered before x (reaching x is a cycle), then
// moves what it found, in its own order, to just after x; the vertices in
// between keep their order and close up (Marchetti-Spaccamela, Nanni and
// Rohnert, "Maintaining a topological order under edge insertions", IPL
// 1996). Only one search, and the move is one pass over the positions from
// y's to x's: on the dense dependency graphs of the layer assignment that is
// cheaper than also searching backward from x to move fewer vertices (Pearce
// and Kelly), which this class did before. Removing edges never invalidates
// the order, so the graph may also shrink.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace psssp::deadlock {

class OnlineTopologicalOrder {
 public:
  explicit OnlineTopologicalOrder(std::size_t vertices);

  std::uint32_t position(std::uint32_t v) const { return ord_[v]; }

  // Call before adding edge x -> y to the graph. Returns false, changing
  // nothing, if the graph plus x -> y has a cycle; otherwise reorders so
  // that position(x) < position(y). The graph is seen through
  // succ(v, visit), which calls visit(w) for each successor w of v in the
  // graph without the new edge.
  template <class Succ>
  bool insert(std::uint32_t x, std::uint32_t y, Succ&& succ);

 private:
  void move_after(std::uint32_t lb, std::uint32_t ub, std::uint32_t stamp);

  std::vector<std::uint32_t> ord_;
  std::vector<std::uint32_t> at_;    // the vertex at each position (inverse of ord_)
  std::vector<std::uint32_t> mark_;  // epoch stamps: found by this insertion's search
  std::uint32_t epoch_ = 0;
  std::vector<std::uint32_t> stack_, found_;
};

template <class Succ>
bool OnlineTopologicalOrder::insert(std::uint32_t x, std::uint32_t y, Succ&& succ) {
  if (x == y) return false;
  const std::uint32_t lb = ord_[y], ub = ord_[x];
  if (lb > ub) return true;  // already in order
  if (epoch_ == 0xFFFFFFFFu) {
    std::fill(mark_.begin(), mark_.end(), 0u);
    epoch_ = 0;
  }
  const std::uint32_t stamp = ++epoch_;
  // Everything y reaches lies after y; whatever reaches x lies before x, so
  // only vertices before x can be on a path from y to x.
  stack_.assign(1, y);
  mark_[y] = stamp;
  bool cycle = false;
  while (!cycle && !stack_.empty()) {
    const std::uint32_t v = stack_.back();
    stack_.pop_back();
    succ(v, [&](std::uint32_t w) {
      if (cycle || mark_[w] == stamp) return;
      if (w == x) {
        cycle = true;
        return;
      }
      if (ord_[w] < ub) {
        mark_[w] = stamp;
        stack_.push_back(w);
      }
    });
  }
  if (cycle) return false;
  move_after(lb, ub, stamp);
  return true;
}

}  // namespace psssp::deadlock
