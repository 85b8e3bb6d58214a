// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "formats/ibdmchk_writer.h"

#include <cinttypes>
#include <cstdio>
#include <ostream>
#include <vector>

namespace psssp {
namespace {

// The LIDs ibdmchk traces to: every LID some port owns.
std::vector<Lid> owned_lids(const Fabric& fabric) {
  std::vector<Lid> lids;
  for (unsigned lid = 1; lid <= fabric.max_lid(); ++lid)
    if (fabric.port_of_lid(static_cast<Lid>(lid)).valid()) lids.push_back(static_cast<Lid>(lid));
  return lids;
}

// The LID a node's routes start from: a switch's own, else its first port
// with a LID.
Lid source_lid(const Node& n) {
  if (n.is_switch()) return n.ports[0].lid;
  for (PortNum p = 1; p < n.ports.size(); ++p)
    if (n.ports[p].lid != 0 && n.ports[p].connected()) return n.ports[p].lid;
  return 0;
}

}  // namespace

void write_ibdmchk_path_sls(std::ostream& out, const Fabric& fabric, const LayerTable& layers) {
  const std::vector<Lid> lids = owned_lids(fabric);
  char line[64];
  for (NodeId id = 0; id < fabric.node_count(); ++id) {
    const Node& n = fabric.node(id);
    const Lid slid = source_lid(n);
    if (slid == 0) continue;
    for (const Lid dlid : lids) {
      const int len = std::snprintf(line, sizeof line, "0x%016" PRIx64 " %u %u\n", n.guid,
                                    unsigned{dlid}, unsigned{layers.layer(slid, dlid)});
      out.write(line, len);
    }
  }
}

std::size_t ibdmchk_path_sl_lines(const Fabric& fabric) {
  std::size_t sources = 0;
  for (NodeId id = 0; id < fabric.node_count(); ++id)
    if (source_lid(fabric.node(id)) != 0) ++sources;
  return sources * owned_lids(fabric).size();
}

void write_ibdmchk_sl2vl(std::ostream& out, const Fabric& fabric, unsigned vls) {
  std::string maps;
  for (unsigned sl = 0; sl < 16; sl += 2) {
    char pair[8];
    std::snprintf(pair, sizeof pair, " 0x%x%x", sl < vls ? sl : 0u, sl + 1 < vls ? sl + 1 : 0u);
    maps += pair;
  }
  char head[64];
  for (const NodeId sw : fabric.switches()) {
    const Node& n = fabric.node(sw);
    for (PortNum in = 1; in < n.ports.size(); ++in) {
      if (!n.ports[in].connected()) continue;
      for (PortNum o = 1; o < n.ports.size(); ++o) {
        if (!n.ports[o].connected()) continue;
        const int len = std::snprintf(head, sizeof head, "0x%016" PRIx64 " %u %u", n.guid,
                                      unsigned{in}, unsigned{o});
        out.write(head, len);
        out << maps << '\n';
      }
    }
  }
}

void write_ibdmchk_fdbs(std::ostream& out, const Fabric& fabric, const ForwardingTables& lfts) {
  char line[128];
  for (const NodeId sw : fabric.switches()) {
    if (!lfts.has_switch(sw)) continue;
    const int len = std::snprintf(line, sizeof line,
                                  "dump_ucast_routes: Switch 0x%016" PRIx64
                                  "\nLID    : Port : Hops : Optimal\n",
                                  fabric.node(sw).guid);
    out.write(line, len);
    for (unsigned lid = 1; lid <= fabric.max_lid() && lid < lfts.lid_count(); ++lid) {
      const PortNum p = lfts.get(sw, static_cast<Lid>(lid));
      const int n =
          p == kNoPath || !fabric.port_of_lid(static_cast<Lid>(lid)).valid()
              ? std::snprintf(line, sizeof line, "0x%04X : UNREACHABLE\n", lid)
              : std::snprintf(line, sizeof line, "0x%04X : %03u  : 00   : yes\n", lid, unsigned{p});
      out.write(line, n);
    }
  }
}

}  // namespace psssp
