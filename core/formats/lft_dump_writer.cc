// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Writer of opensm-lfts.dump, byte for byte as OpenSM 3.3's dump_ucast_lfts
// prints it (switches in ascending GUID order, as its switch table iterates),
// so that `opensm -R file -U FILE` loads it and entries carry port GUIDs.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "formats/lft_io.h"

namespace psssp {
namespace {

const char* type_string(NodeType type) {
  switch (type) {
    case NodeType::switch_node:
      return "Switch";
    case NodeType::ca:
      return "Channel Adapter";
    case NodeType::router:
      return "Router";
  }
  return "Unknown";
}

const std::string& print_desc(const Node& n) {
  return n.description.empty() ? n.name : n.description;
}

}  // namespace

void write_lfts(std::ostream& out, const Fabric& fabric, const ForwardingTables& lfts) {
  std::vector<NodeId> switches(fabric.switches());
  std::sort(switches.begin(), switches.end(),
            [&](NodeId a, NodeId b) { return fabric.node(a).guid < fabric.node(b).guid; });
  const unsigned max_lid = fabric.max_lid();
  // What follows "0xLLLL PPP # " depends on the LID only: formatted once, not
  // once per switch (a 16-ary 3-tree has 3.7 million entries).
  std::vector<std::string> about(max_lid + 1);
  char buf[96];
  for (unsigned lid = 0; lid <= max_lid; ++lid) {
    const PortRef dest = fabric.port_of_lid(static_cast<Lid>(lid));
    if (!dest.valid()) {
      about[lid] = "unknown node and type\n";
      continue;
    }
    const Node& d = fabric.node(dest.node);
    std::snprintf(buf, sizeof buf, "%s portguid 0x%016" PRIx64 ": '", type_string(d.type),
                  fabric.port(dest).guid);
    about[lid] = buf + print_desc(d) + "'\n";
  }
  static const char hex[] = "0123456789abcdef";
  std::string text;
  for (const NodeId sw : switches) {
    const Node& n = fabric.node(sw);
    std::snprintf(buf, sizeof buf, "Unicast lids [0-%u] of switch Lid %u guid 0x%016" PRIx64,
                  max_lid, static_cast<unsigned>(n.ports[0].lid), n.guid);
    text.clear();
    text.append(buf).append(" ('").append(print_desc(n)).append("'):\n");
    for (unsigned lid = 0; lid <= max_lid; ++lid) {
      const PortNum port = lfts.has_switch(sw) && lid < lfts.lid_count()
                               ? lfts.get(sw, static_cast<Lid>(lid))
                               : kNoPath;
      if (port > n.num_ports()) continue;  // OpenSM skips unrouted LIDs (OSM_NO_PATH)
      // "0x%04x %03u # " by hand: LIDs are 16 bits, ports at most 254.
      const char line[] = {'0',
                           'x',
                           hex[lid >> 12 & 0xF],
                           hex[lid >> 8 & 0xF],
                           hex[lid >> 4 & 0xF],
                           hex[lid & 0xF],
                           ' ',
                           static_cast<char>('0' + port / 100),
                           static_cast<char>('0' + port / 10 % 10),
                           static_cast<char>('0' + port % 10),
                           ' ',
                           '#',
                           ' '};
      text.append(line, sizeof line).append(about[lid]);
    }
    text.append(std::to_string(max_lid)).append(" lids dumped\n");
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
}

}  // namespace psssp
