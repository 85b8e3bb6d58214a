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
  // reaches x now comes before everything y reaches, each side in its old
  // order. Sorted as (position, vertex) keys: no indirection per comparison.
  auto sorted_keys = [&](const std::vector<std::uint32_t>& vs, std::vector<std::uint64_t>& keys) {
    keys.clear();
    for (std::uint32_t v : vs) keys.push_back(static_cast<std::uint64_t>(ord_[v]) << 32 | v);
    std::sort(keys.begin(), keys.end());
  };
  sorted_keys(backward_, backward_keys_);
  sorted_keys(forward_, forward_keys_);
  // The positions of both sides, merged ascending.
  slots_.clear();
  std::size_t bi = 0, fi = 0;
  while (bi < backward_keys_.size() || fi < forward_keys_.size()) {
    const bool from_backward =
        fi == forward_keys_.size() ||
        (bi < backward_keys_.size() && backward_keys_[bi] < forward_keys_[fi]);
    const std::uint64_t k = from_backward ? backward_keys_[bi++] : forward_keys_[fi++];
    slots_.push_back(static_cast<std::uint32_t>(k >> 32));
  }
  std::size_t i = 0;
  for (std::uint64_t k : backward_keys_) ord_[static_cast<std::uint32_t>(k)] = slots_[i++];
  for (std::uint64_t k : forward_keys_) ord_[static_cast<std::uint32_t>(k)] = slots_[i++];
}

}  // namespace psssp::deadlock
