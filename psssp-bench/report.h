// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// What rank 0 makes of the measurements: flows normalised by the reference,
// run values, measured and predicted eBB side by side, and the three outputs
// (summary on standard output, --json, --csv).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "options.h"

namespace psssp::bench {

struct FlowResult {
  std::uint32_t src = 0, dst = 0;  // ranks
  std::uint32_t src_lid = 0, dst_lid = 0;
  double gbps = 0;
};

struct RunResult {
  std::vector<FlowResult> flows;
  double measured = 0;              // mean of gbps / reference over the flows
  std::optional<double> predicted;  // psssp-sim score's run value, with --routes
};

struct Timing {
  double setup = 0;        // options to first transfer: inputs, draws, prediction
  double loop = 0;         // the timed runs, first barrier to last
  double transfers = 0;    // sum over runs of the slowest rank's transfer time
  double bookkeeping = 0;  // per run, slowest rank: time outside barriers and transfers
  double allreduce = 0;    // one barrier (allreduce) alone, measured after the runs
  double total = 0;
};

struct Report {
  const BenchOptions* options = nullptr;
  std::size_t ranks = 0;
  std::uint64_t runs = 0;
  bool random = false;
  std::vector<std::uint64_t> guid;  // per rank, 0 when not known
  std::vector<std::uint32_t> lid;   // per rank
  double reference_gbps = 0;
  std::vector<double> reference_each;  // each repeat, Gb/s
  std::vector<RunResult> run_results;
  Timing timing;
};

// Fills every run's measured value from its flows and the reference.
void normalise(Report& report);

double measured_ebb(const Report& report);
std::optional<double> predicted_ebb(const Report& report);
// Pearson's r of measured and predicted run values; empty without a
// prediction, with fewer than 2 runs or when either side does not vary.
std::optional<double> correlation(const std::vector<double>& a, const std::vector<double>& b);
std::optional<double> run_correlation(const Report& report);

void write_json(std::ostream& out, const Report& report);
void write_csv(std::ostream& out, const Report& report);
void write_summary(std::ostream& out, const Report& report);
// psssp-sim score --dump-patterns' format, with psssp-bench's header.
void write_patterns(std::ostream& out, const Report& report);

}  // namespace psssp::bench
