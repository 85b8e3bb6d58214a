// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "route_checker.h"

#include <algorithm>
#include <atomic>
#include <deque>

#include "parallel/run_workers.h"
#include "parallel/thread_count.h"

namespace psssp::sim {
namespace {

constexpr std::uint16_t kFar = 0xFFFF;

struct Dest {
  Lid lid;
  PortRef owner;
  std::uint32_t dest_row;  // switch the owner hangs off, kNoRow if none
};

struct Failure {
  std::uint32_t row;
  Lid dlid;
  std::uint64_t pairs;
  TraceEnd end;
};

struct ThreadResult {
  std::vector<std::uint64_t> channel_routes;
  std::vector<std::uint64_t> row_delivered;  // delivered destination LIDs per source row
  std::vector<std::uint64_t> own_delivered;  // per host channel: of those, its own LIDs
  std::vector<Failure> failures;
  std::uint64_t delivered = 0, hop_sum = 0, minimal = 0;
  std::uint32_t max_hops = 0;
};

// Switch-to-switch distances from every switch in `targets` (BFS over usable
// cables; the cables are symmetric, so distance to equals distance from).
std::vector<std::vector<std::uint16_t>> distances_to(const RouteTracer& t,
                                                     const std::vector<std::uint32_t>& targets) {
  const Fabric& f = t.fabric();
  const std::size_t n = t.switch_count();
  std::vector<std::vector<std::uint32_t>> adj(n);
  for (std::uint32_t r = 0; r < n; ++r) {
    const Node& sw = f.node(t.switch_at(r));
    for (PortNum p = 1; p < sw.ports.size(); ++p) {
      const Port& port = sw.ports[p];
      if (!port.usable() || !f.port(port.remote).healthy) continue;
      if (!f.node(port.remote.node).is_switch()) continue;
      const std::uint32_t to = t.row_of(port.remote.node);
      if (to != RouteTracer::kNoRow && to != r) adj[r].push_back(to);
    }
  }
  std::vector<std::vector<std::uint16_t>> dist(n);
  for (std::uint32_t target : targets) {
    auto& d = dist[target];
    d.assign(n, kFar);
    std::deque<std::uint32_t> queue{target};
    d[target] = 0;
    while (!queue.empty()) {
      const std::uint32_t u = queue.front();
      queue.pop_front();
      for (std::uint32_t v : adj[u])
        if (d[v] == kFar) {
          d[v] = static_cast<std::uint16_t>(d[u] + 1);
          queue.push_back(v);
        }
    }
  }
  return dist;
}

std::string host_label(const Fabric& f, PortRef p) {
  return describe_node(f, p.node) + " port " + std::to_string(p.port) + " (LID " +
         std::to_string(f.port(p).lid) + ")";
}

// Every LID of every host port, with the switch its owner hangs off.
std::vector<Dest> destinations(const Fabric& fabric, const RouteTracer& tracer) {
  std::vector<Dest> dests;
  for (const PortRef& h : fabric.host_ports()) {
    const Port& port = fabric.port(h);
    const RouteTracer::Start s = tracer.start(h);
    for (unsigned k = 0; k < port.lid_count(); ++k)
      dests.push_back(Dest{static_cast<Lid>(port.lid + k), h, s.row});
  }
  return dests;
}

// Sources grouped by the switch they hang off (the result); broken host
// links and host-to-host cables are settled here, into `report` and `faults`.
std::vector<std::vector<PortRef>> sources_by_switch(const Fabric& fabric, const RouteTracer& tracer,
                                                    const std::vector<Dest>& dests,
                                                    std::size_t max_faults, CheckReport& report,
                                                    std::vector<CheckFault>& faults) {
  std::vector<std::vector<PortRef>> on_row(tracer.switch_count());
  for (const PortRef& h : fabric.host_ports()) {
    const RouteTracer::Start s = tracer.start(h);
    const std::uint64_t own = fabric.port(h).lid_count();
    report.pairs += dests.size() - own;
    if (s.status == TraceStatus::delivered && s.row != RouteTracer::kNoRow) {
      on_row[s.row].push_back(h);
      continue;
    }
    if (s.status == TraceStatus::delivered) {  // cabled straight to another CA port
      for (const Dest& d : dests) {
        if (d.owner == h) continue;
        if (d.owner == s.direct) {
          ++report.delivered;
          continue;
        }
        ++report.pairs_by_kind[static_cast<int>(TraceStatus::wrong_delivery)];
        ++report.fault_count;
        if (faults.size() < max_faults)
          faults.push_back(CheckFault{TraceStatus::wrong_delivery, h, true, kNoNode, d.lid, 1,
                                      host_label(fabric, h) + " is cabled to " +
                                          host_label(fabric, s.direct) + ", not to LID " +
                                          std::to_string(d.lid)});
      }
      continue;
    }
    const std::uint64_t lost = dests.size() - own;
    report.pairs_by_kind[static_cast<int>(s.status)] += lost;
    ++report.fault_count;
    if (faults.size() < max_faults)
      faults.push_back(CheckFault{s.status, h, true, kNoNode, 0, lost,
                                  "host link of " + host_label(fabric, h) + " is " +
                                      trace_status_name(s.status) + ": all " +
                                      std::to_string(lost) + " routes from it fail"});
  }
  return on_row;
}

// Traces every (source switch, destination LID) once, weighted by the hosts
// on that switch; threads take destinations and keep their own counters.
std::vector<ThreadResult> trace_all(const Fabric& fabric, const RouteTracer& tracer,
                                    const std::vector<Dest>& dests,
                                    const std::vector<std::vector<PortRef>>& on_row,
                                    unsigned threads) {
  std::vector<std::uint32_t> source_rows, dest_rows;
  for (std::uint32_t r = 0; r < on_row.size(); ++r)
    if (!on_row[r].empty()) source_rows.push_back(r);
  for (const Dest& d : dests)
    if (d.dest_row != RouteTracer::kNoRow) dest_rows.push_back(d.dest_row);
  std::sort(dest_rows.begin(), dest_rows.end());
  dest_rows.erase(std::unique(dest_rows.begin(), dest_rows.end()), dest_rows.end());
  const auto dist = distances_to(tracer, dest_rows);

  threads = static_cast<unsigned>(
      std::max<std::size_t>(1, std::min<std::size_t>(parallel::effective_threads(threads),
                                                     std::max<std::size_t>(dests.size(), 1))));
  std::vector<ThreadResult> results(threads);
  for (ThreadResult& res : results) {
    res.channel_routes.assign(fabric.channel_count(), 0);
    res.row_delivered.assign(tracer.switch_count(), 0);
    res.own_delivered.assign(fabric.channel_count(), 0);
  }
  std::vector<std::vector<ChannelId>> paths(threads);
  parallel::parallel_for(dests.size(), threads, [&](std::size_t di, unsigned t) {
    ThreadResult& res = results[t];
    std::vector<ChannelId>& path = paths[t];
    const Dest& d = dests[di];
    for (std::uint32_t row : source_rows) {
      const auto& hosts = on_row[row];
      std::uint64_t w = hosts.size();
      const bool own_row =
          d.dest_row == row && std::find(hosts.begin(), hosts.end(), d.owner) != hosts.end();
      if (own_row) --w;  // a port does not route to itself
      if (w == 0) continue;
      path.clear();
      const TraceEnd end = tracer.trace(row, d.lid, [&](ChannelId c) { path.push_back(c); });
      if (end.status != TraceStatus::delivered) {
        res.failures.push_back(Failure{row, d.lid, w, end});
        continue;
      }
      res.delivered += w;
      ++res.row_delivered[row];  // every host of the row but the owner sends over its cable
      if (own_row) ++res.own_delivered[fabric.channel(d.owner)];
      res.hop_sum += w * end.hops;
      res.max_hops = std::max(res.max_hops, end.hops);
      if (d.dest_row != RouteTracer::kNoRow && dist[d.dest_row][row] == end.hops) res.minimal += w;
      for (ChannelId c : path) res.channel_routes[c] += w;
    }
  });
  return results;
}

// Sums the threads' counts into `report`; returns the routes per channel
// (host cables included) and the failed traces in (source switch, LID) order.
std::vector<std::uint64_t> merge(std::vector<ThreadResult>& results, const Fabric& fabric,
                                 const std::vector<std::vector<PortRef>>& on_row,
                                 CheckReport& report, std::vector<Failure>& failures) {
  std::vector<std::uint64_t> routes(fabric.channel_count(), 0);
  std::uint64_t hop_sum = 0;
  for (ThreadResult& r : results) {
    report.delivered += r.delivered;
    hop_sum += r.hop_sum;
    report.minimal_pairs += r.minimal;
    report.max_hops = std::max(report.max_hops, r.max_hops);
    for (std::size_t c = 0; c < routes.size(); ++c) routes[c] += r.channel_routes[c];
    for (std::uint32_t row = 0; row < on_row.size(); ++row)
      for (const PortRef& h : on_row[row]) {
        const ChannelId c = fabric.channel(h);  // the host's own cable, host to switch
        routes[c] += r.row_delivered[row] - r.own_delivered[c];
      }
    failures.insert(failures.end(), r.failures.begin(), r.failures.end());
  }
  const std::uint64_t routed = report.delivered;
  report.mean_hops = routed ? static_cast<double>(hop_sum) / static_cast<double>(routed) : 0.0;
  report.minimal_share =
      routed ? static_cast<double>(report.minimal_pairs) / static_cast<double>(routed) : 0.0;
  std::sort(failures.begin(), failures.end(), [](const Failure& a, const Failure& b) {
    return a.row != b.row ? a.row < b.row : a.dlid < b.dlid;
  });
  return routes;
}

// One finding per failed (source switch, LID), up to max_faults described.
void report_failures(const Fabric& fabric, const RouteTracer& tracer,
                     const std::vector<std::vector<PortRef>>& on_row,
                     const std::vector<Failure>& failures, std::size_t max_faults,
                     CheckReport& report) {
  for (const Failure& fl : failures) {
    if (fl.end.status == TraceStatus::black_hole)
      report.holes.push_back({tracer.switch_at(fl.end.row), fl.dlid, fl.pairs});
    report.pairs_by_kind[static_cast<int>(fl.end.status)] += fl.pairs;
    ++report.fault_count;
    if (report.faults.size() >= max_faults) continue;
    const NodeId sw = tracer.switch_at(fl.row);
    const PortRef example = on_row[fl.row].front();
    std::string msg = "from " + std::to_string(on_row[fl.row].size()) + " host(s) on switch " +
                      describe_node(fabric, sw) + " lid " +
                      std::to_string(fabric.node(sw).ports[0].lid) + " (e.g. " +
                      host_label(fabric, example) + ") to LID " + std::to_string(fl.dlid);
    const PortRef owner = fabric.port_of_lid(fl.dlid);
    if (owner.valid())
      msg += " of " + describe_node(fabric, owner.node) + " port " + std::to_string(owner.port);
    msg += ": " + describe_trace_end(tracer, fl.end, fl.dlid);
    if (fl.end.status == TraceStatus::loop) {
      msg += "; cycle:";
      for (NodeId n : loop_cycle(tracer, fl.end.row, fl.dlid))
        msg += " " + describe_node(fabric, n);
    }
    report.faults.push_back(CheckFault{fl.end.status, example, false, sw, fl.dlid, fl.pairs, msg});
  }
  auto& holes = report.holes;
  std::sort(holes.begin(), holes.end(), [](const CheckReport::Hole& a, const CheckReport::Hole& b) {
    return a.sw != b.sw ? a.sw < b.sw : a.lid < b.lid;
  });
  std::size_t kept = 0;
  for (const CheckReport::Hole& h : holes) {
    if (kept && holes[kept - 1].sw == h.sw && holes[kept - 1].lid == h.lid) {
      holes[kept - 1].pairs += h.pairs;
    } else {
      holes[kept++] = h;
    }
  }
  holes.resize(kept);
}

// Edge forwarding index over switch-to-switch channels.
void edge_forwarding_index(const Fabric& fabric, const std::vector<std::uint64_t>& routes,
                           CheckReport& report) {
  std::uint64_t sum = 0;
  for (NodeId sw : fabric.switches()) {
    const Node& node = fabric.node(sw);
    for (PortNum p = 1; p < node.ports.size(); ++p) {
      const Port& port = node.ports[p];
      if (!port.usable() || !fabric.port(port.remote).healthy) continue;
      if (!fabric.node(port.remote.node).is_switch()) continue;
      const ChannelId c = fabric.channel(PortRef{sw, p});
      ++report.switch_channels;
      sum += routes[c];
      if (routes[c] > report.efi_max) {
        report.efi_max = routes[c];
        report.efi_max_channel = c;
      }
    }
  }
  report.efi_mean = report.switch_channels
                        ? static_cast<double>(sum) / static_cast<double>(report.switch_channels)
                        : 0.0;
}

}  // namespace

CheckReport check_routes(const Fabric& fabric, const ForwardingTables& lfts, unsigned threads,
                         std::size_t max_faults) {
  const RouteTracer tracer(fabric, lfts);
  CheckReport report;
  const std::vector<Dest> dests = destinations(fabric, tracer);
  std::vector<CheckFault> host_faults;
  const auto on_row = sources_by_switch(fabric, tracer, dests, max_faults, report, host_faults);
  std::vector<ThreadResult> results = trace_all(fabric, tracer, dests, on_row, threads);
  std::vector<Failure> failures;
  std::vector<std::uint64_t> routes = merge(results, fabric, on_row, report, failures);
  report.faults = std::move(host_faults);
  report_failures(fabric, tracer, on_row, failures, max_faults, report);
  edge_forwarding_index(fabric, routes, report);
  report.channel_routes = std::move(routes);
  return report;
}

}  // namespace psssp::sim
