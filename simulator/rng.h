// Reproducible randomness for the simulator. Every run draws from its own
// generator, seeded from (seed, run index) alone, so results do not depend on
// thread count or scheduling. Only std::mt19937_64, whose output sequence the
// C++ standard fixes, is used from <random>: std::shuffle and the
// distributions differ between libstdc++ and libc++, so the bounded draw and
// the Fisher-Yates shuffle are spelled out here.
#pragma once

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace psssp::sim {

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
inline std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t bound) {
  const std::uint64_t threshold = (0 - bound) % bound;
  for (;;) {
    const std::uint64_t x = rng();
    if (x >= threshold) return x % bound;
  }
}

// Fisher-Yates, from the back: for i = n-1 .. 1 swap a[i] with a[j], j
// uniform in [0, i].
template <typename T>
void shuffle(std::vector<T>& a, std::mt19937_64& rng) {
  for (std::size_t i = a.size(); i > 1; --i) {
    const std::size_t j = static_cast<std::size_t>(uniform_below(rng, i));
    std::swap(a[i - 1], a[j]);
  }
}

}  // namespace psssp::sim
