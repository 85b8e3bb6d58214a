// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Shared tokenizing for the line-oriented readers: splitting content into
// numbered lines and a cursor over one line that reads numbers, GUIDs and
// quoted strings without ever reading past the end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fabric/fabric.h"
#include "formats/fabric_io.h"

namespace psssp::formats {

// Iterates the lines of a text; the newline and a trailing '\r' are removed.
class LineScanner {
 public:
  explicit LineScanner(std::string_view content) : rest_(content) {}
  // False at the end of the content.
  bool next(std::string_view& line) {
    if (done_) return false;
    const auto nl = rest_.find('\n');
    line = rest_.substr(0, nl);
    if (nl == std::string_view::npos) {
      done_ = true;
      if (line.empty()) return false;  // no empty "line" after the final newline
    } else {
      rest_.remove_prefix(nl + 1);
    }
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++number_;
    return true;
  }
  std::size_t line_number() const { return number_; }

 private:
  std::string_view rest_;
  std::size_t number_ = 0;
  bool done_ = false;
};

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

inline bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// The line up to a '#' comment, trimmed.
inline std::string_view strip_comment(std::string_view line) {
  return trim(line.substr(0, line.find('#')));
}

// The blank-separated words of a line.
std::vector<std::string_view> split_words(std::string_view line);

// A line shortened for messages: printable, at most 160 characters.
std::string excerpt(std::string_view line);

// Parses hexadecimal digits (no prefix) into a GUID: 1..16 digits.
std::optional<std::uint64_t> parse_hex(std::string_view digits);

// A read position in one line. Every reader returns false / nullopt and
// leaves the position unchanged when the text does not match.
class Cursor {
 public:
  explicit Cursor(std::string_view line) : rest_(line) {}

  std::string_view rest() const { return rest_; }
  bool at_end() const { return rest_.empty(); }
  // Skips blanks; returns whether there were any.
  bool skip_space() {
    const std::size_t before = rest_.size();
    while (!rest_.empty() && is_space(rest_.front())) rest_.remove_prefix(1);
    return rest_.size() != before;
  }
  bool consume(char c) {
    if (rest_.empty() || rest_.front() != c) return false;
    rest_.remove_prefix(1);
    return true;
  }
  bool consume(std::string_view word) {
    if (!starts_with(rest_, word)) return false;
    rest_.remove_prefix(word.size());
    return true;
  }
  char peek() const { return rest_.empty() ? '\0' : rest_.front(); }
  void skip(std::size_t n) { rest_.remove_prefix(n < rest_.size() ? n : rest_.size()); }

  // Decimal number up to `max`.
  std::optional<std::uint64_t> decimal(std::uint64_t max = UINT64_MAX);
  // "0x"-prefixed hexadecimal number up to `max`.
  std::optional<std::uint64_t> hex_0x(std::uint64_t max = UINT64_MAX);
  // Hexadecimal without prefix (a GUID as ibnetdiscover prints it in parentheses).
  std::optional<std::uint64_t> hex_digits(std::uint64_t max = UINT64_MAX);
  // Either of the above forms, like strtoul(..., 0): "0x1f" or "31".
  std::optional<std::uint64_t> number(std::uint64_t max = UINT64_MAX);
  // A "..." string without the quotes (no escapes exist in these formats).
  std::optional<std::string_view> quoted();
  // A run of characters that are not blanks.
  std::string_view word();

 private:
  std::string_view rest_;
};

// A whole word as Cursor::number reads it (decimal or 0x-hex, at most `max`);
// nullopt if anything else is left.
std::optional<std::uint64_t> parse_number(std::string_view word, std::uint64_t max);

// Throws InputError(source, line, message + ": <excerpt>").
[[noreturn]] void fail(const std::string& source, std::size_t line, const std::string& message,
                       std::string_view text);

// "0x0002c90300001234"
std::string guid_string(std::uint64_t guid);

}  // namespace psssp::formats
