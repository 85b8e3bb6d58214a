// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// A table of SLs per (source LID, destination LID), e.g. what path records
// hand out. Text format, one route per line:
//   # comment (also after the fields)
//   SLID DLID SL
// LIDs 1..0xBFFF and SL 0..15, each decimal or 0x-prefixed hexadecimal.
// Routes not listed use the default SL (0). A pair listed twice with
// different SLs is an error.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sl_source.h"

namespace psssp::deadlock {

class SlFile : public SlSource {
 public:
  explicit SlFile(std::uint8_t default_sl = 0) : default_sl_(default_sl) {}
  // Entries must be sorted by key and unique; see parse_sl_file.
  struct Entry {
    std::uint32_t key;  // slid << 16 | dlid
    std::uint8_t sl;
  };
  SlFile(std::vector<Entry> entries, std::uint8_t default_sl)
      : entries_(std::move(entries)), default_sl_(default_sl) {}

  std::uint8_t sl(Lid slid, Lid dlid) const override;
  std::size_t size() const { return entries_.size(); }

 private:
  std::vector<Entry> entries_;  // sorted: 5 bytes a route, binary search
  std::uint8_t default_sl_;
};

SlFile parse_sl_file(std::string_view content, const std::string& source,
                     std::uint8_t default_sl = 0);
SlFile read_sl_file(const std::string& path, std::uint8_t default_sl = 0);

}  // namespace psssp::deadlock
