// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// A block of byte rows turned into columns: out[k * stride + r] = rows[r][k].
// The layer assignment reads the LFT by destination (a column per LID, the
// switches down it) while the tables are kept by switch; byte by byte every
// store went to another cache line, 16 x 16 tiles in SSE2 registers store
// sixteen bytes at a time. Internal to core/deadlock.
#pragma once

#include <cstddef>
#include <cstdint>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace psssp::deadlock {

#ifdef __SSE2__
// Sixteen rows of sixteen bytes in x[] become sixteen columns: afterwards
// x[c] holds byte c of every row, in row order (four rounds of interleaving
// of bytes, pairs, quads and eights).
inline void transpose_16x16(__m128i x[16]) {
  __m128i t[16];
  for (int i = 0; i < 8; ++i) {  // row pairs: columns 0-7 and 8-15, two bytes each
    t[2 * i] = _mm_unpacklo_epi8(x[2 * i], x[2 * i + 1]);
    t[2 * i + 1] = _mm_unpackhi_epi8(x[2 * i], x[2 * i + 1]);
  }
  for (int i = 0; i < 4; ++i) {  // rows 4i..4i+3: four columns of four bytes each
    x[4 * i] = _mm_unpacklo_epi16(t[4 * i], t[4 * i + 2]);
    x[4 * i + 1] = _mm_unpackhi_epi16(t[4 * i], t[4 * i + 2]);
    x[4 * i + 2] = _mm_unpacklo_epi16(t[4 * i + 1], t[4 * i + 3]);
    x[4 * i + 3] = _mm_unpackhi_epi16(t[4 * i + 1], t[4 * i + 3]);
  }
  for (int i = 0; i < 2; ++i)  // rows 8i..8i+7: two columns of eight bytes each
    for (int j = 0; j < 4; ++j) {
      t[8 * i + 2 * j] = _mm_unpacklo_epi32(x[8 * i + j], x[8 * i + 4 + j]);
      t[8 * i + 2 * j + 1] = _mm_unpackhi_epi32(x[8 * i + j], x[8 * i + 4 + j]);
    }
  for (int m = 0; m < 8; ++m) {  // all sixteen rows of columns 2m and 2m+1
    x[2 * m] = _mm_unpacklo_epi64(t[m], t[8 + m]);
    x[2 * m + 1] = _mm_unpackhi_epi64(t[m], t[8 + m]);
  }
}
#endif

// column(k)[r] = rows[r][offset + k] for r < row_count, k < n: column(k)
// gives where column k starts.
template <typename Column>
void transpose_bytes_into(const std::uint8_t* const* rows, std::size_t row_count,
                          std::size_t offset, std::size_t n, Column&& column) {
  std::size_t r0 = 0;
#ifdef __SSE2__
  for (; r0 + 16 <= row_count; r0 += 16) {
    std::size_t k0 = 0;
    for (; k0 + 16 <= n; k0 += 16) {
      __m128i x[16];
      for (std::size_t r = 0; r < 16; ++r)
        x[r] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(rows[r0 + r] + offset + k0));
      transpose_16x16(x);
      for (std::size_t c = 0; c < 16; ++c)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(column(k0 + c) + r0), x[c]);
    }
    for (std::size_t r = r0; r < r0 + 16; ++r)  // the last n % 16 columns
      for (std::size_t k = k0; k < n; ++k) column(k)[r] = rows[r][offset + k];
  }
#endif
  for (std::size_t r = r0; r < row_count; ++r)
    for (std::size_t k = 0; k < n; ++k) column(k)[r] = rows[r][offset + k];
}

// out[k * stride + r] = rows[r][offset + k] for r < row_count, k < n.
inline void transpose_bytes(const std::uint8_t* const* rows, std::size_t row_count,
                            std::size_t offset, std::size_t n, std::uint8_t* out,
                            std::size_t stride) {
  transpose_bytes_into(rows, row_count, offset, n, [&](std::size_t k) { return out + k * stride; });
}

}  // namespace psssp::deadlock
