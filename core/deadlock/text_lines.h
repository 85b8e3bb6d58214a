// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Minimal line tokenizing for the SL, SL2VL and layer-table readers: numbered
// lines with '#' comments removed, and whitespace-separated fields.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace psssp::deadlock {

// Iterates lines (newline and trailing '\r' removed); number() is 1-based.
class TextLines {
 public:
  explicit TextLines(std::string_view content) : rest_(content) {}
  bool next(std::string_view& line);
  std::size_t number() const { return number_; }

 private:
  std::string_view rest_;
  std::size_t number_ = 0;
  bool done_ = false;
};

// The line up to a '#' comment, without surrounding blanks.
std::string_view strip_comment(std::string_view line);
std::vector<std::string_view> split_fields(std::string_view line);
// Decimal or 0x-prefixed hexadecimal, at most `max`; nullopt otherwise.
std::optional<std::uint64_t> parse_number(std::string_view text, std::uint64_t max);
// A line shortened for messages.
std::string excerpt(std::string_view line);

}  // namespace psssp::deadlock
