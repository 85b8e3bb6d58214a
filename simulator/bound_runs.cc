// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "bound_runs.h"

#include <algorithm>

#include "parallel/run_workers.h"

namespace psssp::sim {

std::vector<RunBound> bound_runs(const bound::ChannelNetwork& net, const PatternGenerator& gen,
                                 const BoundConfig& config) {
  std::vector<RunBound> out(config.runs);
  const std::size_t levels = gen.levels();
  // Threads the runs leave idle go to each run's own solve.
  const unsigned workers = static_cast<unsigned>(
      std::max<std::uint64_t>(1, std::min<std::uint64_t>(config.threads, config.runs)));
  bound::SolveOptions solve = config.solve;
  solve.threads = std::max(1u, config.threads / workers);
  parallel::parallel_for(config.runs, workers, [&](std::size_t run, unsigned) {
    RunBound& r = out[run];
    if (bound::Clock::now() >= solve.deadline) return;
    const auto start = bound::Clock::now();
    std::vector<Flow> flows;
    PatternGenerator::Scratch scratch;
    std::vector<bound::Demand> demands;
    double upper = 0.0, lower = 0.0;
    std::size_t total = 0;
    r.complete = true;
    for (std::size_t level = 0; level < levels; ++level) {
      gen.flows(run, flows, scratch, level);
      if (flows.empty()) continue;
      demands.clear();
      for (const Flow& f : flows)
        demands.push_back({gen.hosts()[f.src].port, gen.hosts()[f.dst].port});
      const bound::Solution s = bound::solve(net, bound::make_commodities(net, demands), solve);
      upper += s.upper;
      lower += s.lower;
      total += flows.size();
      r.method = s.method;
      r.rounds += s.rounds;
      r.complete = r.complete && s.complete;
    }
    if (total) {
      r.upper = upper / static_cast<double>(total);
      r.lower = lower / static_cast<double>(total);
    } else {
      r.upper = r.lower = 1.0;  // as score counts a run without flows
    }
    r.solved = true;
    r.seconds = std::chrono::duration<double>(bound::Clock::now() - start).count();
    if (config.progress) ++*config.progress;
  });
  return out;
}

}  // namespace psssp::sim
