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

double estimate_ebb(const Fabric& f, const ForwardingTables& lfts,
                    const std::vector<PortRef>& hosts, unsigned runs, std::uint64_t seed,
                    bool both_ways) {
  if (hosts.size() < 2 || runs == 0) return 0.0;
  std::vector<PortRef> order;
  std::vector<std::uint32_t> count(f.channel_count(), 0);
  const std::size_t half = hosts.size() / 2;
  const std::size_t flows = both_ways ? 2 * half : half;
  std::vector<std::vector<ChannelId>> paths(flows);
  std::vector<bool> routed(flows);
  double total = 0.0;
  for (unsigned r = 0; r < runs; ++r) {
    order = hosts;
    std::mt19937_64 rng = run_rng(seed, r);
    shuffle(order, rng);
    for (std::size_t i = 0; i < flows; ++i) {
      const PortRef src = order[i];
      const PortRef dst = order[i < half ? i + half : i - half];
      paths[i].clear();
      routed[i] = trace_route(f, lfts, src, f.port(dst).lid, &paths[i]) == Trace::ok;
      if (routed[i])
        for (const ChannelId c : paths[i]) ++count[c];
    }
    double sum = 0.0;
    for (std::size_t i = 0; i < flows; ++i) {
      if (!routed[i]) continue;
      std::uint32_t worst = 1;
      for (const ChannelId c : paths[i]) worst = std::max(worst, count[c]);
      sum += 1.0 / worst;
    }
    for (std::size_t i = 0; i < flows; ++i)
      if (routed[i])
        for (const ChannelId c : paths[i]) count[c] = 0;
    total += sum / static_cast<double>(flows);
  }
  return total / runs;
}

double estimate_ebb(const Fabric& f, const ForwardingTables& lfts, unsigned runs,
                    std::uint64_t seed, bool both_ways) {
  return estimate_ebb(f, lfts, f.host_ports(), runs, seed, both_ways);
}

}  // namespace psssp
