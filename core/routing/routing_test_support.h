// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Test and bench support (header only, not part of the library): fabrics
// built in code or by the topologies generator (link psssp_topologies and
// psssp_fabric_testing), a route tracer and a small eBB estimator.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"
#include "fabric/test_lids_and_lfts.h"
#include "routing/ebb_estimate.h"
#include "topologies/builder.h"
#include "topologies/families.h"
#include "traffic/rng.h"
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

// k-ary n-tree: n levels of k^(n-1) switches; switch (w, l) has down ports
// 1..k and up ports k+1..2k, up port k+1+m going to (w with digit l = m,
// l+1). Leaves carry k hosts on ports 1..k. Returns the fabric with LIDs.
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
  std::mt19937_64 rng(seed);
  auto perm = [&](unsigned size) {
    std::vector<unsigned> p(size);
    for (unsigned i = 0; i < size; ++i) p[i] = i;
    if (seed) psssp::shuffle(p, rng);
    return p;
  };
  unsigned width = 1;
  for (unsigned i = 1; i < n; ++i) width *= k;
  t.level.resize(n);
  for (unsigned l = 0; l < n; ++l)
    for (unsigned w = 0; w < width; ++w)
      t.level[l].push_back(t.fabric.add_node(NodeType::switch_node,
                                             "s" + std::to_string(l) + "_" + std::to_string(w),
                                             static_cast<PortNum>(2 * k)));
  // down[l][w]: port order of the down side of (w, l); up likewise.
  std::vector<std::vector<std::vector<unsigned>>> down(n), up(n);
  for (unsigned l = 0; l < n; ++l)
    for (unsigned w = 0; w < width; ++w) {
      down[l].push_back(perm(k));
      up[l].push_back(perm(k));
    }
  for (unsigned l = 0; l + 1 < n; ++l) {
    unsigned pow = 1;
    for (unsigned i = 0; i < l; ++i) pow *= k;
    for (unsigned w = 0; w < width; ++w) {
      const unsigned digit = (w / pow) % k;
      for (unsigned m = 0; m < k; ++m) {
        const unsigned parent = w - digit * pow + m * pow;
        t.fabric.connect(
            PortRef{t.level[l][w], static_cast<PortNum>(k + 1 + up[l][w][m])},
            PortRef{t.level[l + 1][parent], static_cast<PortNum>(1 + down[l + 1][parent][digit])},
            qdr4x());
      }
    }
  }
  for (unsigned w = 0; w < width; ++w)
    for (unsigned p = 0; p < k; ++p) {
      const NodeId h = t.fabric.add_node(NodeType::ca, "h" + std::to_string(w * k + p), 1);
      t.fabric.connect(PortRef{h, 1},
                       PortRef{t.level[0][w], static_cast<PortNum>(1 + down[0][w][p])}, qdr4x());
      t.hosts.push_back(h);
    }
  assign_guids(t.fabric);
  if (seed) {
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
  } else {
    assign_lids(t.fabric, lmc);
  }
  return t;
}

// Torus of switches with `hosts` CAs each, from the generator's torus family
// (a ring of size 2 gets two parallel cables); `spare` extra ports per switch
// stay free. seed != 0: each switch's torus cables land on shuffled ports.
inline Fabric make_torus(const std::vector<unsigned>& dims, unsigned hosts, unsigned spare = 0,
                         std::uint64_t seed = 0) {
  topo::TopologySpec spec = topo::grid(dims, true, hosts);
  if (seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::vector<unsigned>> slot(spec.switches.size());  // fixed slot -> shuffled
    for (std::size_t i = 0; i < slot.size(); ++i) {
      for (unsigned k = 1; k <= spec.switches[i].min_fabric_ports; ++k) slot[i].push_back(k);
      psssp::shuffle(slot[i], rng);
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

// Random connected fabric: a ring plus random cables between free switch
// ports (parallel cables possible), `hosts` CAs per switch.
inline Fabric make_random(unsigned switches, unsigned degree, unsigned hosts, std::uint64_t seed) {
  Fabric f;
  std::mt19937_64 rng(seed);
  std::vector<NodeId> sw;
  for (unsigned i = 0; i < switches; ++i)
    sw.push_back(f.add_node(NodeType::switch_node, "r" + std::to_string(i),
                            static_cast<PortNum>(hosts + degree)));
  std::vector<PortNum> next(switches, static_cast<PortNum>(hosts + 1));
  for (unsigned i = 0; i < switches && switches > 1; ++i) {
    const unsigned j = (i + 1) % switches;
    if (switches == 2 && i == 1) break;
    f.connect(PortRef{sw[i], next[i]++}, PortRef{sw[j], next[j]++}, qdr4x());
  }
  std::vector<unsigned> free_ports;
  for (unsigned i = 0; i < switches; ++i)
    for (unsigned p = next[i]; p <= hosts + degree; ++p) free_ports.push_back(i);
  psssp::shuffle(free_ports, rng);
  for (std::size_t a = 0; a + 1 < free_ports.size(); a += 2) {
    const unsigned i = free_ports[a], j = free_ports[a + 1];
    if (i == j) continue;
    f.connect(PortRef{sw[i], next[i]++}, PortRef{sw[j], next[j]++}, qdr4x());
  }
  for (unsigned i = 0; i < switches; ++i)
    for (unsigned h = 0; h < hosts; ++h) {
      const NodeId ca =
          f.add_node(NodeType::ca, "h" + std::to_string(i) + "_" + std::to_string(h), 1);
      f.connect(PortRef{ca, 1}, PortRef{sw[i], static_cast<PortNum>(1 + h)}, qdr4x());
    }
  assign_guids(f);
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
