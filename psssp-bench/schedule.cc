// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "schedule.h"

#include <memory>
#include <stdexcept>

#include "options.h"

namespace psssp::bench {
namespace {
constexpr const char* kPatterns[] = {"bisect", "bisect-fb",          "permutation",  "shift",
                                     "ring",   "recursive-doubling", "dissemination"};
}  // namespace

bool pattern_supported(const std::string& name) {
  for (const char* p : kPatterns)
    if (name == p) return true;
  return false;
}

std::string supported_patterns() {
  std::string names;
  for (const char* p : kPatterns) names += std::string(names.empty() ? "" : ", ") + p;
  return names;
}

RankFlows::RankFlows(const std::string& pattern, std::vector<std::uint32_t> lids,
                     std::uint64_t seed) {
  if (!pattern_supported(pattern))
    throw std::runtime_error("--pattern " + pattern + ": psssp-bench transfers " +
                             supported_patterns());
  if (lids.size() < 2) throw std::runtime_error("psssp-bench needs at least 2 ranks");
  if ((pattern == "bisect" || pattern == "bisect-fb") && lids.size() % 2 == 1)
    throw std::runtime_error("--pattern " + pattern + " pairs the ranks: " +
                             std::to_string(lids.size()) + " ranks is odd (start an even number)");
  hosts_.resize(lids.size());
  for (std::size_t i = 0; i < lids.size(); ++i) hosts_[i].lid = static_cast<Lid>(lids[i]);
  // Linear mapping over the ranks = psssp-sim's mapping file over the hosts:
  // neither draws, both send rank i's flows from the i-th port.
  Fabric none;
  sim::PatternSpec spec = sim::parse_pattern(pattern, "", "linear", "first", none, hosts_);
  gen_ = std::make_unique<sim::PatternGenerator>(hosts_, std::move(spec), seed);
}

void RankFlows::flows(std::uint64_t run, std::vector<sim::Flow>& out) const {
  gen_->flows(run, out, scratch_);
}

std::uint64_t RankFlows::default_runs() const {
  return gen_->random() ? kDefaultRandomRuns : gen_->phase_count();
}

RankSchedule rank_schedule(const RankFlows& flows, std::uint32_t rank, std::uint64_t runs) {
  RankSchedule s;
  s.send_to.assign(runs, RankSchedule::kNone);
  s.receive_from.assign(runs, RankSchedule::kNone);
  std::vector<sim::Flow> run_flows;
  for (std::uint64_t r = 0; r < runs; ++r) {
    flows.flows(r, run_flows);
    for (const sim::Flow& f : run_flows) {
      if (f.src == rank) {
        if (s.send_to[r] != RankSchedule::kNone)
          throw std::logic_error("rank sends twice in one run");
        s.send_to[r] = f.dst;
      }
      if (f.dst == rank) {
        if (s.receive_from[r] != RankSchedule::kNone)
          throw std::logic_error("rank receives twice in one run");
        s.receive_from[r] = f.src;
      }
    }
  }
  return s;
}

}  // namespace psssp::bench
