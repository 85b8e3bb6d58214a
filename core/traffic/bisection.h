// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The random bisection both eBB measurements draw: shuffle the ranks with the
// portable shuffle (rng.h), pair the first half with the second position by
// position. The router's estimate and psssp-sim score --pattern bisect draw
// the same pairs for the same seed and run.
#pragma once

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "rng.h"

namespace psssp {

// `perm` becomes a uniformly random permutation of 0..n-1 (n <= reciprocals.size()).
void shuffled_ranks(std::size_t n, std::mt19937_64& rng, const ShuffleReciprocals& reciprocals,
                    std::vector<std::uint32_t>& perm);

// The permutations of runs 0..runs-1 of n ranks (run r shuffled by
// run_rng(seed, r)), drawn once for callers that score several routings on
// the same flows. runs x n x 4 bytes.
class BisectionDraws {
 public:
  BisectionDraws(std::size_t n, unsigned runs, std::uint64_t seed);
  std::size_t ranks() const { return n_; }
  unsigned runs() const { return runs_; }
  const std::uint32_t* run(unsigned r) const { return perms_.data() + std::size_t{r} * n_; }

 private:
  std::size_t n_;
  unsigned runs_;
  std::vector<std::uint32_t> perms_;
};

// Calls add(src, dst) for the pairs of the bisection `perm` of n ranks:
// perm[i] -> perm[half + i] for i < half (odd n: the last rank idles);
// both_ways: then every pair backwards, in the same order.
template <typename Add>
void bisection_pairs(const std::uint32_t* perm, std::size_t n, bool both_ways, Add&& add) {
  const std::size_t half = n / 2;
  for (std::size_t i = 0; i < half; ++i) add(perm[i], perm[half + i]);
  if (both_ways)
    for (std::size_t i = 0; i < half; ++i) add(perm[half + i], perm[i]);
}
template <typename Add>
void bisection_pairs(const std::vector<std::uint32_t>& perm, bool both_ways, Add&& add) {
  bisection_pairs(perm.data(), perm.size(), both_ways, std::forward<Add>(add));
}

}  // namespace psssp
