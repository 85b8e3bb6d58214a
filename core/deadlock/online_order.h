// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Incremental cycle detection: a topological order of a growing DAG kept up
// to date edge by edge. Adding x -> y where y comes before x searches forward
// from y through the vertices ordered before x (reaching x is a cycle), then
// moves what it found, in its own order, to just after x (Marchetti-
// Spaccamela, Nanni and Rohnert, "Maintaining a topological order under edge
// insertions", IPL 1996). The order is a linked list with sparse 64-bit
// labels, so a move touches only the vertices found, not the ones between y
// and x; when a gap runs out, all labels are spread again (rare: they start
// 2^64 / vertices apart). Only one search: on the dense dependency graphs of
// the layer assignment, also searching backward from x to move fewer
// vertices (Pearce and Kelly, as this class did before) costs more. Removing
// edges never invalidates the order, so the graph may also shrink.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace psssp::deadlock {

class OnlineTopologicalOrder {
 public:
  explicit OnlineTopologicalOrder(std::size_t vertices);

  // Ascending along the order (not dense).
  std::uint64_t position(std::uint32_t v) const { return label_[v]; }

  // Call before adding edge x -> y to the graph. Returns false, changing
  // nothing, if the graph plus x -> y has a cycle; otherwise reorders so
  // that position(x) < position(y). The graph is seen through
  // succ(v, visit), which calls visit(w) for each successor w of v in the
  // graph without the new edge.
  template <class Succ>
  bool insert(std::uint32_t x, std::uint32_t y, Succ&& succ);

 private:
  void move_after(std::uint32_t x);
  void spread_labels();

  std::vector<std::uint64_t> label_;  // per vertex, then the head and tail sentinels
  std::vector<std::uint32_t> next_, prev_;
  std::vector<std::uint32_t> mark_;  // epoch stamps: found by this insertion's search
  std::uint32_t epoch_ = 0;
  std::vector<std::uint32_t> stack_, found_;
};

template <class Succ>
bool OnlineTopologicalOrder::insert(std::uint32_t x, std::uint32_t y, Succ&& succ) {
  if (x == y) return false;
  const std::uint64_t ub = label_[x];
  if (label_[y] > ub) return true;  // already in order
  if (epoch_ == 0xFFFFFFFFu) {
    std::fill(mark_.begin(), mark_.end(), 0u);
    epoch_ = 0;
  }
  const std::uint32_t stamp = ++epoch_;
  // Everything y reaches lies after y; whatever reaches x lies before x, so
  // only vertices before x can be on a path from y to x.
  stack_.assign(1, y);
  found_.assign(1, y);
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
      if (label_[w] < ub) {
        mark_[w] = stamp;
        stack_.push_back(w);
        found_.push_back(w);
      }
    });
  }
  if (cycle) return false;
  move_after(x);
  return true;
}

}  // namespace psssp::deadlock
