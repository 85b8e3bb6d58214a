// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "line_scanner.h"

#include <cinttypes>
#include <cstdio>

namespace psssp::formats {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string excerpt(std::string_view line) {
  std::string out;
  for (char c : line.substr(0, 160)) out += (c >= 0x20 && c < 0x7f) || c == '\t' ? c : '?';
  if (line.size() > 160) out += "...";
  return out;
}

std::optional<std::uint64_t> parse_hex(std::string_view digits) {
  if (digits.empty() || digits.size() > 16) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : digits) {
    const int d = hex_value(c);
    if (d < 0) return std::nullopt;
    v = v << 4 | static_cast<std::uint64_t>(d);
  }
  return v;
}

std::optional<std::uint64_t> Cursor::decimal(std::uint64_t max) {
  std::size_t n = 0;
  std::uint64_t v = 0;
  while (n < rest_.size() && rest_[n] >= '0' && rest_[n] <= '9') {
    const auto d = static_cast<std::uint64_t>(rest_[n] - '0');
    if (d > max || v > (max - d) / 10) return std::nullopt;  // would exceed max
    v = v * 10 + d;
    ++n;
  }
  if (n == 0) return std::nullopt;
  rest_.remove_prefix(n);
  return v;
}

std::optional<std::uint64_t> Cursor::hex_digits(std::uint64_t max) {
  std::size_t n = 0;
  while (n < rest_.size() && hex_value(rest_[n]) >= 0) ++n;
  // Leading zeros do not count against the 16-digit limit.
  std::size_t first = 0;
  while (first + 1 < n && rest_[first] == '0') ++first;
  const auto v = parse_hex(rest_.substr(first, n - first));
  if (!v || *v > max) return std::nullopt;
  rest_.remove_prefix(n);
  return v;
}

std::optional<std::uint64_t> Cursor::hex_0x(std::uint64_t max) {
  if (!starts_with(rest_, "0x") && !starts_with(rest_, "0X")) return std::nullopt;
  Cursor after(rest_.substr(2));
  const auto v = after.hex_digits(max);
  if (v) rest_ = after.rest_;
  return v;
}

std::optional<std::uint64_t> Cursor::number(std::uint64_t max) {
  if (auto v = hex_0x(max)) return v;
  if (starts_with(rest_, "0x") || starts_with(rest_, "0X")) return std::nullopt;
  return decimal(max);
}

std::optional<std::string_view> Cursor::quoted() {
  if (peek() != '"') return std::nullopt;
  const auto end = rest_.find('"', 1);
  if (end == std::string_view::npos) return std::nullopt;
  const auto text = rest_.substr(1, end - 1);
  rest_.remove_prefix(end + 1);
  return text;
}

std::string_view Cursor::word() {
  std::size_t n = 0;
  while (n < rest_.size() && !is_space(rest_[n])) ++n;
  const auto w = rest_.substr(0, n);
  rest_.remove_prefix(n);
  return w;
}

std::vector<std::string_view> split_words(std::string_view line) {
  std::vector<std::string_view> words;
  Cursor cursor(line);
  for (cursor.skip_space(); !cursor.at_end(); cursor.skip_space()) words.push_back(cursor.word());
  return words;
}

std::optional<std::uint64_t> parse_number(std::string_view word, std::uint64_t max) {
  Cursor cursor(word);
  const auto v = cursor.number(max);
  return v && cursor.at_end() ? v : std::nullopt;
}

void fail(const std::string& source, std::size_t line, const std::string& message,
          std::string_view text) {
  throw InputError(source, line, message + ": " + excerpt(text));
}

std::string guid_string(std::uint64_t guid) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, guid);
  return buf;
}

}  // namespace psssp::formats
