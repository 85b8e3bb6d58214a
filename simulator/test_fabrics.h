// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Fabrics built in code for the simulator tests, with hand-written LFTs.
#pragma once

#include <string>
#include <vector>

#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"

namespace psssp::sim::testing {

// Switches connected in a chain, sw[i] port `h+1` to sw[i+1] port `h+2`, each
// with `h` hosts on ports 1..h. LIDs: switches 1..S, hosts S+1.. in order.
struct Chain {
  Fabric fabric;
  std::vector<NodeId> sw;
  std::vector<NodeId> hosts;  // CA nodes, one port each, in LID order
};

inline Chain make_chain(unsigned switches, unsigned hosts_per_switch, std::uint8_t lmc = 0) {
  Chain c;
  const PortNum ports = static_cast<PortNum>(hosts_per_switch + 2);
  for (unsigned s = 0; s < switches; ++s) {
    const NodeId id = c.fabric.add_node(NodeType::switch_node, "sw" + std::to_string(s), ports);
    c.fabric.node(id).guid = 0x1000 + s;
    c.fabric.node(id).description = "switch " + std::to_string(s);
    c.fabric.node(id).ports[0].lid = static_cast<Lid>(s + 1);
    c.sw.push_back(id);
  }
  Lid next = static_cast<Lid>(switches + 1);
  for (unsigned s = 0; s < switches; ++s)
    for (unsigned h = 0; h < hosts_per_switch; ++h) {
      const std::string name = "h" + std::to_string(s) + "_" + std::to_string(h);
      const NodeId id = c.fabric.add_node(NodeType::ca, name, 1);
      Node& n = c.fabric.node(id);
      n.guid = 0x2000 + c.hosts.size() * 2;
      n.description = "host " + name;
      n.ports[1].guid = n.guid + 1;
      n.ports[1].lid = next;
      n.ports[1].lmc = lmc;
      next = static_cast<Lid>(next + (1u << lmc));
      c.fabric.connect({c.sw[s], static_cast<PortNum>(h + 1)}, {id, 1},
                       LinkRate{LinkWidth::x4, LinkSpeed::qdr});
      c.hosts.push_back(id);
    }
  for (unsigned s = 0; s + 1 < switches; ++s)
    c.fabric.connect({c.sw[s], static_cast<PortNum>(hosts_per_switch + 1)},
                     {c.sw[s + 1], static_cast<PortNum>(hosts_per_switch + 2)},
                     LinkRate{LinkWidth::x4, LinkSpeed::qdr});
  c.fabric.index();
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

}  // namespace psssp::sim::testing
