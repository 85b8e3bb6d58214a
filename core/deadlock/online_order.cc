// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "online_order.h"

#include <algorithm>

namespace psssp::deadlock {

OnlineTopologicalOrder::OnlineTopologicalOrder(std::size_t vertices)
    : ord_(vertices), at_(vertices), mark_(vertices, 0) {
  for (std::size_t v = 0; v < vertices; ++v) ord_[v] = at_[v] = static_cast<std::uint32_t>(v);
}

void OnlineTopologicalOrder::reorder(std::uint32_t lb, std::uint32_t ub, std::uint32_t fwd,
                                     std::uint32_t bwd) {
  // The affected vertices keep their set of positions; everything that
  // reaches x now comes before everything y reaches, each side in its old
  // order. Both sides lie in positions lb..ub: where they fill much of that
  // range, one pass over it (at_) lists them in order; else sort them as
  // (position, vertex) keys, no indirection per comparison. Either way the
  // same order.
  const std::size_t affected = forward_.size() + backward_.size();
  std::size_t log2 = 1;
  while ((std::size_t{1} << log2) < affected) ++log2;
  forward_keys_.clear();
  backward_keys_.clear();
  if (static_cast<std::size_t>(ub - lb) + 1 <= 2 * affected * log2) {
    for (std::uint32_t pos = lb; pos <= ub; ++pos) {
      const std::uint32_t v = at_[pos];
      if (mark_[v] == fwd)
        forward_keys_.push_back(static_cast<std::uint64_t>(pos) << 32 | v);
      else if (mark_[v] == bwd)
        backward_keys_.push_back(static_cast<std::uint64_t>(pos) << 32 | v);
    }
  } else {
    auto sorted_keys = [&](const std::vector<std::uint32_t>& vs, std::vector<std::uint64_t>& keys) {
      for (std::uint32_t v : vs) keys.push_back(static_cast<std::uint64_t>(ord_[v]) << 32 | v);
      std::sort(keys.begin(), keys.end());
    };
    sorted_keys(backward_, backward_keys_);
    sorted_keys(forward_, forward_keys_);
  }
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
  for (std::uint64_t k : backward_keys_) {
    const auto v = static_cast<std::uint32_t>(k);
    ord_[v] = slots_[i++];
    at_[ord_[v]] = v;
  }
  for (std::uint64_t k : forward_keys_) {
    const auto v = static_cast<std::uint32_t>(k);
    ord_[v] = slots_[i++];
    at_[ord_[v]] = v;
  }
}

}  // namespace psssp::deadlock
