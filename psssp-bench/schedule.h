// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The flows of every run, drawn by the simulator's PatternGenerator over the
// ranks: rank i stands where `psssp-sim score --mapping FILE` puts the i-th
// host of FILE, so run r here is run r of psssp-sim score with a mapping
// file listing the ranks' ports in rank order.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "host_set.h"
#include "patterns.h"

namespace psssp::bench {

// The patterns psssp-bench transfers: each rank sends at most one flow and
// receives at most one per run.
bool pattern_supported(const std::string& name);
std::string supported_patterns();

class RankFlows {
 public:
  // `lids`: each rank's LID (what the flows' destination LIDs become). Throws
  // std::runtime_error on an unsupported pattern or a rank count it cannot
  // pair (bisect and bisect-fb need an even count).
  RankFlows(const std::string& pattern, std::vector<std::uint32_t> lids, std::uint64_t seed);
  RankFlows(const RankFlows&) = delete;  // the generator refers to hosts_
  RankFlows& operator=(const RankFlows&) = delete;

  // The flows of run r: src and dst are ranks.
  void flows(std::uint64_t run, std::vector<sim::Flow>& out) const;
  // The pattern's run count: kDefaultRandomRuns for a random one, else its phases.
  std::uint64_t default_runs() const;
  std::size_t ranks() const { return hosts_.size(); }
  const sim::PatternGenerator& generator() const { return *gen_; }

 private:
  std::vector<sim::Host> hosts_;  // one per rank, LID only
  std::unique_ptr<sim::PatternGenerator> gen_;
  mutable sim::PatternGenerator::Scratch scratch_;
};

// One rank's part of every run: the rank it sends to and the rank it
// receives from (kNone: idle in that direction).
struct RankSchedule {
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  std::vector<std::uint32_t> send_to, receive_from;  // per run
};
RankSchedule rank_schedule(const RankFlows& flows, std::uint32_t rank, std::uint64_t runs);

}  // namespace psssp::bench
