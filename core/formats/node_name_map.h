// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Node name maps as infiniband-diags and OpenSM read them (--node-name-map,
// ib-node-name-map): one "GUID name" per line, the GUID in C notation
// (0x... hexadecimal), the name up to the first '"' or '#' after any that
// open it (so `0x2c90300a1b2c3 "leaf 7"` names leaf 7); blank lines and lines
// starting with '#' are ignored. A mapped node is printed by that name
// instead of its node description.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "fabric/fabric.h"

namespace psssp {

// Throws InputError (file:line) on a line that does not start with a GUID.
std::map<Guid, std::string> parse_node_name_map(std::string_view content,
                                                const std::string& source);

// Sets the description of every node whose node GUID the map names; returns
// how many nodes it renamed.
std::size_t apply_node_name_map(Fabric& fabric, const std::map<Guid, std::string>& names);

}  // namespace psssp
