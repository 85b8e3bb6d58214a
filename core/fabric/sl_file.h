// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// A table of SLs per (source LID, destination LID), e.g. what path records
// hand out; formats/sl_file_reader.h reads one from a file. Routes not listed
// use the default SL.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "sl_source.h"

namespace psssp {

class SlFile : public SlSource {
 public:
  explicit SlFile(std::uint8_t default_sl = 0) : default_sl_(default_sl) {}
  // Entries must be sorted by key and unique (parse_sl_file makes them so).
  struct Entry {
    std::uint32_t key;  // slid << 16 | dlid
    std::uint8_t sl;
  };
  SlFile(std::vector<Entry> entries, std::uint8_t default_sl)
      : entries_(std::move(entries)), default_sl_(default_sl) {}

  std::uint8_t sl(Lid slid, Lid dlid) const override;
  std::size_t size() const { return entries_.size(); }
  // The distinct SLs of the listed routes, ascending.
  std::vector<std::uint8_t> sls_used() const;

 private:
  std::vector<Entry> entries_;  // sorted: 5 bytes a route, binary search
  std::uint8_t default_sl_;
};

}  // namespace psssp
