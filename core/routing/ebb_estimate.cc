// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "ebb_estimate.h"

#include "traffic/bisection.h"
#include "traffic/channel_load.h"
#include "traffic/route_tracer.h"

namespace psssp {

namespace {

// The switch-to-host paths the runs need, each traced once: a flow's path
// after its source's own cable depends only on the source's switch and the
// destination, and that cable carries one flow at most (every host is in one
// flow), so it cannot be a flow's bottleneck.
// With few runs on a large fabric (fast effort's estimate) a path is rarely
// needed twice and the table (8 bytes per switch and host) would cost more
// than it saves; then
// every path is traced when needed, into one run's channels.
class PathCache {
 public:
  PathCache(const RouteTracer& tracer, const std::vector<PortRef>& hosts, std::size_t lookups)
      : tracer_(tracer), hosts_(hosts), row_of_(hosts.size(), RouteTracer::kNoRow) {
    for (std::size_t h = 0; h < hosts.size(); ++h) {
      const RouteTracer::Start s = tracer.start(hosts[h]);
      if (s.status == TraceStatus::delivered) row_of_[h] = s.row;
    }
    const std::size_t entries = tracer.switch_count() * hosts.size();
    if (entries > 4 * lookups) return;  // no table: trace every path
    first_.assign(entries, kUnknown);
    length_.assign(first_.size(), 0);
  }

  // Before each run: without a table, the last run's paths go.
  void begin_run() {
    if (first_.empty()) channels_.clear();
  }

  // The channels from host `src`'s switch to host `dst`, as [first, first +
  // length) of channels(); false: no route.
  bool path(std::size_t src, std::size_t dst, std::uint32_t& first, std::uint32_t& length) {
    if (row_of_[src] == RouteTracer::kNoRow) return false;
    if (first_.empty()) return trace(src, dst, first, length);
    const std::size_t key = row_of_[src] * hosts_.size() + dst;
    if (first_[key] == kUnknown && !trace(src, dst, first_[key], length_[key]))
      first_[key] = kNoRoute;
    first = first_[key];
    length = length_[key];
    return first != kNoRoute;
  }
  const ChannelId* channels() const { return channels_.data(); }

 private:
  // Appends the path to channels(); false (nothing appended): no route.
  bool trace(std::size_t src, std::size_t dst, std::uint32_t& first, std::uint32_t& length) {
    const std::size_t before = channels_.size();
    const Lid lid = tracer_.fabric().port(hosts_[dst]).lid;
    const TraceEnd end =
        tracer_.trace(row_of_[src], lid, [&](ChannelId c) { channels_.push_back(c); });
    if (end.status != TraceStatus::delivered) {
      channels_.resize(before);
      return false;
    }
    first = static_cast<std::uint32_t>(before);
    length = static_cast<std::uint32_t>(channels_.size() - before);
    return true;
  }

  static constexpr std::uint32_t kUnknown = 0xFFFFFFFFu, kNoRoute = 0xFFFFFFFEu;
  const RouteTracer& tracer_;
  const std::vector<PortRef>& hosts_;
  std::vector<std::uint32_t> row_of_;          // per host: its switch's row, kNoRow if none
  std::vector<std::uint32_t> first_, length_;  // per (source switch row, destination host)
  std::vector<ChannelId> channels_;
};

}  // namespace

double estimate_ebb(const Fabric& f, const ForwardingTables& lfts,
                    const std::vector<PortRef>& hosts, unsigned runs, std::uint64_t seed,
                    bool both_ways, bool by_capacity) {
  if (hosts.size() < 2 || runs == 0) return 0.0;
  return estimate_ebb(f, lfts, hosts, BisectionDraws(hosts.size(), runs, seed), both_ways,
                      by_capacity);
}

double estimate_ebb(const Fabric& f, const ForwardingTables& lfts,
                    const std::vector<PortRef>& hosts, const BisectionDraws& draws, bool both_ways,
                    bool by_capacity) {
  const unsigned runs = draws.runs();
  if (hosts.size() < 2 || runs == 0 || draws.ranks() != hosts.size()) return 0.0;
  const RouteTracer tracer(f, lfts);
  const std::size_t flows = both_ways ? 2 * (hosts.size() / 2) : hosts.size() / 2;
  PathCache cache(tracer, hosts, static_cast<std::size_t>(runs) * flows);
  std::vector<double> gbps, host_gbps, injection;  // by_capacity only
  if (by_capacity) {
    gbps = channel_gbps(f);
    for (const PortRef h : hosts) host_gbps.push_back(gbps[f.channel(h)]);
  }
  std::vector<std::uint32_t> load(f.channel_count(), 0);
  std::vector<std::uint32_t> begin, end;  // the routed flows, in flow order
  double total = 0.0;
  for (unsigned r = 0; r < runs; ++r) {
    begin.clear();
    end.clear();
    injection.clear();
    cache.begin_run();
    bisection_pairs(draws.run(r), hosts.size(), both_ways,
                    [&](std::uint32_t src, std::uint32_t dst) {
                      std::uint32_t first = 0, length = 0;
                      if (!cache.path(src, dst, first, length)) return;  // no route: share 0
                      begin.push_back(first);
                      end.push_back(first + length);
                      if (by_capacity) injection.push_back(host_gbps[src]);
                    });
    // The cache may have grown while the pairs were traced: take its channels now.
    const FlowPaths paths{cache.channels(), begin.data(), end.data(), begin.size()};
    add_channel_loads(paths, load.data());
    const double sum =
        by_capacity ? sum_of_capacity_shares(paths, load.data(), gbps.data(), injection.data())
                    : sum_of_shares(paths, load.data());
    total += sum / static_cast<double>(flows);
    clear_channel_loads(paths, load.data());
  }
  return total / runs;
}

double estimate_ebb(const Fabric& f, const ForwardingTables& lfts, unsigned runs,
                    std::uint64_t seed, bool both_ways) {
  return estimate_ebb(f, lfts, f.host_ports(), runs, seed, both_ways);
}

}  // namespace psssp
