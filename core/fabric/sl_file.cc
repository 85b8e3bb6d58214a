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

std::vector<std::uint8_t> SlFile::sls_used() const {
  std::uint32_t seen = 0;  // SLs are 0..15
  for (const Entry& e : entries_) seen |= 1u << (e.sl & 31u);
  std::vector<std::uint8_t> out;
  for (unsigned sl = 0; sl < 32; ++sl)
    if (seen & (1u << sl)) out.push_back(static_cast<std::uint8_t>(sl));
  return out;
}

}  // namespace psssp
