// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// score_runs (ebb_scorer.h): runs spread over threads, every scorer on the
// same flows, link statistics merged at the end.
#include <algorithm>
#include <atomic>
#include <mutex>

#include "ebb_scorer.h"
#include "parallel/run_workers.h"
#include "parallel/thread_count.h"

namespace psssp::sim {

std::vector<RoutingScores> score_runs(const PatternGenerator& patterns,
                                      const std::vector<const EbbScorer*>& scorers,
                                      const ScoreConfig& config) {
  std::vector<RoutingScores> out(scorers.size());
  for (RoutingScores& r : out) r.runs.resize(config.runs);
  const unsigned threads = std::clamp(config.threads, 1u, parallel::kMaxThreads);
  std::vector<std::vector<EbbScorer::LinkStats>> stats(threads);
  std::atomic<std::uint64_t> next{0};
  std::mutex error_mutex;
  std::uint64_t error_run = ~std::uint64_t{0};
  std::exception_ptr error;
  constexpr std::uint64_t kChunk = 16;
  const std::size_t levels = patterns.levels();

  // A multi-level run (ORCS): each level is scored on its own, and the run's
  // value is the mean share over the flows of all levels (ORCS's weighting).
  auto score_levels = [&](std::uint64_t run, std::vector<Flow>& flows,
                          PatternGenerator::Scratch& scratch, std::vector<EbbScorer::Workspace>& ws,
                          unsigned t) {
    std::vector<RunScore> sum(scorers.size());
    std::size_t total = 0;
    for (std::size_t level = 0; level < levels; ++level) {
      patterns.flows(run, flows, scratch, level);
      if (flows.empty()) continue;
      total += flows.size();
      const double weight = static_cast<double>(flows.size());
      for (std::size_t i = 0; i < scorers.size(); ++i) {
        const RunScore r = scorers[i]->score(flows, ws[i], config.maxmin,
                                             config.link_stats ? &stats[t][i] : nullptr);
        sum[i].ebb += r.ebb * weight;
        sum[i].capacity += r.capacity * weight;
        sum[i].maxmin += r.maxmin * weight;
      }
    }
    for (std::size_t i = 0; i < scorers.size(); ++i) {
      const double n = static_cast<double>(total);
      out[i].runs[run] = total ? RunScore{sum[i].ebb / n, sum[i].capacity / n, sum[i].maxmin / n}
                               : RunScore{1.0, 1.0, config.maxmin ? 1.0 : 0.0};
    }
  };

  auto worker = [&](unsigned t) {
    std::vector<EbbScorer::Workspace> ws;
    for (const EbbScorer* s : scorers) {
      ws.push_back(s->workspace());
      if (config.link_stats)
        stats[t].push_back({std::vector<std::uint64_t>(s->channel_count(), 0),
                            std::vector<std::uint32_t>(s->channel_count(), 0)});
    }
    std::vector<Flow> flows;
    PatternGenerator::Scratch scratch;
    for (;;) {
      const std::uint64_t first = next.fetch_add(kChunk);
      if (first >= config.runs) return;
      const std::uint64_t last = std::min(config.runs, first + kChunk);
      for (std::uint64_t run = first; run < last; ++run) {
        try {
          if (levels == 1) {
            patterns.flows(run, flows, scratch);
            for (std::size_t i = 0; i < scorers.size(); ++i)
              out[i].runs[run] = scorers[i]->score(flows, ws[i], config.maxmin,
                                                   config.link_stats ? &stats[t][i] : nullptr);
          } else {
            score_levels(run, flows, scratch, ws, t);
          }
        } catch (...) {
          std::lock_guard<std::mutex> lock(error_mutex);
          if (run < error_run) {
            error_run = run;
            error = std::current_exception();
          }
          next.store(config.runs);
          return;
        }
        if (config.progress) config.progress->fetch_add(1, std::memory_order_relaxed);
      }
    }
  };
  parallel::run_workers(threads, worker);
  if (error) std::rethrow_exception(error);

  if (config.link_stats)
    for (std::size_t i = 0; i < scorers.size(); ++i) {
      out[i].links = std::move(stats[0][i]);
      for (unsigned t = 1; t < threads; ++t)
        for (std::size_t c = 0; c < out[i].links.sum.size(); ++c) {
          out[i].links.sum[c] += stats[t][i].sum[c];
          out[i].links.max[c] = std::max(out[i].links.max[c], stats[t][i].max[c]);
        }
    }
  return out;
}

}  // namespace psssp::sim
