// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The LP bound (bound/solver.h) of every run of a pattern: the same flows
// that score draws for run r (patterns.h), so a run's bound and a routing's
// eBB in that run can be compared one to one. A multi-level run (ORCS) is
// bounded level by level and weighted by flows, as score weighs it.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "bound/channel_network.h"
#include "bound/solver.h"
#include "patterns.h"

namespace psssp::sim {

struct BoundConfig {
  bound::SolveOptions solve;  // its deadline ends the whole computation
  std::uint64_t runs = 50;
  unsigned threads = 1;  // across runs; fewer runs than threads: the rest within each run
  std::atomic<std::uint64_t>* progress = nullptr;  // incremented per finished run
};

struct RunBound {
  bool solved = false;  // false: the deadline came first, nothing computed
  double upper = 1.0;   // mean share of the run's flows that no routing beats
  double lower = 0.0;   // the mean share of a feasible flow found
  bound::Method method = bound::Method::arc_lp;  // of the last level
  unsigned rounds = 0;
  bool complete = false;  // every level reached the method's target
  double seconds = 0.0;
};

std::vector<RunBound> bound_runs(const bound::ChannelNetwork& net, const PatternGenerator& gen,
                                 const BoundConfig& config);

}  // namespace psssp::sim
