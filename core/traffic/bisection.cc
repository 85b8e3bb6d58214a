// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "bisection.h"

namespace psssp {

void shuffled_ranks(std::size_t n, std::mt19937_64& rng, const ShuffleReciprocals& reciprocals,
                    std::vector<std::uint32_t>& perm) {
  perm.resize(n);
  for (std::size_t i = 0; i < n; ++i) perm[i] = static_cast<std::uint32_t>(i);
  shuffle(perm, rng, reciprocals);
}

}  // namespace psssp
