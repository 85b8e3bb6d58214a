// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "bound_runs.h"

#include "parallel/run_workers.h"

namespace psssp::sim {

std::vector<RunBound> bound_runs(const bound::ChannelNetwork& net, const PatternGenerator& gen,
                                 const BoundConfig& config) {
  std::vector<RunBound> out(config.runs);
  const std::size_t levels = gen.levels();
  parallel::parallel_for(config.runs, config.threads, [&](std::size_t run, unsigned) {
    RunBound& r = out[run];
    if (bound::Clock::now() >= config.solve.deadline) return;
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
      const bound::Solution s =
          bound::solve(net, bound::make_commodities(net, demands), config.solve);
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
