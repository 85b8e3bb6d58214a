// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "online_order.h"

#include <algorithm>

namespace psssp::deadlock {

OnlineTopologicalOrder::OnlineTopologicalOrder(std::size_t vertices)
    : ord_(vertices), mark_(vertices, 0) {
  for (std::size_t v = 0; v < vertices; ++v) ord_[v] = static_cast<std::uint32_t>(v);
}

void OnlineTopologicalOrder::reorder() {
  // The affected vertices keep their set of positions; everything that
  // reaches x now comes before everything y reaches, each side in its old order.
  auto by_ord = [&](std::uint32_t a, std::uint32_t b) { return ord_[a] < ord_[b]; };
  std::sort(forward_.begin(), forward_.end(), by_ord);
  std::sort(backward_.begin(), backward_.end(), by_ord);
  slots_.clear();
  for (std::uint32_t v : backward_) slots_.push_back(ord_[v]);
  for (std::uint32_t v : forward_) slots_.push_back(ord_[v]);
  std::sort(slots_.begin(), slots_.end());
  std::size_t i = 0;
  for (std::uint32_t v : backward_) ord_[v] = slots_[i++];
  for (std::uint32_t v : forward_) ord_[v] = slots_[i++];
}

}  // namespace psssp::deadlock
