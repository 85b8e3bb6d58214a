// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Summary of per-run values: mean, 95% confidence interval, extremes and a
// fixed histogram over [0, 1].
#pragma once

#include <cstdint>
#include <vector>

namespace psssp::sim {

struct Summary {
  double mean = 0.0;  // sum in run order / n (bit-identical for any thread count)
  double ci95_low = 0.0, ci95_high = 0.0;  // mean -+ 1.96 s / sqrt(n), s the sample std dev
  double min = 0.0, max = 0.0;
  double stddev = 0.0;
  std::vector<std::uint64_t> histogram;  // kHistogramBins equal bins over [0, 1]; 1.0 in the last
};
constexpr unsigned kHistogramBins = 20;

Summary summarize(const std::vector<double>& values);

}  // namespace psssp::sim
