// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The random bisection both eBB measurements draw: shuffle the ranks with the
// portable shuffle (rng.h), pair the first half with the second position by
// position. The router's estimate and psssp-sim score --pattern bisect draw
// the same pairs for the same seed and run.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "rng.h"

namespace psssp {

// `perm` becomes a uniformly random permutation of 0..n-1 (n <= reciprocals.size()).
void shuffled_ranks(std::size_t n, std::mt19937_64& rng, const ShuffleReciprocals& reciprocals,
                    std::vector<std::uint32_t>& perm);

// Calls add(src, dst) for the pairs of the bisection `perm`: perm[i] ->
// perm[half + i] for i < half (odd size: the last rank idles); both_ways:
// then every pair backwards, in the same order.
template <typename Add>
void bisection_pairs(const std::vector<std::uint32_t>& perm, bool both_ways, Add&& add) {
  const std::size_t half = perm.size() / 2;
  for (std::size_t i = 0; i < half; ++i) add(perm[i], perm[half + i]);
  if (both_ways)
    for (std::size_t i = 0; i < half; ++i) add(perm[half + i], perm[i]);
}

}  // namespace psssp
