// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "bisection.h"

#include <algorithm>

namespace psssp {

void shuffled_ranks(std::size_t n, std::mt19937_64& rng, const ShuffleReciprocals& reciprocals,
                    std::vector<std::uint32_t>& perm) {
  perm.resize(n);
  for (std::size_t i = 0; i < n; ++i) perm[i] = static_cast<std::uint32_t>(i);
  shuffle(perm, rng, reciprocals);
}

BisectionDraws::BisectionDraws(std::size_t n, unsigned runs, std::uint64_t seed)
    : n_(n), runs_(runs), perms_(n * runs) {
  const ShuffleReciprocals reciprocals(n);
  std::vector<std::uint32_t> perm;
  for (unsigned r = 0; r < runs; ++r) {
    std::mt19937_64 rng = run_rng(seed, r);
    shuffled_ranks(n, rng, reciprocals, perm);
    std::copy(perm.begin(), perm.end(), perms_.begin() + std::size_t{r} * n);
  }
}

}  // namespace psssp
