// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The LP bound of one matching: the largest sum over flows of weight * x
// that a fractional multicommodity flow achieves, each flow at most its cap,
// each channel at most its capacity. Two ways to solve it, both with COIN-OR
// CLP, both reporting the Lagrangian bound of their final duals (pricer.h),
// so the upper value is a bound even when a time limit stopped the solver:
//  - column generation (exact, approximate): the path LP over the paths
//    found so far, each round adding every flow's shortest path under the
//    duals, until the Lagrangian bound is within a relative gap of the
//    restricted LP's value (a feasible flow): 1e-6 (exact) or eps;
//  - arc_lp: the whole LP at once, one flow variable per (destination
//    switch, arc); exact but slow, kept as the cross-check of the above.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "bound/channel_network.h"

namespace psssp::bound {

enum class Method { automatic, exact, approximate, arc_lp };
const char* method_name(Method m);  // "auto", "exact", "approximate", "arc-lp"

using Clock = std::chrono::steady_clock;

struct SolveOptions {
  Method method = Method::automatic;
  bool minimal = false;  // only minimal (switch hop) paths
  double eps = 0.02;     // approximate: stops at upper <= (1 + eps) * lower
  // automatic: exact up to this many flows through switches, else approximate
  std::size_t exact_limit = 1024;
  Clock::time_point deadline = Clock::time_point::max();
};

struct Solution {
  double upper = 0.0;  // sum of weight * x that no flow beats (self flows count 1)
  double lower = 0.0;  // the same sum of a feasible flow found
  Method method = Method::exact;
  unsigned rounds = 0;      // column generation rounds (1 for arc_lp)
  bool complete = true;     // false: stopped by the deadline before eps was reached
  std::size_t columns = 0;  // LP columns at the end
};

Solution solve(const ChannelNetwork& net, const std::vector<Commodity>& fs,
               const SolveOptions& options);

}  // namespace psssp::bound
