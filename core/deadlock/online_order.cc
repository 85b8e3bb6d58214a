// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "online_order.h"

namespace psssp::deadlock {

OnlineTopologicalOrder::OnlineTopologicalOrder(std::size_t vertices)
    : label_(vertices + 2), next_(vertices + 2), prev_(vertices + 2) {
  forward_.mark.assign(vertices, 0);
  backward_.mark.assign(vertices, 0);
  // Sentinels: head (vertices) and tail (vertices + 1) around the list.
  const auto head = static_cast<std::uint32_t>(vertices), tail = head + 1;
  std::uint32_t last = head;
  for (std::uint32_t v = 0; v < vertices; ++v) {
    next_[last] = v;
    prev_[v] = last;
    last = v;
  }
  next_[last] = tail;
  prev_[tail] = last;
  spread_labels();
}

void OnlineTopologicalOrder::spread_labels() {
  const std::size_t n = label_.size() - 2;
  const auto head = static_cast<std::uint32_t>(n), tail = head + 1;
  const std::uint64_t gap = ~std::uint64_t{0} / (n + 1);
  std::uint64_t label = 0;
  for (std::uint32_t v = head; v != tail; v = next_[v], label += gap) label_[v] = label;
  label_[tail] = ~std::uint64_t{0};
}

void OnlineTopologicalOrder::move_after(std::uint32_t before, std::vector<std::uint32_t>& found) {
  // What y reaches, to just after x: every edge keeps its direction. A
  // found vertex's successors before x are found too, its others come
  // after x's successor in the list, and nothing else moves.
  const std::uint32_t after = next_[before];  // not found: it lies after x
  splice(before, after, found);
}

void OnlineTopologicalOrder::move_before(std::uint32_t after, std::vector<std::uint32_t>& found) {
  // What reaches x, to just before y: the mirror image.
  const std::uint32_t before = prev_[after];  // not found: it lies before y
  splice(before, after, found);
}

void OnlineTopologicalOrder::splice(std::uint32_t before, std::uint32_t after,
                                    std::vector<std::uint32_t>& found) {
  std::sort(found.begin(), found.end(),
            [&](std::uint32_t a, std::uint32_t b) { return label_[a] < label_[b]; });
  for (const std::uint32_t v : found) {
    next_[prev_[v]] = next_[v];
    prev_[next_[v]] = prev_[v];
  }
  std::uint32_t at = before;
  for (const std::uint32_t v : found) {
    next_[at] = v;
    prev_[v] = at;
    at = v;
  }
  next_[at] = after;
  prev_[after] = at;
  const std::uint64_t step = (label_[after] - label_[before]) / (found.size() + 1);
  if (step == 0) {
    spread_labels();
    return;
  }
  std::uint64_t label = label_[before];
  for (const std::uint32_t v : found) label_[v] = label += step;
}

}  // namespace psssp::deadlock
