// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "fabric_input.h"

#include <cstdio>

#include "formats/fabric_io.h"
#include "formats/node_name_map.h"
#include "output_util.h"

namespace psssp::sim {

void add_fabric_input(CLI::App& command, FabricInput& input) {
  command
      .add_option("FABRIC", input.path, "ibnetdiscover output, ibsim net file or opensm-subnet.lst")
      ->required()
      ->type_name("");
  command.add_option("--lids", input.lids, "LIDs from opensm-subnet.lst or OpenSM's guid2lid file")
      ->type_name("FILE");
  command
      .add_option("--rates", input.rates,
                  "cable rates from this fabric file (the captured machine), matched by node "
                  "GUID and port")
      ->type_name("FILE");
  command
      .add_option("--node-name-map", input.node_name_map,
                  "print nodes by the names this infiniband-diags node name map gives")
      ->type_name("FILE");
}

Fabric load_fabric(const FabricInput& input, bool require) {
  Fabric fabric = read_fabric(input.path);
  // `info` lists the warnings in its report; the other commands (require)
  // say them on stderr, e.g. that ibsim would refuse the net file.
  if (require)
    for (const std::string& w : fabric.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
  if (!input.lids.empty()) {
    apply_lid_file(fabric, input.lids);
    if (require) require_lids(fabric, input.lids);
  }
  apply_rate_file(fabric, input);
  apply_names(fabric, input);
  return fabric;
}

void apply_names(Fabric& fabric, const FabricInput& input) {
  if (input.node_name_map.empty()) return;
  apply_node_name_map(fabric,
                      parse_node_name_map(read_file(input.node_name_map), input.node_name_map));
}

RateTransfer apply_rate_file(Fabric& fabric, const FabricInput& input) {
  if (input.rates.empty()) return {};
  const RateTransfer t = apply_rates(fabric, read_fabric(input.rates));
  if (t.matched == 0)
    throw InputError(input.rates + ": no cable matches " + input.path +
                     " (cables are matched by node GUID and port number)");
  if (t.unmatched)
    std::fprintf(stderr, "warning: %s: %zu cables of %s are not in it and keep their rate\n",
                 input.rates.c_str(), t.unmatched, input.path.c_str());
  return t;
}

void require_lids(const Fabric& fabric, const std::string& lid_file) {
  for (NodeId id = 0; id < fabric.node_count(); ++id) {
    const Node& n = fabric.node(id);
    for (PortNum p = 0; p < n.ports.size(); ++p) {
      const bool needs_lid = n.is_switch() ? p == 0 : p != 0 && n.ports[p].connected();
      if (needs_lid && n.ports[p].lid == 0)
        throw InputError(lid_file + ": no LID for " + describe_node(fabric, id) + " port " +
                         std::to_string(p) + " (port GUID " + hex_guid(n.ports[p].guid) +
                         "); the file does not cover this fabric");
    }
  }
}

}  // namespace psssp::sim
