// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Reproducible randomness for the simulator and the router's eBB estimate.
// Every run draws from its own generator, seeded from (seed, run index)
// alone, so results do not depend on thread count or scheduling. Only std::mt19937_64, whose output
// sequence the C++ standard fixes, is used from <random>: std::shuffle and the distributions differ
// between libstdc++ and libc++, so the bounded draw and the Fisher-Yates shuffle are spelled out
// here. topologies/rng.h has its own bounded draw (rejecting other draws), on
// purpose: see there.
#pragma once

#include <cassert>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace psssp {

// splitmix64 finaliser (Steele et al.): a bijective 64-bit mix.
inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The generator of run `run`: mt19937_64 seeded with splitmix64(seed ^
// splitmix64(run)), so neighbouring seeds and runs give unrelated streams.
inline std::mt19937_64 run_rng(std::uint64_t seed, std::uint64_t run) {
  return std::mt19937_64(splitmix64(seed ^ splitmix64(run)));
}

// Uniform integer in [0, bound), bound >= 1, without modulo bias: draws
// below 2^64 mod bound are rejected, the rest are reduced modulo bound.
// (2^64 mod bound is below bound, so only a draw below bound needs it.)
inline std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t bound) {
  assert(bound >= 1 && "uniform_below: empty range");
  for (;;) {
    const std::uint64_t x = rng();
    if (x >= bound || x >= (0 - bound) % bound) return x % bound;
  }
}

// x % d for d >= 2 without a division: `reciprocal` is UINT64_MAX / d, so the
// estimated quotient is at most 2 short and the remainder is corrected.
inline std::uint64_t mod_by_reciprocal(std::uint64_t x, std::uint64_t d, std::uint64_t reciprocal) {
  assert(d >= 2 && reciprocal == UINT64_MAX / d);
  __extension__ typedef unsigned __int128 U128;
  const auto q = static_cast<std::uint64_t>((static_cast<U128>(x) * reciprocal) >> 64);
  std::uint64_t r = x - q * d;
  while (r >= d) r -= d;
  return r;
}

// UINT64_MAX / d for every bound a shuffle of up to n elements draws with.
class ShuffleReciprocals {
 public:
  explicit ShuffleReciprocals(std::size_t n = 0) : r_(n + 1, 0) {
    for (std::size_t d = 2; d <= n; ++d) r_[d] = UINT64_MAX / d;
  }
  std::size_t size() const { return r_.size() - 1; }
  std::uint64_t operator[](std::size_t d) const { return r_[d]; }

 private:
  std::vector<std::uint64_t> r_;
};

// Fisher-Yates, from the back: for i = n-1 .. 1 swap a[i] with a[j], j
// uniform in [0, i] (uniform_below(rng, i + 1)).
template <typename T>
void shuffle(std::vector<T>& a, std::mt19937_64& rng) {
  for (std::size_t i = a.size(); i > 1; --i) {
    const std::size_t j = static_cast<std::size_t>(uniform_below(rng, i));
    std::swap(a[i - 1], a[j]);
  }
}

// The same permutation, the modulo taken with precomputed reciprocals
// (a.size() <= reciprocals.size()).
template <typename T>
void shuffle(std::vector<T>& a, std::mt19937_64& rng, const ShuffleReciprocals& reciprocals) {
  for (std::size_t i = a.size(); i > 1; --i) {
    std::uint64_t x = rng();
    while (x < i && x < (0 - i) % i) x = rng();  // uniform_below's rejection
    const auto j = static_cast<std::size_t>(mod_by_reciprocal(x, i, reciprocals[i]));
    std::swap(a[i - 1], a[j]);
  }
}

}  // namespace psssp
