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

}  // namespace

ChannelDependencies build_channel_dependencies(const Fabric& fabric, const ForwardingTables& lfts,
                                               const SlSource& sls, const Sl2VlTables& sl2vl,
                                               RouteScope scope) {
  ChannelDependencies result;
  result.channel_count = fabric.channel_count();
  const DependencySlots slots(fabric);
  WitnessTable witnesses(slots.size());
  std::vector<SourceSwitch> sources = source_switches(fabric);
  std::vector<Lid> destinations = destination_lids(fabric);
  const auto is_switch_lid = [&](Lid lid) {
    return fabric.node(fabric.port_of_lid(lid).node).is_switch();
  };
  if (scope == RouteScope::hosts)
    destinations.erase(std::remove_if(destinations.begin(), destinations.end(), is_switch_lid),
                       destinations.end());
  const std::size_t host_sources = sources.size();
  if (scope == RouteScope::all)
    for (NodeId sw : fabric.switches()) {
      const Port& own = fabric.node(sw).ports[0];
      if (own.lid != 0)
        sources.push_back(SourceSwitch{sw, {SourcePort{0, own.lid, own.lid_count()}}});
    }
  const bool per_switch = sls.by_source_switch();
  const bool per_port = sl2vl.port_dependent();

  const RouteTracer tracer(fabric, lfts);
  std::vector<Hop> hops;
  std::vector<SourceKey> seen;
  std::vector<std::uint8_t> vl_of_hop;
  for (std::size_t si = 0; si < sources.size(); ++si) {
    const SourceSwitch& src = sources[si];
    const bool from_switch = si >= host_sources;
    for (Lid dlid : destinations) {
      if (from_switch && fabric.port_of_lid(dlid).node == src.node) continue;  // itself
      const WalkEnd end = walk_route(tracer, src.node, dlid, hops);
      const std::size_t routes_here = src.lid_count();
      result.routes += routes_here;
      const bool switch_end = from_switch || is_switch_lid(dlid);
      if (end == WalkEnd::unrouted) {
        result.unrouted += routes_here;
        if (switch_end) result.switch_unrouted += routes_here;
      }
      if (end == WalkEnd::broken) {
        result.broken += routes_here;
        if (switch_end) result.switch_broken += routes_here;
      }
      if (end == WalkEnd::loop) {
        result.loops += routes_here;
        if (switch_end) result.switch_loops += routes_here;
      }
      if (hops.size() < 2) continue;  // no switch-to-switch dependency
      // Routes from this switch differ only in SL and the host's in-port;
      // walk the VLs once per distinct (in-port, SL).
      seen.clear();
      for (const SourcePort& sp : src.ports) {
        const unsigned count = per_switch ? 1 : sp.lid_count;
        for (unsigned k = 0; k < count; ++k) {
          const Lid slid = static_cast<Lid>(sp.base_lid + k);
          const std::uint8_t sl = sls.sl(slid, dlid);
          const SourceKey key{per_port ? sp.in_port : PortNum{0}, sl};
          if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
          seen.push_back(key);
          vl_of_hop.resize(hops.size());
          for (std::size_t i = 0; i < hops.size(); ++i) {
            const Hop& h = hops[i];
            vl_of_hop[i] = sl2vl.vl(h.sw, i == 0 ? sp.in_port : h.in_port, h.out_port, sl);
            if (vl_of_hop[i] == kDropVl) break;
            if (i == 0 || !h.to_switch || !hops[i - 1].to_switch) continue;
            witnesses.add(vl_of_hop[i - 1], vl_of_hop[i], slots.slot(h.sw, h.in_port, h.out_port),
                          pack(slid, dlid));
          }
        }
      }
    }
  }

  // Collect edges, rank the VLs in use and build the CSR graph.
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
  return result;
}

}  // namespace psssp::deadlock
