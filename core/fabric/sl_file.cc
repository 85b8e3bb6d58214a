// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "sl_file.h"

#include <algorithm>

namespace psssp {

std::uint8_t SlFile::sl(Lid slid, Lid dlid) const {
  const std::uint32_t key = static_cast<std::uint32_t>(slid) << 16 | dlid;
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), key,
                                   [](const Entry& e, std::uint32_t k) { return e.key < k; });
  return it != entries_.end() && it->key == key ? it->sl : default_sl_;
}

}  // namespace psssp
