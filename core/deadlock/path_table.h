// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The paths of a layer assignment, one per (source switch, destination
// LID), stored destination-major (d * sources + s), the order every pass
// visits: each path's switch-to-switch dependency count and layer, the
// routes a path of each source switch stands for, and the placement orders.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <utility>
#include <vector>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "layer_assignment.h"

namespace psssp::deadlock {

// Calls f(i) for each i < n with bytes[i] == value, sixteen bytes at a time
// where SSE2 is there, else eight: testing byte by byte mispredicts on about
// every other path, and placing by length scans the table once per length
// (docs/benchmarks/deadlock-free.md, "Why the code is as it is").
template <typename F>
void for_each_byte_equal(const std::uint8_t* bytes, std::size_t n, std::uint8_t value, F&& f) {
  constexpr std::uint64_t kLow7 = 0x7f7f7f7f7f7f7f7fULL;
  const std::uint64_t pattern = 0x0101010101010101ULL * value;
  std::size_t i = 0;
#ifdef __SSE2__
  const __m128i want = _mm_set1_epi8(static_cast<char>(value));
  for (; i + 16 <= n; i += 16) {
    auto mask = static_cast<unsigned>(_mm_movemask_epi8(
        _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + i)), want)));
    while (mask != 0) {
      f(i + static_cast<std::size_t>(__builtin_ctz(mask)));
      mask &= mask - 1;
    }
  }
#endif
  for (; i + 8 <= n; i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, bytes + i, 8);
    const std::uint64_t x = word ^ pattern;  // zero bytes where equal
    std::uint64_t zero = ~(((x & kLow7) + kLow7) | x | kLow7);
    while (zero != 0) {  // little-endian: the lowest set bit is the first byte
      f(i + static_cast<std::size_t>(__builtin_ctzll(zero)) / 8);
      zero &= zero - 1;
    }
  }
  for (; i < n; ++i)
    if (bytes[i] == value) f(i);
}

// An allocator whose vectors leave new elements uninitialised: the path
// tables (several bytes per path, 5.4M paths on the 5256-host dragonfly)
// are written in full by the passes that fill them, on all threads, so
// zeroing them first only cost a serial pass and its page faults.
template <typename T>
struct UninitializedAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <typename U>
  UninitializedAllocator(const UninitializedAllocator<U>&) {}
  template <typename U>
  void construct(U* p) {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
// Bytes(n): n bytes, not set.
using Bytes = std::vector<std::uint8_t, UninitializedAllocator<std::uint8_t>>;

struct PathTable {
  static constexpr std::uint8_t kOwn = 0xFF;  // repeat: the path repeats no other

  PathTable(std::size_t source_count, std::size_t dest_count)
      : sources(source_count),
        dests(dest_count),
        weight(source_count, 0),
        length(source_count * dest_count),
        layer(length.size()) {}

  std::size_t index(std::size_t s, std::size_t d) const { return d * sources + s; }
  // The destination of the path that path (s, d) repeats (repeat != kOwn).
  std::size_t original(std::size_t s, std::size_t d) const {
    return original_of(members.data(), group_first.data(), d, repeat[index(s, d)]);
  }
  // The same from the arrays, for loops that keep them in locals.
  static std::size_t original_of(const std::uint32_t* members, const std::uint32_t* group_first,
                                 std::size_t d, std::uint8_t repeat) {
    return members[group_first[d] + repeat];
  }

  // Calls f(s, d) for every path with dependencies, in the placement order:
  // lid: destination LIDs ascending (by_lid), then sources; longest_first /
  // shortest_first: by dependency count, then destination switch by
  // destination switch (`members`: the switches in node order, each one's
  // LIDs ascending; ascending LIDs when empty),
  // then sources. (A path that repeats another comes after it in every
  // order: the same length, a later LID of the same switch. First fit
  // visits none of them: their lengths read 0 until it is over; then they
  // take the other's length and layer.)
  template <typename F>
  void for_each(LayerOptions::Order order, F&& f) const {
    if (order == LayerOptions::Order::lid) {
      for (std::size_t k = 0; k < dests; ++k) {
        const std::size_t d = by_lid.empty() ? k : by_lid[k];
        for (std::size_t s = 0; s < sources; ++s)
          if (length[index(s, d)] != 0) f(s, d);
      }
      return;
    }
    const bool longest = order == LayerOptions::Order::longest_first;
    for (std::size_t k = 0; k < lengths.size(); ++k) {
      const auto len = static_cast<std::uint8_t>(lengths[longest ? lengths.size() - 1 - k : k]);
      if (members.empty())
        for (std::size_t d = 0; d < dests; ++d) for_each_of_length(len, d, f);
      else
        for (const std::uint32_t d : members) for_each_of_length(len, d, f);
    }
  }
  // Calls f(s, d) for every path toward destination d with `len`
  // dependencies, sources ascending.
  template <typename F>
  void for_each_of_length(std::uint8_t len, std::size_t d, F&& f) const {
    for_each_byte_equal(length.data() + d * sources, sources, len, [&](std::size_t s) { f(s, d); });
  }

  std::size_t sources, dests;
  std::vector<std::size_t> weight;  // per source switch: routes per path
  Bytes length;                     // per path: dependencies, capped at 255 (the survey's)
  std::vector<unsigned> lengths;    // the lengths that occur, ascending
  Bytes layer;                      // per path (first fit's)
  // Per path, where hosts are on every switch and first fit runs (else
  // empty): kOwn, or the place in its destination's group of the
  // destination whose path from the same source takes the same channels
  // (path_survey.h); such a path has the same dependencies, and first fit
  // gives it the same layer.
  Bytes repeat;
  // Destinations group by group (destination_groups.h), where first fit
  // runs: its order; where hosts are on every switch, the repeats' groups.
  std::vector<std::uint32_t> members;
  std::vector<std::uint32_t> group_first;  // per destination: its group's start in members
  // The destinations by LID, where they are not kept so (else empty).
  std::vector<std::uint32_t> by_lid;
};

}  // namespace psssp::deadlock
