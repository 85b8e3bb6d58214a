// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Test helper: the differences between two fabrics as the network sees them
// (nodes by GUID with type, port count and description; CA port GUIDs;
// cables by GUID and port, with rate). Names are ignored: ibnetdiscover
// renames nodes after their GUIDs.
#pragma once

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include "fabric/fabric.h"

namespace psssp::topo::test {

inline std::string fabric_diff(const Fabric& want, const Fabric& got) {
  using End = std::pair<Guid, unsigned>;
  using Cable = std::tuple<End, End, std::string>;
  auto summarize = [](const Fabric& f, std::map<Guid, std::string>& nodes,
                      std::set<Cable>& cables) {
    for (NodeId id = 0; id < f.node_count(); ++id) {
      const Node& n = f.node(id);
      std::ostringstream s;
      s << node_type_name(n.type) << ' ' << unsigned{n.num_ports()} << " \"" << n.description
        << '"';
      for (PortNum p = 1; p <= n.num_ports(); ++p)
        if (!n.is_switch() && n.ports[p].guid != 0 && n.ports[p].guid != n.guid + p)
          s << " port " << unsigned{p} << " guid " << n.ports[p].guid;
      nodes[n.guid] = s.str();
      for (PortNum p = 1; p <= n.num_ports(); ++p) {
        const PortRef r = n.ports[p].remote;
        if (!r.valid()) continue;
        End a{n.guid, p}, b{f.node(r.node).guid, r.port};
        if (b < a) std::swap(a, b);
        cables.insert({a, b, n.ports[p].rate.to_string()});
      }
    }
  };
  std::map<Guid, std::string> want_nodes, got_nodes;
  std::set<Cable> want_cables, got_cables;
  summarize(want, want_nodes, want_cables);
  summarize(got, got_nodes, got_cables);
  std::ostringstream diff;
  diff << std::hex;
  for (const auto& [guid, text] : want_nodes)
    if (!got_nodes.count(guid) || got_nodes[guid] != text)
      diff << "node 0x" << guid << ": want " << text << ", got "
           << (got_nodes.count(guid) ? got_nodes[guid] : "nothing") << '\n';
  for (const auto& [guid, text] : got_nodes)
    if (!want_nodes.count(guid)) diff << "unexpected node 0x" << guid << ' ' << text << '\n';
  auto print = [&](const char* what, const Cable& c) {
    diff << what << " cable 0x" << std::get<0>(c).first << '[' << std::dec << std::get<0>(c).second
         << std::hex << "] - 0x" << std::get<1>(c).first << '[' << std::dec << std::get<1>(c).second
         << std::hex << "] " << std::get<2>(c) << '\n';
  };
  for (const Cable& c : want_cables)
    if (!got_cables.count(c)) print("missing", c);
  for (const Cable& c : got_cables)
    if (!want_cables.count(c)) print("unexpected", c);
  return diff.str();
}

}  // namespace psssp::topo::test
