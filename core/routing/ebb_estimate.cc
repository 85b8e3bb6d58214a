// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "ebb_estimate.h"

#include <algorithm>

#include "fabric/rng.h"

namespace psssp {

Trace trace_route(const Fabric& f, const ForwardingTables& lfts, PortRef start, Lid lid,
                  std::vector<ChannelId>* channels) {
  const PortRef owner = f.port_of_lid(lid);
  if (!owner.valid()) return Trace::no_path;
  NodeId node = start.node;
  if (!f.node(node).is_switch()) {
    if (start == owner) return Trace::ok;
    const Port& p = f.port(start);
    if (!p.usable()) return Trace::no_path;
    if (channels) channels->push_back(f.channel(start));
    node = p.remote.node;
    if (!f.node(node).is_switch()) return p.remote == owner ? Trace::ok : Trace::wrong_end;
  }
  for (std::size_t hops = 0; hops <= f.switches().size(); ++hops) {
    const PortNum out = lfts.get(node, lid);
    if (out == kNoPath) return Trace::no_path;
    if (out == 0) return owner == PortRef{node, 0} ? Trace::ok : Trace::wrong_end;
    const Port& p = f.port(PortRef{node, out});
    if (!p.usable()) return Trace::no_path;
    if (channels) channels->push_back(f.channel(PortRef{node, out}));
    if (!f.node(p.remote.node).is_switch()) return p.remote == owner ? Trace::ok : Trace::wrong_end;
    node = p.remote.node;
  }
  return Trace::loop;
}

namespace {

// The switch-to-host paths the runs need, each traced once: a flow's path
// after its source's own cable depends only on the source's switch and the
// destination, and that cable carries one flow at most (every host is in one
// flow), so it cannot be a flow's bottleneck.
class PathCache {
 public:
  PathCache(const Fabric& f, const ForwardingTables& lfts, const std::vector<PortRef>& hosts)
      : f_(f), lfts_(lfts), hosts_(hosts), switch_of_(hosts.size(), kNoNode) {
    std::vector<std::uint32_t> index(f.node_count(), 0);
    for (std::size_t i = 0; i < f.switches().size(); ++i)
      index[f.switches()[i]] = static_cast<std::uint32_t>(i);
    for (std::size_t h = 0; h < hosts.size(); ++h) {
      const Port& p = f.port(hosts[h]);
      if (p.usable() && f.node(p.remote.node).is_switch()) switch_of_[h] = index[p.remote.node];
    }
    first_.assign(f.switches().size() * hosts.size(), kUnknown);
    length_.assign(first_.size(), 0);
  }

  // The channels from host `src`'s switch to host `dst`, as [first, first +
  // length) of channels(); false: no route.
  bool path(std::size_t src, std::size_t dst, std::uint32_t& first, std::uint32_t& length) {
    if (switch_of_[src] == kNoNode) return false;
    const std::size_t key = switch_of_[src] * hosts_.size() + dst;
    if (first_[key] == kUnknown) {
      const NodeId sw = f_.switches()[switch_of_[src]];
      scratch_.clear();
      const Lid lid = f_.port(hosts_[dst]).lid;
      if (trace_route(f_, lfts_, PortRef{sw, 0}, lid, &scratch_) == Trace::ok) {
        first_[key] = static_cast<std::uint32_t>(channels_.size());
        length_[key] = static_cast<std::uint32_t>(scratch_.size());
        channels_.insert(channels_.end(), scratch_.begin(), scratch_.end());
      } else {
        first_[key] = kNoRoute;
      }
    }
    first = first_[key];
    length = length_[key];
    return first != kNoRoute;
  }
  const ChannelId* channels() const { return channels_.data(); }

 private:
  static constexpr std::uint32_t kUnknown = 0xFFFFFFFFu, kNoRoute = 0xFFFFFFFEu;
  const Fabric& f_;
  const ForwardingTables& lfts_;
  const std::vector<PortRef>& hosts_;
  std::vector<std::uint32_t> switch_of_;       // per host: index of its switch in f.switches()
  std::vector<std::uint32_t> first_, length_;  // per (source switch, destination host)
  std::vector<ChannelId> channels_, scratch_;
};

}  // namespace

double estimate_ebb(const Fabric& f, const ForwardingTables& lfts,
                    const std::vector<PortRef>& hosts, unsigned runs, std::uint64_t seed,
                    bool both_ways) {
  if (hosts.size() < 2 || runs == 0) return 0.0;
  PathCache cache(f, lfts, hosts);
  std::vector<std::uint32_t> order, count(f.channel_count(), 0);
  const std::size_t half = hosts.size() / 2;
  const std::size_t flows = both_ways ? 2 * half : half;
  std::vector<std::uint32_t> first(flows), length(flows);
  std::vector<bool> routed(flows);
  double total = 0.0;
  for (unsigned r = 0; r < runs; ++r) {
    order.resize(hosts.size());
    for (std::size_t h = 0; h < hosts.size(); ++h) order[h] = static_cast<std::uint32_t>(h);
    std::mt19937_64 rng = run_rng(seed, r);
    shuffle(order, rng);
    for (std::size_t i = 0; i < flows; ++i)
      routed[i] = cache.path(order[i], order[i < half ? i + half : i - half], first[i], length[i]);
    // Paths are complete now (the cache may have grown): count, then share.
    const ChannelId* channels = cache.channels();
    for (std::size_t i = 0; i < flows; ++i)
      if (routed[i])
        for (std::uint32_t k = 0; k < length[i]; ++k) ++count[channels[first[i] + k]];
    double sum = 0.0;
    for (std::size_t i = 0; i < flows; ++i) {
      if (!routed[i]) continue;
      std::uint32_t worst = 1;
      for (std::uint32_t k = 0; k < length[i]; ++k)
        worst = std::max(worst, count[channels[first[i] + k]]);
      sum += 1.0 / worst;
    }
    for (std::size_t i = 0; i < flows; ++i)
      if (routed[i])
        for (std::uint32_t k = 0; k < length[i]; ++k) count[channels[first[i] + k]] = 0;
    total += sum / static_cast<double>(flows);
  }
  return total / runs;
}

double estimate_ebb(const Fabric& f, const ForwardingTables& lfts, unsigned runs,
                    std::uint64_t seed, bool both_ways) {
  return estimate_ebb(f, lfts, f.host_ports(), runs, seed, both_ways);
}

}  // namespace psssp
