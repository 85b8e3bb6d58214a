// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "dependency_graph.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "dependency_slots.h"
#include "route_walk.h"

namespace psssp::deadlock {
namespace {

constexpr std::uint32_t kNoWitness = 0;  // LID 0 is never a source

std::uint32_t pack(Lid slid, Lid dlid) { return static_cast<std::uint32_t>(slid) << 16 | dlid; }

// Witness per dependency slot, one flat array per (VL in, VL out) pair in use;
// with a plain SL2VL only the diagonal pairs ever exist.
class WitnessTable {
 public:
  explicit WitnessTable(std::size_t slots) : slots_(slots) {}
  void add(std::uint8_t vl_in, std::uint8_t vl_out, Slot slot, std::uint32_t witness) {
    auto& table = tables_[vl_in * kVlCount + vl_out];
    if (!table) table = std::make_unique<std::vector<std::uint32_t>>(slots_, kNoWitness);
    if ((*table)[slot] == kNoWitness) (*table)[slot] = witness;
  }
  const std::vector<std::uint32_t>* get(unsigned vl_in, unsigned vl_out) const {
    return tables_[vl_in * kVlCount + vl_out].get();
  }

 private:
  std::size_t slots_;
  std::array<std::unique_ptr<std::vector<std::uint32_t>>, kVlCount * kVlCount> tables_;
};

struct SourceKey {
  PortNum in_port;
  std::uint8_t sl;
  bool operator==(const SourceKey& o) const { return in_port == o.in_port && sl == o.sl; }
};

bool is_switch_lid(const Fabric& fabric, Lid lid) {
  return fabric.node(fabric.port_of_lid(lid).node).is_switch();
}

// The destination LIDs of `scope`'s routes.
std::vector<Lid> scope_destinations(const Fabric& fabric, RouteScope scope) {
  std::vector<Lid> destinations = destination_lids(fabric);
  if (scope == RouteScope::hosts)
    destinations.erase(std::remove_if(destinations.begin(), destinations.end(),
                                      [&](Lid lid) { return is_switch_lid(fabric, lid); }),
                       destinations.end());
  return destinations;
}

// RouteScope::all: every switch with a LID is a source too (port 0), after
// the hosts' switches.
void add_switch_sources(const Fabric& fabric, RouteScope scope,
                        std::vector<SourceSwitch>& sources) {
  if (scope != RouteScope::all) return;
  for (NodeId sw : fabric.switches()) {
    const Port& own = fabric.node(sw).ports[0];
    if (own.lid != 0)
      sources.push_back(SourceSwitch{sw, {SourcePort{0, own.lid, own.lid_count()}}});
  }
}

// Counts `routes` routes that end as `end`; switch_end: from or to a switch.
void count_routes(WalkEnd end, std::size_t routes, bool switch_end, ChannelDependencies& result) {
  result.routes += routes;
  if (end == WalkEnd::unrouted) {
    result.unrouted += routes;
    if (switch_end) result.switch_unrouted += routes;
  }
  if (end == WalkEnd::broken) {
    result.broken += routes;
    if (switch_end) result.switch_broken += routes;
  }
  if (end == WalkEnd::loop) {
    result.loops += routes;
    if (switch_end) result.switch_loops += routes;
  }
}

// The dependencies of the routes from src's ports to dlid over `hops`, each
// (VL in, VL out) pair with its first route as witness. Routes from one
// switch differ only in SL and the host's in-port: the VLs are walked once
// per distinct (in-port, SL).
class WitnessWalk {
 public:
  WitnessWalk(const SlSource& sls, const Sl2VlTables& sl2vl, const DependencySlots& slots,
              WitnessTable& witnesses)
      : sls_(sls),
        sl2vl_(sl2vl),
        slots_(slots),
        witnesses_(witnesses),
        per_switch_(sls.by_source_switch()),
        per_port_(sl2vl.port_dependent()) {}

  void add(const SourceSwitch& src, Lid dlid, const std::vector<Hop>& hops) {
    seen_.clear();
    for (const SourcePort& sp : src.ports) {
      const unsigned count = per_switch_ ? 1 : sp.lid_count;
      for (unsigned k = 0; k < count; ++k) {
        const Lid slid = static_cast<Lid>(sp.base_lid + k);
        const std::uint8_t sl = sls_.sl(slid, dlid);
        const SourceKey key{per_port_ ? sp.in_port : PortNum{0}, sl};
        if (std::find(seen_.begin(), seen_.end(), key) != seen_.end()) continue;
        seen_.push_back(key);
        add_hops(sp, slid, dlid, sl, hops);
      }
    }
  }

 private:
  // One (source port, SL)'s VLs along the hops.
  void add_hops(const SourcePort& sp, Lid slid, Lid dlid, std::uint8_t sl,
                const std::vector<Hop>& hops) {
    vl_of_hop_.resize(hops.size());
    for (std::size_t i = 0; i < hops.size(); ++i) {
      const Hop& h = hops[i];
      vl_of_hop_[i] = sl2vl_.vl(h.sw, i == 0 ? sp.in_port : h.in_port, h.out_port, sl);
      if (vl_of_hop_[i] == kDropVl) break;
      if (i == 0 || !h.to_switch || !hops[i - 1].to_switch) continue;
      witnesses_.add(vl_of_hop_[i - 1], vl_of_hop_[i], slots_.slot(h.sw, h.in_port, h.out_port),
                     pack(slid, dlid));
    }
  }

  const SlSource& sls_;
  const Sl2VlTables& sl2vl_;
  const DependencySlots& slots_;
  WitnessTable& witnesses_;
  const bool per_switch_, per_port_;
  std::vector<SourceKey> seen_;
  std::vector<std::uint8_t> vl_of_hop_;
};

// The VLs in use (result.vls) and the CSR graph of the witnessed
// dependencies, one vertex per (VL rank, channel).
void build_graph(const Fabric& fabric, const DependencySlots& slots, const WitnessTable& witnesses,
                 ChannelDependencies& result) {
  std::array<bool, kVlCount> used{};
  for (unsigned a = 0; a < kVlCount; ++a)
    for (unsigned b = 0; b < kVlCount; ++b)
      if (witnesses.get(a, b)) used[a] = used[b] = true;
  std::array<std::size_t, kVlCount> rank{};
  for (unsigned vl = 0; vl < kVlCount; ++vl)
    if (used[vl]) {
      rank[vl] = result.vls.size();
      result.vls.push_back(static_cast<std::uint8_t>(vl));
    }
  std::vector<std::pair<std::size_t, std::size_t>> edges;
  std::vector<RouteWitness> props;
  const std::size_t n = result.channel_count;
  for (unsigned a = 0; a < kVlCount; ++a)
    for (unsigned b = 0; b < kVlCount; ++b) {
      const auto* table = witnesses.get(a, b);
      if (!table) continue;
      for (Slot s = 0; s < table->size(); ++s) {
        const std::uint32_t w = (*table)[s];
        if (w == kNoWitness) continue;
        const NodeId sw = slots.switch_of(s);
        const ChannelId from = slots.switch_channel_into(sw, slots.in_port(s));
        const ChannelId to = fabric.channel(PortRef{sw, slots.out_port(s)});
        edges.emplace_back(rank[a] * n + from, rank[b] * n + to);
        props.push_back(RouteWitness{static_cast<Lid>(w >> 16), static_cast<Lid>(w & 0xFFFF)});
        ++result.dependencies_per_vl[a];
      }
    }
  // Sorted by (source, target) so vertex and edge order, and with them the
  // cycle found, do not depend on the slot layout.
  std::vector<std::size_t> order(edges.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t x, std::size_t y) { return edges[x] < edges[y]; });
  std::vector<std::pair<std::size_t, std::size_t>> sorted_edges(edges.size());
  std::vector<RouteWitness> sorted_props(edges.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    sorted_edges[i] = edges[order[i]];
    sorted_props[i] = props[order[i]];
  }
  result.graph = DependencyGraph(boost::edges_are_sorted, sorted_edges.begin(), sorted_edges.end(),
                                 sorted_props.begin(), result.vls.size() * n);
}

}  // namespace

ChannelDependencies build_channel_dependencies(const Fabric& fabric, const ForwardingTables& lfts,
                                               const SlSource& sls, const Sl2VlTables& sl2vl,
                                               RouteScope scope) {
  ChannelDependencies result;
  result.channel_count = fabric.channel_count();
  const DependencySlots slots(fabric);
  WitnessTable witnesses(slots.size());
  std::vector<SourceSwitch> sources = source_switches(fabric);
  const std::vector<Lid> destinations = scope_destinations(fabric, scope);
  const std::size_t host_sources = sources.size();
  add_switch_sources(fabric, scope, sources);
  WitnessWalk walk(sls, sl2vl, slots, witnesses);

  const RouteTracer tracer(fabric, lfts);
  std::vector<Hop> hops;
  for (std::size_t si = 0; si < sources.size(); ++si) {
    const SourceSwitch& src = sources[si];
    const bool from_switch = si >= host_sources;
    for (Lid dlid : destinations) {
      if (from_switch && fabric.port_of_lid(dlid).node == src.node) continue;  // itself
      const WalkEnd end = walk_route(tracer, src.node, dlid, hops);
      count_routes(end, src.lid_count(), from_switch || is_switch_lid(fabric, dlid), result);
      if (hops.size() < 2) continue;  // no switch-to-switch dependency
      walk.add(src, dlid, hops);
    }
  }
  build_graph(fabric, slots, witnesses, result);
  return result;
}

}  // namespace psssp::deadlock
