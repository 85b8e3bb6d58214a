// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "online_order.h"

namespace psssp::deadlock {

OnlineTopologicalOrder::OnlineTopologicalOrder(std::size_t vertices)
    : ord_(vertices), at_(vertices), mark_(vertices, 0) {
  for (std::size_t v = 0; v < vertices; ++v) ord_[v] = at_[v] = static_cast<std::uint32_t>(v);
}

void OnlineTopologicalOrder::move_after(std::uint32_t lb, std::uint32_t ub, std::uint32_t stamp) {
  // Positions lb..ub: the unmarked vertices (x last among them) close up in
  // their order, then the marked ones follow in theirs. Every edge keeps its
  // direction: marked vertices have no successors before x other than marked
  // ones, and unmarked ones only move earlier.
  found_.clear();
  std::uint32_t to = lb;
  for (std::uint32_t pos = lb; pos <= ub; ++pos) {
    const std::uint32_t v = at_[pos];
    if (mark_[v] == stamp) {
      found_.push_back(v);
      continue;
    }
    at_[to] = v;
    ord_[v] = to++;
  }
  for (const std::uint32_t v : found_) {
    at_[to] = v;
    ord_[v] = to++;
  }
}

}  // namespace psssp::deadlock
