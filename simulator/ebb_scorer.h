// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Effective bisection bandwidth of one routing, run by run (the definition of
// Hoefler et al. and ORCS): every directed cable, host links included, counts
// the flows crossing it; a flow's share is 1 / (largest count on its path);
// a run's value is the mean share of its flows.
//
// Two further per-run values:
//  - capacity: a flow's share on a link is (link Gb/s / count) divided by the
//    Gb/s of the flow's injection link; the flow takes the minimum along its
//    path, capped at 1. Equals the plain value when all links are alike.
//  - maxmin: max-min fair rates by progressive filling over the link
//    capacities, each divided by the flow's injection Gb/s, then averaged.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <vector>

#include "host_set.h"
#include "patterns.h"
#include "traffic/route_tracer.h"

namespace psssp::sim {

// A flow whose route does not reach its destination.
class RouteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RunScore {
  double ebb = 0.0;       // mean of 1 / max count (1.0 for a run without flows)
  double capacity = 0.0;  // capacity-aware share, see above
  double maxmin = 0.0;    // max-min fair share; 0 unless requested
};

class EbbScorer {
 public:
  // Both must outlive the scorer. The LFT bytes that flows can use are copied
  // here: a scorer does not see later changes to the tables.
  EbbScorer(const RouteTracer& tracer, const std::vector<Host>& hosts);

  // Per-thread state; counts are all zero between runs.
  struct Workspace {
    std::vector<std::uint32_t> count;       // flows per channel
    std::vector<ChannelId> path;            // channels of all flows, concatenated
    std::vector<std::uint32_t> begin, end;  // flow i uses path[begin[i] .. end[i])
    std::vector<double> injection;          // flow i's host link Gb/s (capacity share)
    // max-min filling
    std::vector<std::uint32_t> local;  // channel -> link index, kNone when untouched
    std::vector<ChannelId> links;
    std::vector<double> remaining, rate;
    std::vector<std::uint32_t> active, version, link_begin, link_flows;
    std::vector<bool> frozen;
    // score_dense: flows in destination column order, 16-bit counts, per
    // flow where its trace is, its largest count and capacity share
    std::vector<std::uint32_t> order, bucket;
    std::vector<std::uint16_t> count16;
    std::vector<std::uint32_t> row, want, worst;
    std::vector<std::size_t> base;
    std::vector<double> cap_share;
  };
  Workspace workspace() const;

  // Per-channel congestion summed over runs (for --link-csv).
  struct LinkStats {
    std::vector<std::uint64_t> sum;
    std::vector<std::uint32_t> max;
  };

  // Scores one run. Throws RouteError if a flow's route is broken.
  RunScore score(const std::vector<Flow>& flows, Workspace& ws, bool maxmin,
                 LinkStats* stats) const;

  const RouteTracer& tracer() const { return tracer_; }
  std::size_t channel_count() const { return capacity_.size(); }

 private:
  // Without max-min: traces through the dense destination-major table in
  // destination order. False (workspace clean) when a flow needs the general
  // path: a broken route, more than 14 switch hops, an odd host link, a run
  // of 64K flows or more.
  bool score_dense(const std::vector<Flow>& flows, Workspace& ws, LinkStats* stats,
                   RunScore& result) const;
  // score_dense's steps (ebb_scorer_dense.cc): false when a flow needs the
  // general path.
  bool order_by_column(const std::vector<Flow>& flows, Workspace& ws) const;
  bool trace_dense(const std::vector<Flow>& flows, Workspace& ws) const;
  void dense_shares(const std::vector<Flow>& flows, Workspace& ws, RunScore& result) const;
  // Zeroes the 16-bit counts of the n paths (`used` channels in all), adding
  // them to stats first.
  void release_dense_counts(std::size_t n, std::size_t used, Workspace& ws, LinkStats* stats) const;

  RunScore score_general(const std::vector<Flow>& flows, Workspace& ws, bool maxmin,
                         LinkStats* stats) const;
  // score_general's trace: every flow's path into ws.path, counted.
  struct Lane;
  void trace_lanes(const std::vector<Flow>& flows, Workspace& ws) const;
  // One hop of a lane's flow; true when the flow is done with.
  bool step_lane(const std::vector<Flow>& flows, Lane& lane, Workspace& ws) const;
  // Starts flows[next] onwards: those that need no lane are done at once;
  // false when none is left.
  bool refill(const std::vector<Flow>& flows, std::size_t& next, Lane& lane, Workspace& ws) const;
  // Sequential trace, for paths too long for a lane and for diagnostics.
  void trace_one(const std::vector<Flow>& flows, std::size_t i, std::uint32_t row,
                 Workspace& ws) const;
  // Throws RouteError for flows[i], the workspace clean.
  [[noreturn]] void fail(const std::vector<Flow>& flows, std::size_t i, const std::string& why,
                         Workspace& ws) const;
  double maxmin_value(std::size_t flow_count, Workspace& ws) const;
  [[noreturn]] void broken(const Flow& f, const std::string& why) const;

  const RouteTracer& tracer_;
  const std::vector<Host>& hosts_;
  std::vector<RouteTracer::Start> starts_;
  std::vector<double> capacity_;  // Gb/s per channel

  // The LFT bytes that flows can use, destination-major: dense_[column *
  // rows_ + row] for the LIDs owned by CA/router ports (column_of_lid_), so
  // one trace stays within one small block and destinations in order sweep
  // the table. 1 byte per (switch, such LID).
  static constexpr std::uint32_t kNoColumn = 0xFFFFFFFFu;
  std::vector<std::uint32_t> column_of_lid_;  // per LID below tracer.lid_limit()
  std::size_t columns_ = 0, rows_ = 0;
  std::vector<PortNum> dense_;
  // Every cabled port's channel has the same Gb/s (then a flow's capacity
  // share is uniform_gbps_ / its largest count).
  bool uniform_ = false;
  double uniform_gbps_ = 0.0;
};

struct ScoreConfig {
  std::uint64_t runs = 5000;
  unsigned threads = 1;
  bool maxmin = false;
  bool link_stats = false;
  std::atomic<std::uint64_t>* progress = nullptr;  // incremented per finished run
};

struct RoutingScores {
  std::vector<RunScore> runs;  // in run order
  EbbScorer::LinkStats links;  // when ScoreConfig::link_stats
};

// Runs 0..runs-1 of `patterns` against every scorer (the same flows for all),
// spread over threads. Per-run values do not depend on the thread count.
// Rethrows the RouteError of the lowest failing run.
std::vector<RoutingScores> score_runs(const PatternGenerator& patterns,
                                      const std::vector<const EbbScorer*>& scorers,
                                      const ScoreConfig& config);

}  // namespace psssp::sim
