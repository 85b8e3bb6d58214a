// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// A seeded random source whose output is the same on every platform:
// std::uniform_int_distribution and std::shuffle are implementation-defined,
// so generated fabrics would differ between standard libraries.
//
// core/traffic/rng.h (uniform_below, shuffle) is the same idea for the
// simulator, but it is deliberately not used here: its bounded draw rejects
// the draws below 2^64 mod n, this one the UINT64_MAX % n + 1 draws at the
// top. Whenever mt19937_64 lands in either range the two pick different
// numbers, so switching would change some psssp-topo fabrics (and --fail /
// --degrade choices) for some seeds; published fabrics must stay what they
// are. Keep both until the generator's output format version changes.
#pragma once

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace psssp::topo {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : gen_(seed) {}

  // Uniform in [0, n); n > 0. Rejection sampling avoids modulo bias.
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    std::uint64_t x;
    do x = gen_();
    while (x >= limit);
    return x % n;
  }

  // Fisher-Yates.
  template <class T>
  void shuffle(std::vector<T>& v) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(i)]);
  }

  double unit() { return static_cast<double>(gen_() >> 11) * 0x1.0p-53; }

 private:
  std::mt19937_64 gen_;
};

}  // namespace psssp::topo
