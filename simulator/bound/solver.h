// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The LP bound of one matching: the largest sum over flows of weight * x
// that a fractional multicommodity flow achieves, each flow at most its cap,
// each channel at most its capacity. Three ways to solve it, each reporting
// the Lagrangian bound of lengths it found (pricer.h), so the upper value is
// a bound even when a time limit stopped the solver:
//  - exact: column generation with COIN-OR CLP, the path LP over the paths
//    found so far, each round adding every flow's shortest path under the
//    duals, until the Lagrangian bound is within 1e-6 of the restricted LP's
//    value (a feasible flow);
//  - approximate: Garg-Konemann / Fleischer multiplicative lengths, no LP
//    solver (fleischer.h), until the bound is within eps of a feasible flow;
//  - arc_lp: the whole LP at once with CLP, one flow variable per
//    (destination switch, arc); exact but slow, kept as the cross-check.
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
  // automatic: exact while flows through switches times the channels that
  // carry flow is at most this, else approximate (docs/bound.md)
  std::size_t exact_work = 300000;
  Clock::time_point deadline = Clock::time_point::max();
  unsigned threads = 1;  // within one solve (approximate); results do not depend on it
};

struct Solution {
  double upper = 0.0;  // sum of weight * x that no flow beats (self flows count 1)
  double lower = 0.0;  // the same sum of a feasible flow found
  Method method = Method::exact;
  unsigned rounds = 0;      // column generation rounds, approximate's phases (arc_lp: 1)
  bool complete = true;     // false: stopped by the deadline before eps was reached
  std::size_t columns = 0;  // LP columns at the end (approximate: paths used)
};

Solution solve(const ChannelNetwork& net, const std::vector<Commodity>& fs,
               const SolveOptions& options);

// What automatic compares with exact_work: flows through switches times the
// channels that can carry flow (the exact LP's rows).
std::size_t exact_work(const ChannelNetwork& net, const std::vector<Commodity>& fs);

}  // namespace psssp::bound
