// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "text_lines.h"

namespace psssp::deadlock {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r'; }

int digit_value(char c, unsigned base) {
  int v = -1;
  if (c >= '0' && c <= '9') v = c - '0';
  if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
  if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
  return v >= 0 && static_cast<unsigned>(v) < base ? v : -1;
}

}  // namespace

bool TextLines::next(std::string_view& line) {
  if (done_) return false;
  const auto nl = rest_.find('\n');
  line = rest_.substr(0, nl);
  if (nl == std::string_view::npos) {
    done_ = true;
    if (line.empty()) return false;
  } else {
    rest_.remove_prefix(nl + 1);
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  ++number_;
  return true;
}

std::string_view strip_comment(std::string_view line) {
  line = line.substr(0, line.find('#'));
  while (!line.empty() && is_blank(line.front())) line.remove_prefix(1);
  while (!line.empty() && is_blank(line.back())) line.remove_suffix(1);
  return line;
}

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_blank(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !is_blank(line[i])) ++i;
    if (i > start) fields.push_back(line.substr(start, i - start));
  }
  return fields;
}

std::optional<std::uint64_t> parse_number(std::string_view text, std::uint64_t max) {
  unsigned base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : text) {
    const int d = digit_value(c, base);
    if (d < 0) return std::nullopt;
    const auto ud = static_cast<std::uint64_t>(d);
    if (ud > max || v > (max - ud) / base) return std::nullopt;
    v = v * base + ud;
  }
  return v;
}

std::string excerpt(std::string_view line) {
  std::string out;
  for (char c : line.substr(0, 120)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (line.size() > 120) out += "...";
  return out;
}

}  // namespace psssp::deadlock
