// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// EbbScorer's fast path (ebb_scorer.h): runs without max-min whose flows all
// fit the dense destination-major table.
#include <algorithm>

#include "ebb_scorer.h"
#include "traffic/channel_load.h"

namespace psssp::sim {

namespace {
// Flow order[k]'s path goes to path[k * kSlots ...]; a longer path takes the
// general tracer.
constexpr std::uint32_t kSlots = 16;
}  // namespace

bool EbbScorer::score_dense(const std::vector<Flow>& flows, Workspace& ws, LinkStats* stats,
                            RunScore& result) const {
  if (!order_by_column(flows, ws)) return false;
  if (!trace_dense(flows, ws)) return false;  // nothing counted yet
  const std::size_t n = flows.size();
  std::size_t used = 0;
  const ChannelId* path = ws.path.data();
  const std::uint32_t* len = ws.end.data();
  for (std::size_t k = 0; k < n; ++k) {
    used += len[k];
    for (const ChannelId* q = path + k * kSlots; q < path + k * kSlots + len[k]; ++q)
      ++ws.count16[*q];
  }
  dense_shares(flows, ws, result);
  release_dense_counts(n, used, ws, stats);
  return true;
}

bool EbbScorer::order_by_column(const std::vector<Flow>& flows, Workspace& ws) const {
  const std::size_t n = flows.size();
  if (n > 0xFFFF) return false;  // counts must fit 16 bits
  const std::size_t lid_limit = column_of_lid_.size();
  for (const Flow& f : flows)
    if (f.dlid >= lid_limit || column_of_lid_[f.dlid] == kNoColumn) return false;
  // Flows ordered by destination column (counting sort).
  ws.order.resize(n);
  if (ws.bucket.size() != columns_ + 1) ws.bucket.assign(columns_ + 1, 0);
  std::uint32_t* bucket = ws.bucket.data();
  for (const Flow& f : flows) ++bucket[column_of_lid_[f.dlid] + 1];
  for (std::size_t c = 0; c < columns_; ++c) bucket[c + 1] += bucket[c];
  for (std::size_t i = 0; i < n; ++i)
    ws.order[bucket[column_of_lid_[flows[i].dlid]]++] = static_cast<std::uint32_t>(i);
  std::fill(ws.bucket.begin(), ws.bucket.end(), 0);
  return true;
}

bool EbbScorer::trace_dense(const std::vector<Flow>& flows, Workspace& ws) const {
  // All flows advance one hop per pass, in destination order, over the
  // flows still under way: the lookups of a pass do not depend on each
  // other, so their cache misses overlap.
  const std::size_t n = flows.size();
  if (ws.count16.size() != capacity_.size()) ws.count16.assign(capacity_.size(), 0);
  if (ws.path.size() < n * kSlots) ws.path.resize(n * kSlots);
  ws.row.resize(n);
  ws.want.resize(n);
  ws.base.resize(n);
  ws.active.resize(n);
  ws.end.resize(n);
  ChannelId* path = ws.path.data();
  std::uint32_t* row = ws.row.data();
  std::uint32_t* want = ws.want.data();
  std::size_t* base = ws.base.data();
  std::uint32_t* active = ws.active.data();
  std::uint32_t* len = ws.end.data();
  const PortNum* dense = dense_.data();
  for (std::size_t k = 0; k < n; ++k) {
    const Flow& f = flows[ws.order[k]];
    const RouteTracer::Start& s = starts_[f.src];
    if (s.status != TraceStatus::delivered || s.row == RouteTracer::kNoRow)
      return false;  // a host link fault, or a host cabled to a host
    path[k * kSlots] = s.uplink;
    row[k] = s.row;
    want[k] = tracer_.terminal_of_lid(f.dlid);
    base[k] = std::size_t{column_of_lid_[f.dlid]} * rows_;
    active[k] = static_cast<std::uint32_t>(k);
  }
  std::size_t under_way = n;
  for (std::uint32_t hop = 1; under_way > 0; ++hop) {
    if (hop == kSlots) return false;
    std::size_t still = 0;
    constexpr std::size_t kAhead = 16;  // flows whose LFT byte is fetched early
    for (std::size_t a = 0; a < under_way; ++a) {
      if (a + kAhead < under_way) {
        const std::uint32_t ahead = active[a + kAhead];
        __builtin_prefetch(dense + base[ahead] + row[ahead]);
      }
      const std::uint32_t k = active[a];
      ChannelId c = 0;
      const std::uint32_t r = tracer_.step_port(row[k], dense[base[k] + row[k]], want[k], c);
      if (r == RouteTracer::kFailed) return false;
      path[std::size_t{k} * kSlots + hop] = c;
      if (r == RouteTracer::kArrived) {
        len[k] = hop + 1;
      } else {
        row[k] = r;
        active[still++] = k;
      }
    }
    under_way = still;
  }
  return true;
}

void EbbScorer::dense_shares(const std::vector<Flow>& flows, Workspace& ws,
                             RunScore& result) const {
  // Per flow (in destination order) its largest count and capacity share;
  // summed below in flow order exactly as score_general does.
  const std::size_t n = flows.size();
  const ChannelId* path = ws.path.data();
  const std::uint16_t* count = ws.count16.data();
  const std::uint32_t* len = ws.end.data();
  ws.worst.resize(n);
  if (!uniform_) ws.cap_share.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const ChannelId* p = path + k * kSlots;
    const ChannelId* e = p + len[k];
    ws.worst[ws.order[k]] = max_load(p, e, count);  // the kernel's, on 16-bit counts
    if (!uniform_) {
      double cap_share = capacity_[*p] > 0 ? 1e300 : 0.0;
      for (const ChannelId* q = p; q < e; ++q)
        cap_share = std::min(cap_share, capacity_[*q] / count[*q]);
      ws.cap_share[ws.order[k]] = cap_share;
    }
  }
  double sum = 0.0, cap_sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t worst = ws.worst[i];
    const double uplink = capacity_[starts_[flows[i].src].uplink];
    // With one rate everywhere, min over the path of gbps / count is gbps /
    // worst: division rounds monotonically.
    const double cap_share = uniform_ ? uniform_gbps_ / worst : ws.cap_share[i];
    sum += 1.0 / worst;
    cap_sum += std::min(1.0, cap_share / uplink);
  }
  result.ebb = n ? sum / static_cast<double>(n) : 1.0;
  result.capacity = n ? cap_sum / static_cast<double>(n) : 1.0;
}

void EbbScorer::release_dense_counts(std::size_t n, std::size_t used, Workspace& ws,
                                     LinkStats* stats) const {
  const ChannelId* path = ws.path.data();
  std::uint16_t* count = ws.count16.data();
  const std::uint32_t* len = ws.end.data();
  if (stats) {
    for (std::size_t k = 0; k < n; ++k)
      for (const ChannelId* q = path + k * kSlots; q < path + k * kSlots + len[k]; ++q) {
        const ChannelId c = *q;
        if (!count[c]) continue;  // already recorded (channel shared by flows)
        stats->sum[c] += count[c];
        stats->max[c] = std::max<std::uint32_t>(stats->max[c], count[c]);
        count[c] = 0;
      }
  } else if (used * 8 >= ws.count16.size()) {
    std::fill(ws.count16.begin(), ws.count16.end(), 0);
  } else {
    for (std::size_t k = 0; k < n; ++k)
      for (const ChannelId* q = path + k * kSlots; q < path + k * kSlots + len[k]; ++q)
        count[*q] = 0;
  }
}

}  // namespace psssp::sim
