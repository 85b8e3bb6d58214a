// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// A chain of switches from the generator, with hand-written LFTs: small
// enough to name every route in a test.
#pragma once

#include <cstdint>
#include <vector>

#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"
#include "testing/lids_and_lfts.h"
#include "topologies/builder.h"
#include "topologies/families.h"

namespace psssp::testing {

// A mesh of `switches` in a line (topologies' mesh family): sw[i] port h+1
// to sw[i+1] port h+2, each with `h` hosts on ports 1..h. Names and GUIDs are
// the generator's: "sw-<i>", hosts "h-<n>" (GUID 0x5053480000000000 + 16n,
// port GUID + 1). LIDs: switches 1..S, hosts S+1.. in order.
struct Chain {
  Fabric fabric;
  std::vector<NodeId> sw;
  std::vector<NodeId> hosts;  // CA nodes, one port each, in LID order
};

inline Chain make_chain(unsigned switches, unsigned hosts_per_switch, std::uint8_t lmc = 0) {
  Chain c;
  c.fabric = topo::build_fabric(topo::grid({switches}, false, hosts_per_switch));
  assign_lids(c.fabric, lmc);
  for (NodeId id = 0; id < c.fabric.node_count(); ++id)
    (c.fabric.node(id).is_switch() ? c.sw : c.hosts).push_back(id);
  return c;
}

// Shortest-path LFTs for a chain: down to a local host, else left or right.
inline ForwardingTables chain_lfts(const Chain& c, unsigned hosts_per_switch) {
  ForwardingTables t(c.fabric);
  for (unsigned s = 0; s < c.sw.size(); ++s) {
    t.set(c.sw[s], static_cast<Lid>(s + 1), 0);
    for (unsigned k = 0; k < c.hosts.size(); ++k) {
      const Port& hp = c.fabric.node(c.hosts[k]).ports[1];
      const unsigned home = k / hosts_per_switch;
      const PortNum out = home == s  ? static_cast<PortNum>(k % hosts_per_switch + 1)
                          : home > s ? static_cast<PortNum>(hosts_per_switch + 1)
                                     : static_cast<PortNum>(hosts_per_switch + 2);
      for (unsigned l = 0; l < hp.lid_count(); ++l)
        t.set(c.sw[s], static_cast<Lid>(hp.lid + l), out);
    }
    for (unsigned o = 0; o < c.sw.size(); ++o)
      if (o != s)
        t.set(c.sw[s], static_cast<Lid>(o + 1),
              static_cast<PortNum>(o > s ? hosts_per_switch + 1 : hosts_per_switch + 2));
  }
  return t;
}

}  // namespace psssp::testing
