// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "byte_transpose.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace psssp::deadlock {
namespace {

// Every size around the 16 x 16 tiles (none, part of one, several and a
// remainder each way), rows at an offset, against byte by byte.
TEST(ByteTranspose, EqualsByteByByteForEverySize) {
  std::mt19937 random(7);
  for (std::size_t row_count : {0u, 1u, 15u, 16u, 17u, 33u, 48u})
    for (std::size_t n : {0u, 1u, 15u, 16u, 31u, 64u, 70u}) {
      const std::size_t offset = 3, width = offset + n + 5;
      std::vector<std::vector<std::uint8_t>> table(row_count, std::vector<std::uint8_t>(width));
      std::vector<const std::uint8_t*> rows;
      for (auto& row : table) {
        for (auto& b : row) b = static_cast<std::uint8_t>(random());
        rows.push_back(row.data());
      }
      const std::size_t stride = row_count + 2;  // room the call must not write
      std::vector<std::uint8_t> out(n * stride + 1, 0xAB);
      transpose_bytes(rows.data(), row_count, offset, n, out.data(), stride);
      for (std::size_t k = 0; k < n; ++k) {
        for (std::size_t r = 0; r < row_count; ++r)
          ASSERT_EQ(out[k * stride + r], table[r][offset + k])
              << row_count << " rows, " << n << " columns: row " << r << " column " << k;
        for (std::size_t r = row_count; r < stride; ++r) ASSERT_EQ(out[k * stride + r], 0xAB);
      }
    }
}

}  // namespace
}  // namespace psssp::deadlock
