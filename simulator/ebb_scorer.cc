// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// EbbScorer: the dense table, the general (lane) trace and max-min filling;
// the dense fast path is in ebb_scorer_dense.cc, score_runs in score_runs.cc.
#include "ebb_scorer.h"

#include <algorithm>
#include <queue>
#include <tuple>

#include "traffic/channel_load.h"

namespace psssp::sim {
namespace {
constexpr std::uint32_t kNone = 0xFFFFFFFFu;
}

EbbScorer::EbbScorer(const RouteTracer& tracer, const std::vector<Host>& hosts)
    : tracer_(tracer), hosts_(hosts) {
  const Fabric& f = tracer.fabric();
  starts_.reserve(hosts.size());
  for (const Host& h : hosts) starts_.push_back(tracer.start(h.port));
  capacity_ = channel_gbps(f);

  uniform_ = true;
  bool first = true;
  for (ChannelId c = 0; c < capacity_.size(); ++c) {
    if (!f.port(f.channel_port(c)).connected()) continue;  // never on a delivered path
    if (first) uniform_gbps_ = capacity_[c];
    first = false;
    uniform_ = uniform_ && capacity_[c] == uniform_gbps_;
  }
  uniform_ = uniform_ && uniform_gbps_ > 0;

  const std::size_t lids = tracer.lid_limit();
  column_of_lid_.assign(lids, kNoColumn);
  std::vector<Lid> lid_of_column;
  for (std::size_t lid = 1; lid < lids; ++lid) {
    const PortRef owner = f.port_of_lid(static_cast<Lid>(lid));
    if (!owner.valid() || f.node(owner.node).is_switch()) continue;
    column_of_lid_[lid] = static_cast<std::uint32_t>(lid_of_column.size());
    lid_of_column.push_back(static_cast<Lid>(lid));
  }
  columns_ = lid_of_column.size();
  rows_ = tracer.switch_count();
  dense_.resize(columns_ * rows_);
  // Transposed in blocks of 64 rows: one cache line written per column.
  constexpr std::size_t kBlock = 64;
  std::vector<const PortNum*> block(kBlock);
  for (std::size_t r0 = 0; r0 < rows_; r0 += kBlock) {
    const std::size_t nr = std::min(kBlock, rows_ - r0);
    for (std::size_t r = 0; r < nr; ++r)
      block[r] = tracer.lfts().row(tracer.switch_at(static_cast<std::uint32_t>(r0 + r)));
    for (std::size_t c = 0; c < columns_; ++c) {
      PortNum* out = &dense_[c * rows_ + r0];
      const Lid lid = lid_of_column[c];
      for (std::size_t r = 0; r < nr; ++r) out[r] = block[r][lid];
    }
  }
}

EbbScorer::Workspace EbbScorer::workspace() const {
  Workspace ws;
  ws.count.assign(capacity_.size(), 0);
  ws.local.assign(capacity_.size(), kNone);
  return ws;
}

void EbbScorer::broken(const Flow& f, const std::string& why) const {
  const Host& h = hosts_[f.src];
  throw RouteError("route from " + describe_node(tracer_.fabric(), h.port.node) + " port " +
                   std::to_string(h.port.port) + " (LID " + std::to_string(h.lid) + "): " + why +
                   "; run psssp-sim check for all faults");
}

RunScore EbbScorer::score(const std::vector<Flow>& flows, Workspace& ws, bool maxmin,
                          LinkStats* stats) const {
  RunScore result;
  if (!maxmin && score_dense(flows, ws, stats, result)) return result;
  return score_general(flows, ws, maxmin, stats);
}

// Flows advance one hop at a time in kLanes interleaved lanes: the LFT
// lookups of different flows are independent, so their cache misses
// overlap instead of queueing behind each other.
struct EbbScorer::Lane {
  static constexpr unsigned kSlots = 32;
  std::uint32_t flow, row, want, n;
  Lid dlid;
  ChannelId buf[kSlots];
};

RunScore EbbScorer::score_general(const std::vector<Flow>& flows, Workspace& ws, bool maxmin,
                                  LinkStats* stats) const {
  RunScore result;
  const std::size_t n = flows.size();
  trace_lanes(flows, ws);

  // Shares, summed in flow order by the kernel the router's estimate uses
  // (traffic/channel_load.h); every path starts with its host link, so no
  // path is empty.
  const std::uint32_t* count = ws.count.data();
  const FlowPaths paths{ws.path.data(), ws.begin.data(), ws.end.data(), n};
  const double sum = sum_of_shares(paths, count);
  ws.injection.resize(n);
  for (std::size_t i = 0; i < n; ++i) ws.injection[i] = capacity_[ws.path[ws.begin[i]]];
  const double cap_sum =
      sum_of_capacity_shares(paths, count, capacity_.data(), ws.injection.data());
  result.ebb = n ? sum / static_cast<double>(n) : 1.0;
  result.capacity = n ? cap_sum / static_cast<double>(n) : 1.0;
  if (maxmin) result.maxmin = n ? maxmin_value(n, ws) : 1.0;

  for (ChannelId c : ws.path) {
    if (!ws.count[c]) continue;  // already recorded (channel shared by flows)
    if (stats) {
      stats->sum[c] += ws.count[c];
      stats->max[c] = std::max(stats->max[c], ws.count[c]);
    }
    ws.count[c] = 0;
  }
  return result;
}

void EbbScorer::trace_lanes(const std::vector<Flow>& flows, Workspace& ws) const {
  constexpr unsigned kLanes = 32;
  ws.path.clear();
  ws.begin.assign(flows.size(), 0);
  ws.end.assign(flows.size(), 0);
  Lane lanes[kLanes];
  unsigned active = 0;
  std::size_t next = 0;
  while (active < kLanes && refill(flows, next, lanes[active], ws)) ++active;
  while (active > 0) {
    for (unsigned k = 0; k < active;) {
      if (!step_lane(flows, lanes[k], ws)) {
        ++k;
      } else if (!refill(flows, next, lanes[k], ws)) {
        lanes[k] = lanes[--active];  // keep the active lanes packed
      }
    }
  }
}

bool EbbScorer::step_lane(const std::vector<Flow>& flows, Lane& lane, Workspace& ws) const {
  ChannelId c = 0;
  const std::uint32_t r = tracer_.step(lane.row, lane.dlid, lane.want, c);
  if (r == RouteTracer::kFailed || (r != RouteTracer::kArrived && lane.n + 1 >= Lane::kSlots)) {
    trace_one(flows, lane.flow, starts_[flows[lane.flow].src].row, ws);  // long, or why it fails
    return true;
  }
  lane.buf[lane.n++] = c;
  if (r == RouteTracer::kArrived) {
    ws.begin[lane.flow] = static_cast<std::uint32_t>(ws.path.size());
    for (std::uint32_t j = 0; j < lane.n; ++j) {
      ws.path.push_back(lane.buf[j]);
      ++ws.count[lane.buf[j]];
    }
    ws.end[lane.flow] = static_cast<std::uint32_t>(ws.path.size());
    return true;
  }
  lane.row = r;
  tracer_.prefetch(r, lane.dlid);
  return false;
}

bool EbbScorer::refill(const std::vector<Flow>& flows, std::size_t& next, Lane& lane,
                       Workspace& ws) const {
  while (next < flows.size()) {
    const std::size_t i = next++;
    const Flow& f = flows[i];
    const RouteTracer::Start& s = starts_[f.src];
    if (s.status != TraceStatus::delivered)
      fail(flows, i, std::string("the host link is ") + trace_status_name(s.status), ws);
    if (s.row == RouteTracer::kNoRow) {  // cabled straight to another CA port
      if (tracer_.fabric().port(s.direct).lid != hosts_[f.dst].lid)
        fail(flows, i, "cabled to another host, not to LID " + std::to_string(f.dlid), ws);
      ws.begin[i] = static_cast<std::uint32_t>(ws.path.size());
      ws.path.push_back(s.uplink);
      ++ws.count[s.uplink];
      ws.end[i] = static_cast<std::uint32_t>(ws.path.size());
      continue;
    }
    if (f.dlid >= tracer_.lid_limit()) {
      trace_one(flows, i, s.row, ws);  // reports the black hole
      continue;
    }
    lane.flow = static_cast<std::uint32_t>(i);
    lane.row = s.row;
    lane.dlid = f.dlid;
    lane.want = tracer_.terminal_of_lid(f.dlid);
    lane.buf[0] = s.uplink;
    lane.n = 1;
    tracer_.prefetch(lane.row, lane.dlid);
    return true;
  }
  return false;
}

void EbbScorer::trace_one(const std::vector<Flow>& flows, std::size_t i, std::uint32_t row,
                          Workspace& ws) const {
  ws.begin[i] = static_cast<std::uint32_t>(ws.path.size());
  ws.path.push_back(starts_[flows[i].src].uplink);
  ++ws.count[ws.path.back()];
  const TraceEnd end = tracer_.trace(row, flows[i].dlid, [&](ChannelId c) {
    ws.path.push_back(c);
    ++ws.count[c];
  });
  ws.end[i] = static_cast<std::uint32_t>(ws.path.size());
  if (end.status != TraceStatus::delivered)
    fail(flows, i, describe_trace_end(tracer_, end, flows[i].dlid), ws);
}

void EbbScorer::fail(const std::vector<Flow>& flows, std::size_t i, const std::string& why,
                     Workspace& ws) const {
  for (ChannelId c : ws.path) ws.count[c] = 0;  // leave the workspace clean
  broken(flows[i], why);
}

// Progressive filling: repeatedly the link with the smallest fair share
// (remaining capacity / unfrozen flows) fixes the rate of its unfrozen flows,
// which then release that rate on every other link they use.
double EbbScorer::maxmin_value(std::size_t flow_count, Workspace& ws) const {
  ws.links.clear();
  for (ChannelId c : ws.path)
    if (ws.local[c] == kNone) {
      ws.local[c] = static_cast<std::uint32_t>(ws.links.size());
      ws.links.push_back(c);
    }
  const std::size_t nl = ws.links.size();
  ws.remaining.resize(nl);
  ws.active.assign(nl, 0);
  ws.version.assign(nl, 0);
  ws.link_begin.assign(nl + 1, 0);
  for (ChannelId c : ws.path) ++ws.link_begin[ws.local[c] + 1];
  for (std::size_t l = 0; l < nl; ++l) {
    ws.remaining[l] = capacity_[ws.links[l]];
    ws.active[l] = ws.link_begin[l + 1];
    ws.link_begin[l + 1] += ws.link_begin[l];
  }
  ws.link_flows.resize(ws.path.size());
  {
    std::vector<std::uint32_t>& fill = ws.version;  // reused as cursor, reset below
    for (std::uint32_t f = 0; f < flow_count; ++f)
      for (std::uint32_t k = ws.begin[f]; k < ws.end[f]; ++k) {
        const std::uint32_t l = ws.local[ws.path[k]];
        ws.link_flows[ws.link_begin[l] + fill[l]++] = f;
      }
    fill.assign(nl, 0);
  }
  ws.rate.assign(flow_count, 0.0);
  ws.frozen.assign(flow_count, false);

  using Entry = std::tuple<double, std::uint32_t, std::uint32_t>;  // share, link, version
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  for (std::uint32_t l = 0; l < nl; ++l) heap.emplace(ws.remaining[l] / ws.active[l], l, 0);
  while (!heap.empty()) {
    const auto [share, l, ver] = heap.top();
    heap.pop();
    if (ver != ws.version[l] || ws.active[l] == 0) continue;
    const double r = std::max(0.0, share);
    for (std::uint32_t k = ws.link_begin[l]; k < ws.link_begin[l + 1]; ++k) {
      const std::uint32_t f = ws.link_flows[k];
      if (ws.frozen[f]) continue;
      ws.frozen[f] = true;
      ws.rate[f] = r;
      for (std::uint32_t j = ws.begin[f]; j < ws.end[f]; ++j) {
        const std::uint32_t m = ws.local[ws.path[j]];
        ws.remaining[m] -= r;
        --ws.active[m];
        ++ws.version[m];
        if (m != l && ws.active[m] > 0)
          heap.emplace(ws.remaining[m] / ws.active[m], m, ws.version[m]);
      }
    }
  }
  double sum = 0.0;
  for (std::uint32_t f = 0; f < flow_count; ++f)
    sum += std::min(1.0, ws.rate[f] / capacity_[ws.path[ws.begin[f]]]);
  for (ChannelId c : ws.links) ws.local[c] = kNone;
  return sum / static_cast<double>(flow_count);
}

}  // namespace psssp::sim
