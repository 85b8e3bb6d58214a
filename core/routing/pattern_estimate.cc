// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "pattern_estimate.h"

#include <algorithm>
#include <numeric>

#include "traffic/channel_load.h"
#include "traffic/route_tracer.h"

namespace psssp {
namespace {

using Phase = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

// a < b in natural order: runs of digits compare as numbers.
bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      std::size_t i0 = i, j0 = j;
      while (i0 < a.size() && a[i0] == '0') ++i0;
      while (j0 < b.size() && b[j0] == '0') ++j0;
      std::size_t i1 = i0, j1 = j0;
      while (i1 < a.size() && digit(a[i1])) ++i1;
      while (j1 < b.size() && digit(b[j1])) ++j1;
      if (i1 - i0 != j1 - j0) return i1 - i0 < j1 - j0;
      const int c = a.compare(i0, i1 - i0, b, j0, j1 - j0);
      if (c != 0) return c < 0;
      i = i1;
      j = j1;
    } else {
      if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

// The phases of shift, recursive doubling and ring over ranks 0..n-1, rank
// r on host rank_host[r].
void add_patterns(const std::vector<std::uint32_t>& rank_host, std::size_t shift_phases,
                  std::size_t doubling_phases, const std::string& mapping,
                  StructuredPatterns& out) {
  const std::size_t n = rank_host.size();
  const auto phase_of = [&](auto partner) {
    Phase p;
    p.reserve(n);
    for (std::size_t r = 0; r < n; ++r) {
      const std::size_t to = partner(r);
      if (to < n && to != r) p.emplace_back(rank_host[r], rank_host[to]);
    }
    return p;
  };
  StructuredPatterns::Pattern shift{"shift " + mapping, {}};
  std::vector<std::size_t> shifts;
  const std::size_t count = std::min(shift_phases, n - 1);
  const std::size_t near = (count + 1) / 2;
  for (std::size_t s = 1; s <= near; ++s) shifts.push_back(s);
  for (std::size_t i = 0; i < count - near; ++i)  // spread over (near, n - 1]
    shifts.push_back(near + 1 + (n - 1 - near) * i / (count - near));
  for (const std::size_t s : shifts)
    shift.phases.push_back(phase_of([&](std::size_t r) { return (r + s) % n; }));
  StructuredPatterns::Pattern doubling{"recursive-doubling " + mapping, {}};
  for (std::size_t bit = 1; bit < n && doubling.phases.size() < doubling_phases; bit <<= 1)
    doubling.phases.push_back(phase_of([&](std::size_t r) { return r ^ bit; }));
  StructuredPatterns::Pattern ring{"ring " + mapping, {}};
  ring.phases.push_back(phase_of([&](std::size_t r) { return (r + 1) % n; }));
  out.patterns.push_back(std::move(shift));
  out.patterns.push_back(std::move(doubling));
  out.patterns.push_back(std::move(ring));
}

}  // namespace

std::vector<std::uint32_t> hostname_order(const Fabric& fabric, const std::vector<PortRef>& hosts) {
  std::vector<std::uint32_t> order(hosts.size());
  std::iota(order.begin(), order.end(), 0u);
  const auto label = [&](std::uint32_t h) -> const std::string& {
    const Node& node = fabric.node(hosts[h].node);
    return node.description.empty() ? node.name : node.description;
  };
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const std::string &la = label(a), &lb = label(b);
    if (natural_less(la, lb)) return true;
    if (natural_less(lb, la)) return false;
    return hosts[a].port < hosts[b].port;
  });
  return order;
}

StructuredPatterns structured_patterns(const Fabric& fabric, const std::vector<PortRef>& hosts,
                                       std::size_t shift_phases, std::size_t doubling_phases) {
  StructuredPatterns out;
  if (hosts.size() < 2 || shift_phases == 0) return out;
  std::vector<std::uint32_t> linear(hosts.size());
  std::iota(linear.begin(), linear.end(), 0u);
  add_patterns(linear, shift_phases, doubling_phases, "linear", out);
  const std::vector<std::uint32_t> by_name = hostname_order(fabric, hosts);
  if (by_name != linear) add_patterns(by_name, shift_phases, doubling_phases, "hostname", out);
  return out;
}

std::vector<double> estimate_patterns(const Fabric& fabric, const ForwardingTables& lfts,
                                      const std::vector<PortRef>& hosts,
                                      const StructuredPatterns& patterns, bool by_capacity) {
  if (patterns.patterns.empty()) return {};
  const RouteTracer tracer(fabric, lfts);
  std::vector<std::uint32_t> row(hosts.size(), RouteTracer::kNoRow);
  for (std::size_t h = 0; h < hosts.size(); ++h) {
    const RouteTracer::Start s = tracer.start(hosts[h]);
    if (s.status == TraceStatus::delivered) row[h] = s.row;
  }
  std::vector<double> gbps, injection;
  if (by_capacity) gbps = channel_gbps(fabric);
  std::vector<std::uint32_t> load(fabric.channel_count(), 0);
  std::vector<ChannelId> channels;
  std::vector<std::uint32_t> begin, end;
  std::vector<double> values;
  for (const StructuredPatterns::Pattern& pattern : patterns.patterns) {
    double total = 0.0;
    for (const Phase& phase : pattern.phases) {
      channels.clear();
      begin.clear();
      end.clear();
      injection.clear();
      for (const auto& [src, dst] : phase) {
        if (row[src] == RouteTracer::kNoRow) continue;  // no route: share 0
        const std::size_t before = channels.size();
        const TraceEnd e = tracer.trace(row[src], fabric.port(hosts[dst]).lid,
                                        [&](ChannelId c) { channels.push_back(c); });
        if (e.status != TraceStatus::delivered) {
          channels.resize(before);
          continue;
        }
        begin.push_back(static_cast<std::uint32_t>(before));
        end.push_back(static_cast<std::uint32_t>(channels.size()));
        if (by_capacity) injection.push_back(gbps[fabric.channel(hosts[src])]);
      }
      const FlowPaths paths{channels.data(), begin.data(), end.data(), begin.size()};
      add_channel_loads(paths, load.data());
      const double sum =
          by_capacity ? sum_of_capacity_shares(paths, load.data(), gbps.data(), injection.data())
                      : sum_of_shares(paths, load.data());
      clear_channel_loads(paths, load.data());
      if (!phase.empty()) total += sum / static_cast<double>(phase.size());
    }
    values.push_back(pattern.phases.empty() ? 0.0
                                            : total / static_cast<double>(pattern.phases.size()));
  }
  return values;
}

}  // namespace psssp
