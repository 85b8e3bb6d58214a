// Minimal thread helpers: static partitions of an index range, so the work a
// thread does (and thus any result) never depends on scheduling.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace psssp::routing {

inline unsigned effective_threads(unsigned requested) {
  if (requested != 0) return requested;
  return std::max(1u, std::thread::hardware_concurrency());
}

// Calls body(begin, end, worker) on `threads` contiguous slices of [0, n).
template <typename Body>
void parallel_slices(std::size_t n, unsigned threads, Body body) {
  threads = static_cast<unsigned>(
      std::min<std::size_t>(std::max(1u, threads), std::max<std::size_t>(n, 1)));
  if (threads <= 1) {
    body(std::size_t{0}, n, 0u);
    return;
  }
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([=, &body] { body(n * t / threads, n * (t + 1) / threads, t); });
  for (auto& th : pool) th.join();
}

}  // namespace psssp::routing
