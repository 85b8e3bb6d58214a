// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Test and bench support for routing (link psssp_testing): fabrics built in
// code or by the topologies generator, a route tracer and a small eBB
// estimator.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"
#include "routing/ebb_estimate.h"
#include "testing/lids_and_lfts.h"
#include "topologies/builder.h"
#include "topologies/families.h"
#include "topologies/rng.h"
#include "traffic/route_tracer.h"

namespace psssp::testing {

inline LinkRate qdr4x() { return LinkRate{LinkWidth::x4, LinkSpeed::qdr}; }

// GUIDs: node id + 1 in the high bits, port number in the low byte.
inline void assign_guids(Fabric& f) {
  for (NodeId id = 0; id < f.node_count(); ++id) {
    Node& n = f.node(id);
    n.guid = (static_cast<Guid>(id) + 1) << 8;
    n.system_image_guid = n.guid;
    for (PortNum p = 0; p < n.ports.size(); ++p)
      n.ports[p].guid = n.is_switch() ? n.guid : (n.guid | p);
  }
}

// Moves the cables of `ports` (port numbers of one node) around: the cable
// on ports[i] lands on ports[order[i]]. Call f.index() afterwards.
inline void permute_ports(Fabric& f, NodeId node, const std::vector<PortNum>& ports,
                          const std::vector<unsigned>& order) {
  std::vector<Port> moved;
  for (const PortNum p : ports) moved.push_back(f.node(node).ports[p]);
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const PortNum to = ports[order[i]];
    f.node(node).ports[to] = moved[i];
    const PortRef remote = moved[i].remote;
    if (remote.valid()) f.node(remote.node).ports[remote.port].remote = PortRef{node, to};
  }
}

// k-ary n-tree from the generator's kary-ntree family: n levels of k^(n-1)
// switches; switch (w, l) has down ports 1..k and up ports k+1..2k, up port
// k+1+m going to (w with digit l = m, l+1). Leaves carry k hosts on ports
// 1..k. Returns the fabric with LIDs.
struct KaryNtree {
  Fabric fabric;
  std::vector<std::vector<NodeId>> level;  // level[l][w]
  std::vector<NodeId> hosts;               // leaf-major, position-minor
};
// seed != 0: real-world disorder: every switch's up cables and hosts land on
// shuffled ports, and LIDs are handed out in a random node order.
inline KaryNtree make_kary_ntree(unsigned k, unsigned n, std::uint8_t lmc = 0,
                                 std::uint64_t seed = 0) {
  KaryNtree t;
  t.fabric = topo::build_fabric(topo::kary_ntree(k, n, k));
  // The generator numbers level l+1 switches by their digits below l first
  // and the l upward choices on top; (w, l) keeps the choices in the low
  // digits: w = choices + k^l * rest is generator index rest + k^(n-1-l) *
  // choices within the level.
  unsigned width = 1;
  for (unsigned i = 1; i < n; ++i) width *= k;
  t.level.resize(n);
  for (unsigned l = 0, pow = 1; l < n; ++l, pow *= k)
    for (unsigned w = 0; w < width; ++w)
      t.level[l].push_back(static_cast<NodeId>(l * width + w / pow + width / pow * (w % pow)));
  for (NodeId h = static_cast<NodeId>(n * width); h < t.fabric.node_count(); ++h)
    t.hosts.push_back(h);
  if (!seed) {
    assign_lids(t.fabric, lmc);
    return t;
  }
  topo::Rng rng(seed);  // the generator's own random source
  auto perm = [&](unsigned size) {
    std::vector<unsigned> p(size);
    for (unsigned i = 0; i < size; ++i) p[i] = i;
    rng.shuffle(p);
    return p;
  };
  std::vector<PortNum> down(k), up(k);
  for (unsigned i = 0; i < k; ++i) {
    down[i] = static_cast<PortNum>(1 + i);
    up[i] = static_cast<PortNum>(k + 1 + i);
  }
  for (NodeId sw = 0; sw < n * width; ++sw) {
    permute_ports(t.fabric, sw, down, perm(k));
    permute_ports(t.fabric, sw, up, perm(k));
  }
  // Random LID order: hand out LIDs along a shuffled node list.
  const auto order = perm(static_cast<unsigned>(t.fabric.node_count()));
  unsigned next = 1;
  for (const unsigned id : order) {
    Node& node = t.fabric.node(id);
    for (PortNum p = 0; p < node.ports.size(); ++p) {
      if (node.is_switch() ? p != 0 : !node.ports[p].connected()) continue;
      const std::uint8_t l = node.is_switch() ? 0 : lmc;
      next = (next + (1u << l) - 1) >> l << l;
      node.ports[p].lid = static_cast<Lid>(next);
      node.ports[p].lmc = l;
      next += 1u << l;
    }
  }
  t.fabric.index();
  return t;
}

// Torus of switches with `hosts` CAs each, from the generator's torus family
// (a ring of size 2 gets two parallel cables); `spare` extra ports per switch
// stay free. seed != 0: each switch's torus cables land on shuffled ports.
inline Fabric make_torus(const std::vector<unsigned>& dims, unsigned hosts, unsigned spare = 0,
                         std::uint64_t seed = 0) {
  topo::TopologySpec spec = topo::grid(dims, true, hosts);
  if (seed) {
    topo::Rng rng(seed);
    std::vector<std::vector<unsigned>> slot(spec.switches.size());  // fixed slot -> shuffled
    for (std::size_t i = 0; i < slot.size(); ++i) {
      for (unsigned k = 1; k <= spec.switches[i].min_fabric_ports; ++k) slot[i].push_back(k);
      rng.shuffle(slot[i]);
    }
    for (topo::CableSpec& c : spec.cables) {
      c.a_slot = slot[c.a][c.a_slot - 1];
      c.b_slot = slot[c.b][c.b_slot - 1];
    }
  }
  for (topo::SwitchSpec& s : spec.switches) s.min_fabric_ports += spare;
  Fabric f = topo::build_fabric(spec);
  assign_lids(f);
  return f;
}

// Random connected fabric from the generator's random-regular family: a
// simple `degree`-regular switch graph, `hosts` CAs per switch.
inline Fabric make_random(unsigned switches, unsigned degree, unsigned hosts, std::uint64_t seed) {
  Fabric f = topo::build_fabric(topo::random_regular(switches, degree, hosts, seed));
  assign_lids(f);
  return f;
}

// The eBB estimate is the library's (ebb_estimate.h).
using psssp::estimate_ebb;

// One route through `lfts` by the shared tracer (traffic/route_tracer.h),
// appending its channels; the tracer is built per call, fine for tests.
inline TraceStatus trace_route(const Fabric& f, const ForwardingTables& lfts, PortRef start,
                               Lid lid, std::vector<ChannelId>* channels = nullptr) {
  const RouteTracer tracer(f, lfts);
  return tracer
      .trace_from(start, lid,
                  [&](ChannelId c) {
                    if (channels) channels->push_back(c);
                  })
      .status;
}

}  // namespace psssp::testing
