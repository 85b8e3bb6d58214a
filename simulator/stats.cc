// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "stats.h"

#include <algorithm>
#include <cmath>

namespace psssp::sim {

Summary summarize(const std::vector<double>& values) {
  Summary s;
  s.histogram.assign(kHistogramBins, 0);
  if (values.empty()) return s;
  const double n = static_cast<double>(values.size());
  double sum = 0.0;
  for (double v : values) sum += v;
  s.mean = sum / n;
  double sq = 0.0;
  for (double v : values) sq += (v - s.mean) * (v - s.mean);
  s.stddev = values.size() > 1 ? std::sqrt(sq / (n - 1)) : 0.0;
  const double half = 1.96 * s.stddev / std::sqrt(n);
  s.ci95_low = s.mean - half;
  s.ci95_high = s.mean + half;
  s.min = *std::min_element(values.begin(), values.end());
  s.max = *std::max_element(values.begin(), values.end());
  for (double v : values) {
    const double b = std::floor(std::clamp(v, 0.0, 1.0) * kHistogramBins);
    ++s.histogram[std::min<std::size_t>(kHistogramBins - 1, static_cast<std::size_t>(b))];
  }
  return s;
}

}  // namespace psssp::sim
