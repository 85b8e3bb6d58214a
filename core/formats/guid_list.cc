// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "guid_list.h"

#include "fabric_io.h"
#include "line_scanner.h"

namespace psssp {

std::vector<Guid> parse_guid_list(std::string_view content, const std::string& source) {
  std::vector<Guid> guids;
  formats::LineScanner lines(content);
  std::string_view line;
  while (lines.next(line)) {
    std::string_view text = formats::trim(line.substr(0, line.find('#')));
    if (text.empty()) continue;
    // Hexadecimal with or without "0x", as OpenSM's strtoull(..., 16) reads it.
    std::string_view digits = text;
    if (formats::starts_with(digits, "0x") || formats::starts_with(digits, "0X"))
      digits.remove_prefix(2);
    const auto guid = formats::parse_hex(digits);
    if (!guid || *guid == 0)
      throw InputError(source, lines.line_number(), "not a GUID: '" + formats::excerpt(text) + "'");
    guids.push_back(*guid);
  }
  return guids;
}

std::vector<Guid> read_guid_list(const std::string& path) {
  return parse_guid_list(read_file(path), path);
}

}  // namespace psssp
