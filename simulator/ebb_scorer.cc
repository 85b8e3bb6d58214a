// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "ebb_scorer.h"

#include <algorithm>
#include <mutex>
#include <queue>
#include <tuple>

#include "parallel/run_workers.h"
#include "parallel/thread_count.h"
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

bool EbbScorer::score_dense(const std::vector<Flow>& flows, Workspace& ws, LinkStats* stats,
                            RunScore& result) const {
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

  // All flows advance one hop per pass, in destination order, over the
  // flows still under way: the lookups of a pass do not depend on each
  // other, so their cache misses overlap. Flow order[k]'s path goes to
  // path[k * kSlots ...]; a longer path takes the general tracer.
  constexpr std::uint32_t kSlots = 16;
  if (ws.count16.size() != capacity_.size()) ws.count16.assign(capacity_.size(), 0);
  if (ws.path.size() < n * kSlots) ws.path.resize(n * kSlots);
  ws.row.resize(n);
  ws.want.resize(n);
  ws.base.resize(n);
  ws.active.resize(n);
  ws.end.resize(n);
  ChannelId* path = ws.path.data();
  std::uint16_t* count = ws.count16.data();
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
    if (hop == kSlots) return false;  // nothing counted yet
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
  std::size_t used = 0;
  for (std::size_t k = 0; k < n; ++k) {
    used += len[k];
    for (const ChannelId* q = path + k * kSlots; q < path + k * kSlots + len[k]; ++q) ++count[*q];
  }

  // Per flow (in destination order) its largest count and capacity share;
  // summed below in flow order exactly as score_general does.
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
  return true;
}

RunScore EbbScorer::score_general(const std::vector<Flow>& flows, Workspace& ws, bool maxmin,
                                  LinkStats* stats) const {
  RunScore result;
  const std::size_t n = flows.size();
  ws.path.clear();
  ws.begin.assign(n, 0);
  ws.end.assign(n, 0);
  std::uint32_t* count = ws.count.data();
  auto fail = [&](std::size_t i, const std::string& why) {
    for (ChannelId c : ws.path) count[c] = 0;  // leave the workspace clean
    broken(flows[i], why);
  };
  // Sequential trace, for paths too long for a lane and for diagnostics.
  auto trace_one = [&](std::size_t i, std::uint32_t row) {
    ws.begin[i] = static_cast<std::uint32_t>(ws.path.size());
    ws.path.push_back(starts_[flows[i].src].uplink);
    ++count[ws.path.back()];
    const TraceEnd end = tracer_.trace(row, flows[i].dlid, [&](ChannelId c) {
      ws.path.push_back(c);
      ++count[c];
    });
    ws.end[i] = static_cast<std::uint32_t>(ws.path.size());
    if (end.status != TraceStatus::delivered)
      fail(i, describe_trace_end(tracer_, end, flows[i].dlid));
  };

  // Flows advance one hop at a time in kLanes interleaved lanes: the LFT
  // lookups of different flows are independent, so their cache misses
  // overlap instead of queueing behind each other.
  constexpr unsigned kLanes = 32, kSlots = 32;
  struct Lane {
    std::uint32_t flow, row, want, n;
    Lid dlid;
    ChannelId buf[kSlots];
  };
  Lane lanes[kLanes];
  unsigned active = 0;
  std::size_t next = 0;
  auto refill = [&](Lane& lane) -> bool {
    while (next < n) {
      const std::size_t i = next++;
      const Flow& f = flows[i];
      const RouteTracer::Start& s = starts_[f.src];
      if (s.status != TraceStatus::delivered)
        fail(i, std::string("the host link is ") + trace_status_name(s.status));
      if (s.row == RouteTracer::kNoRow) {  // cabled straight to another CA port
        if (tracer_.fabric().port(s.direct).lid != hosts_[f.dst].lid)
          fail(i, "cabled to another host, not to LID " + std::to_string(f.dlid));
        ws.begin[i] = static_cast<std::uint32_t>(ws.path.size());
        ws.path.push_back(s.uplink);
        ++count[s.uplink];
        ws.end[i] = static_cast<std::uint32_t>(ws.path.size());
        continue;
      }
      if (f.dlid >= tracer_.lid_limit()) {
        trace_one(i, s.row);  // reports the black hole
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
  };
  while (active < kLanes && refill(lanes[active])) ++active;
  while (active > 0) {
    for (unsigned k = 0; k < active;) {
      Lane& lane = lanes[k];
      ChannelId c = 0;
      const std::uint32_t r = tracer_.step(lane.row, lane.dlid, lane.want, c);
      bool done = false;
      if (r == RouteTracer::kFailed || (r != RouteTracer::kArrived && lane.n + 1 >= kSlots)) {
        trace_one(lane.flow, starts_[flows[lane.flow].src].row);  // long path, or why it fails
        done = true;
      } else {
        lane.buf[lane.n++] = c;
        if (r == RouteTracer::kArrived) {
          ws.begin[lane.flow] = static_cast<std::uint32_t>(ws.path.size());
          for (std::uint32_t j = 0; j < lane.n; ++j) {
            ws.path.push_back(lane.buf[j]);
            ++count[lane.buf[j]];
          }
          ws.end[lane.flow] = static_cast<std::uint32_t>(ws.path.size());
          done = true;
        } else {
          lane.row = r;
          tracer_.prefetch(r, lane.dlid);
        }
      }
      if (!done) {
        ++k;
      } else if (!refill(lane)) {
        lane = lanes[--active];  // keep the active lanes packed
      }
    }
  }

  // Shares, summed in flow order by the kernel the router's estimate uses
  // (traffic/channel_load.h); every path starts with its host link, so no
  // path is empty.
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
    if (!count[c]) continue;  // already recorded (channel shared by flows)
    if (stats) {
      stats->sum[c] += count[c];
      stats->max[c] = std::max(stats->max[c], count[c]);
    }
    count[c] = 0;
  }
  return result;
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
