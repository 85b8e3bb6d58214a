// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Incremental cycle detection: a topological order of a growing DAG kept up
// to date edge by edge (Pearce & Kelly, "A dynamic topological sort algorithm
// for directed acyclic graphs", JEA 2006). An insertion only searches the
// vertices between the two endpoints in the current order, so adding the
// many edges of a layer's dependency graph stays cheap. Removing edges never
// invalidates the order, so the graph may also shrink.
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
  // succ(v, visit) / pred(v, visit), which call visit(w) for each
  // successor / predecessor w of v in the graph without the new edge.
  template <class Succ, class Pred>
  bool insert(std::uint32_t x, std::uint32_t y, Succ&& succ, Pred&& pred);

 private:
  void reorder(std::uint32_t lb, std::uint32_t ub, std::uint32_t fwd, std::uint32_t bwd);

  std::vector<std::uint32_t> ord_;
  std::vector<std::uint32_t> at_;    // the vertex at each position (inverse of ord_)
  std::vector<std::uint32_t> mark_;  // epoch stamps: visited in this insertion
  std::uint32_t epoch_ = 0;
  std::vector<std::uint32_t> forward_, backward_, stack_, back_stack_, slots_;
  std::vector<std::uint64_t> forward_keys_, backward_keys_;  // (position, vertex)
};

template <class Succ, class Pred>
bool OnlineTopologicalOrder::insert(std::uint32_t x, std::uint32_t y, Succ&& succ, Pred&& pred) {
  if (x == y) return false;
  const std::uint32_t lb = ord_[y], ub = ord_[x];
  if (lb > ub) return true;  // already in order
  if (epoch_ >= 0xFFFFFFF0u) {
    std::fill(mark_.begin(), mark_.end(), 0u);
    epoch_ = 0;
  }
  const std::uint32_t fwd = ++epoch_, bwd = ++epoch_;
  // Forward from y through vertices ordered before x, and backward from x
  // through vertices ordered after y, a step of each in turn: meeting x, y or
  // the other search's vertices is a cycle, found after about twice the
  // shorter search. Without a cycle both run to the end and visit what they
  // would alone, so the new order does not depend on the interleaving.
  forward_.clear();
  backward_.clear();
  stack_.assign(1, y);
  back_stack_.assign(1, x);
  mark_[y] = fwd;
  mark_[x] = bwd;
  bool cycle = false;
  while (!cycle && (!stack_.empty() || !back_stack_.empty())) {
    if (!stack_.empty()) {
      const std::uint32_t v = stack_.back();
      stack_.pop_back();
      forward_.push_back(v);
      succ(v, [&](std::uint32_t w) {
        if (cycle || mark_[w] == fwd) return;
        if (mark_[w] == bwd) {  // x, or a vertex that reaches x
          cycle = true;
          return;
        }
        if (ord_[w] < ub) {
          mark_[w] = fwd;
          stack_.push_back(w);
        }
      });
    }
    if (!cycle && !back_stack_.empty()) {
      const std::uint32_t v = back_stack_.back();
      back_stack_.pop_back();
      backward_.push_back(v);
      pred(v, [&](std::uint32_t w) {
        if (cycle || mark_[w] == bwd) return;
        if (mark_[w] == fwd) {  // y, or a vertex y reaches
          cycle = true;
          return;
        }
        if (ord_[w] <= lb) return;
        mark_[w] = bwd;
        back_stack_.push_back(w);
      });
    }
  }
  if (cycle) return false;
  reorder(lb, ub, fwd, bwd);
  return true;
}

}  // namespace psssp::deadlock
