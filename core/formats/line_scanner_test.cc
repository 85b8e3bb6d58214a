// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "line_scanner.h"

#include <gtest/gtest.h>

#include <string>

namespace psssp::formats {
namespace {

std::optional<std::uint64_t> decimal(const std::string& text, std::uint64_t max) {
  Cursor c(text);
  return c.decimal(max);
}

// Each limit accepts its own value and refuses the next one, for limits
// below 10 (where one digit can exceed them) and above.
TEST(Cursor, DecimalBoundPerLimit) {
  for (std::uint64_t max : {0u, 1u, 7u, 8u, 9u, 10u, 15u, 255u, 1000u, 49151u}) {
    EXPECT_EQ(decimal(std::to_string(max), max), max) << max;
    EXPECT_FALSE(decimal(std::to_string(max + 1), max)) << max;
    if (max > 0) {
      EXPECT_FALSE(decimal(std::to_string(max) + "0", max)) << max;
    }
  }
  EXPECT_FALSE(decimal("8", 7));
  EXPECT_FALSE(decimal("99", 7));
  EXPECT_EQ(decimal("18446744073709551615", ~std::uint64_t{0}), ~std::uint64_t{0});
  EXPECT_FALSE(decimal("18446744073709551616", ~std::uint64_t{0}));
  EXPECT_FALSE(decimal("x", 9));
}

TEST(ParseNumber, TakesTheWholeWordDecimalOrHex) {
  EXPECT_EQ(parse_number("49151", kMaxUnicastLid), 49151u);
  EXPECT_EQ(parse_number("0xBFFF", kMaxUnicastLid), 0xBFFFu);
  EXPECT_EQ(parse_number("0x000000000000000000f", 15), 15u);  // leading zeros are free
  EXPECT_FALSE(parse_number("0xC000", kMaxUnicastLid));
  EXPECT_FALSE(parse_number("12x", 100));
  EXPECT_FALSE(parse_number("0x", 100));
  EXPECT_FALSE(parse_number("", 100));
  EXPECT_FALSE(parse_number("-1", 100));
  EXPECT_FALSE(parse_number("0x10000000000000000", ~std::uint64_t{0}));
}

TEST(SplitWords, BlankSeparatedAfterStripComment) {
  EXPECT_EQ(split_words(strip_comment(" 1\t0x2  3 # 4 5")),
            (std::vector<std::string_view>{"1", "0x2", "3"}));
  EXPECT_TRUE(split_words(strip_comment("  # only a comment")).empty());
  EXPECT_TRUE(split_words("").empty());
}

}  // namespace
}  // namespace psssp::formats
