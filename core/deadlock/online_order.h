// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Incremental cycle detection: a topological order of a growing DAG kept up
// to date edge by edge. Adding x -> y where y comes before x searches, in
// turn one vertex each way and breadth first, forward from y through the
// vertices ordered before x and backward from x through those ordered after
// y; the edge closes a cycle exactly when the two searches meet. When one
// search runs out first, what it found moves, in its own order, next to the
// other end: the vertices y reaches to just after x, or those reaching x to
// just before y (the two-way search of Bender, Fineman, Gilbert and Tarjan,
// "A new approach to incremental cycle detection", TALG 2015, with the
// one-way moves of Marchetti-Spaccamela, Nanni and Rohnert, IPL 1996).
// Why: on a dragonfly's layers most searches that matter end in a cycle,
// and a depth-first search forward only wandered through hundreds of
// vertices before it reached x; two-way breadth first visits far fewer
// edges (docs/benchmarks/deadlock-free.md, "Why the code is as it is"). The order is a linked list
// with sparse 64-bit labels, so a move touches only the vertices found, not the ones between y and
// x; when a gap runs out, all labels are spread again (rare: they start 2^64 / vertices apart).
// Removing edges never invalidates the order, so the graph may also shrink.
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
  // that position(x) < position(y). The graph without the new edge is seen
  // through succ(v, visit) and pred(v, visit), which call visit(w) for each
  // successor, and each predecessor, w of v.
  template <class Succ, class Pred>
  bool insert(std::uint32_t x, std::uint32_t y, Succ&& succ, Pred&& pred);

 private:
  // One side of the search: the vertices found, in the order found, each
  // stamped in mark; those from `head` on are still to expand (a queue).
  struct Side {
    std::vector<std::uint32_t> mark, found;
    std::size_t head = 0;
    void begin(std::uint32_t v, std::uint32_t stamp) {
      found.assign(1, v);
      head = 0;
      mark[v] = stamp;
    }
    bool done() const { return head == found.size(); }
    // Expands the next vertex through `edges` (succ or pred), finding the
    // neighbours `inside` the window; true when one was found by `other`.
    template <class Edges, class Inside>
    bool expand(const Side& other, std::uint32_t stamp, Edges& edges, Inside&& inside) {
      bool met = false;
      edges(found[head++], [&](std::uint32_t w) {
        if (met || mark[w] == stamp) return;
        if (other.mark[w] == stamp) {
          met = true;
          return;
        }
        if (inside(w)) {
          mark[w] = stamp;
          found.push_back(w);
        }
      });
      return met;
    }
  };
  // The found vertices leave their places and sit, in their old order,
  // between `before` and its successor (move_after), or between the
  // predecessor of `after` and it (move_before).
  void move_after(std::uint32_t before, std::vector<std::uint32_t>& found);
  void move_before(std::uint32_t after, std::vector<std::uint32_t>& found);
  void splice(std::uint32_t before, std::uint32_t after, std::vector<std::uint32_t>& found);
  void spread_labels();

  std::vector<std::uint64_t> label_;  // per vertex, then the head and tail sentinels
  std::vector<std::uint32_t> next_, prev_;
  std::uint32_t epoch_ = 0;  // the stamp of the insertion under way
  Side forward_, backward_;  // from y, and from x
};

template <class Succ, class Pred>
bool OnlineTopologicalOrder::insert(std::uint32_t x, std::uint32_t y, Succ&& succ, Pred&& pred) {
  if (x == y) return false;
  const std::uint64_t lb = label_[y], ub = label_[x];
  if (lb > ub) return true;  // already in order
  if (epoch_ == 0xFFFFFFFFu) {
    std::fill(forward_.mark.begin(), forward_.mark.end(), 0u);
    std::fill(backward_.mark.begin(), backward_.mark.end(), 0u);
    epoch_ = 0;
  }
  const std::uint32_t stamp = ++epoch_;
  // Everything y reaches lies after y and whatever reaches x before x, so a
  // path from y to x only passes vertices between them.
  forward_.begin(y, stamp);
  backward_.begin(x, stamp);
  for (;;) {
    if (forward_.done()) {
      move_after(x, forward_.found);
      return true;
    }
    if (backward_.done()) {
      move_before(y, backward_.found);
      return true;
    }
    // Forward through vertices before x, backward through those after y; a
    // vertex the other side found closes the cycle (x and y themselves too).
    if (forward_.expand(backward_, stamp, succ, [&](std::uint32_t w) { return label_[w] < ub; }) ||
        backward_.expand(forward_, stamp, pred, [&](std::uint32_t w) { return label_[w] > lb; }))
      return false;
  }
}

}  // namespace psssp::deadlock
