// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Reader of SL files; the format is described in sl_file_reader.h.
#include "sl_file_reader.h"

#include <algorithm>
#include <vector>

#include "formats/fabric_io.h"
#include "formats/line_scanner.h"

namespace psssp {

namespace {

// The routes in file order; line_of (when given) gets each one's line number.
std::vector<SlFile::Entry> scan(std::string_view content, const std::string& source,
                                std::vector<std::size_t>* line_of, bool& ascending) {
  using formats::parse_number;
  std::vector<SlFile::Entry> entries;
  // One route a line: reserving saves the doubling copies of tens of
  // millions of routes (a path-SL dump of 4096 hosts has 20 million).
  entries.reserve(static_cast<std::size_t>(std::count(content.begin(), content.end(), '\n')) + 1);
  ascending = true;
  formats::LineScanner lines(content);
  std::string_view line;
  while (lines.next(line)) {
    const std::string_view text = formats::strip_comment(line);
    if (text.empty()) continue;
    const auto fields = formats::split_words(text);
    auto bad = [&](const std::string& what) {
      formats::fail(source, lines.line_number(), what, line);
    };
    if (fields.size() != 3) bad("expected \"SLID DLID SL\"");
    const auto slid = parse_number(fields[0], kMaxUnicastLid);
    const auto dlid = parse_number(fields[1], kMaxUnicastLid);
    const auto sl = parse_number(fields[2], kSlCount - 1);
    if (!slid || *slid == 0) bad("source LID not in 1..0xBFFF");
    if (!dlid || *dlid == 0) bad("destination LID not in 1..0xBFFF");
    if (!sl) bad("SL not in 0..15");
    const auto key = static_cast<std::uint32_t>(*slid << 16 | *dlid);
    ascending = ascending && (entries.empty() || entries.back().key < key);
    entries.push_back(SlFile::Entry{key, static_cast<std::uint8_t>(*sl)});
    if (line_of) line_of->push_back(lines.line_number());
  }
  return entries;
}

}  // namespace

SlFile parse_sl_file(std::string_view content, const std::string& source, std::uint8_t default_sl) {
  bool ascending = true;
  std::vector<SlFile::Entry> entries = scan(content, source, nullptr, ascending);
  // Routes listed in ascending (SLID, DLID) order, each once (as the
  // psssp_pathsl plugin writes them): the table as it is.
  if (ascending) return SlFile(std::move(entries), default_sl);
  // Otherwise sort, and read again for the line numbers a conflict names.
  std::vector<std::size_t> line_of;  // for duplicate messages
  entries = scan(content, source, &line_of, ascending);
  // Sort indices so a conflict names the later line.
  std::vector<std::uint32_t> order(entries.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return entries[a].key < entries[b].key;
  });
  std::vector<SlFile::Entry> sorted;
  sorted.reserve(entries.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    const SlFile::Entry& e = entries[order[k]];
    if (!sorted.empty() && sorted.back().key == e.key) {
      if (sorted.back().sl != e.sl)
        throw InputError(source, line_of[order[k]],
                         "route " + std::to_string(e.key >> 16) + " -> " +
                             std::to_string(e.key & 0xFFFF) + " already has SL " +
                             std::to_string(sorted.back().sl) + " (line " +
                             std::to_string(line_of[order[k - 1]]) + ")");
      continue;
    }
    sorted.push_back(e);
  }
  return SlFile(std::move(sorted), default_sl);
}

SlFile read_sl_file(const std::string& path, std::uint8_t default_sl) {
  return parse_sl_file(read_file(path), path, default_sl);
}

}  // namespace psssp
