// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Per-cable tables: the columns that name a directed cable in the
// --link-csv files of score and check, and reading such a file back (convert
// --format dot colours cables by it).
#pragma once

#include <map>
#include <string>
#include <utility>

#include "fabric/fabric.h"

namespace psssp::sim {

// "node_guid,node,port,remote_guid,remote,remote_port,gbps" for the channel
// leaving `from` (a cabled port), fields quoted as CSV needs.
std::string link_csv_ends(const Fabric& fabric, PortRef from);
// "host" if either end of the cable is no switch, else "switch".
const char* link_kind(const Fabric& fabric, PortRef from);

// Load per directed cable, keyed by (node GUID, port) of the sending end.
using LinkLoads = std::map<std::pair<Guid, PortNum>, double>;

// Reads a --link-csv of score (column mean_flows; the rows of `routing`, or
// of the file's first routing if empty) or of check (column routes). Throws
// InputError (file:line) on a malformed file or an unknown routing.
LinkLoads read_link_loads(const std::string& text, const std::string& source,
                          const std::string& routing);

}  // namespace psssp::sim
