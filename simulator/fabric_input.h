// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The FABRIC argument and --lids option of every psssp-sim command.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "fabric/fabric.h"
#include "formats/fabric_io.h"

namespace psssp::sim {

struct FabricInput {
  std::string path;           // ibnetdiscover output, ibsim net file or opensm-subnet.lst
  std::string lids;           // opensm-subnet.lst or guid2lid file; empty: LIDs of the fabric file
  std::string rates;          // another fabric file whose cable rates replace FABRIC's; empty: none
  std::string node_name_map;  // infiniband-diags node name map; empty: none
};

void add_fabric_input(CLI::App& command, FabricInput& input);

// Reads the fabric and applies --lids. With `require_lids`, a LID file must
// give a LID to every switch and every cabled CA or router port.
Fabric load_fabric(const FabricInput& input, bool require_lids = true);

// Applies --rates: every cable's rate from that file, matched by node GUID
// and port. Throws InputError if no cable matches.
// Applies --node-name-map: mapped nodes are printed by their mapped names.
void apply_names(Fabric& fabric, const FabricInput& input);

// Returns what was transferred (all zero without --rates).
RateTransfer apply_rate_file(Fabric& fabric, const FabricInput& input);

// Throws InputError naming `lid_file` and the first port without a LID.
void require_lids(const Fabric& fabric, const std::string& lid_file);

}  // namespace psssp::sim
