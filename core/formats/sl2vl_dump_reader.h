// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Reader of opensm-sl2vl.dump (OpenSM's dump_sl2vl_tbl, written when QoS or a
// routing engine with SL2VL updates is active). Blocks per port:
//   Switch 0x0002c90000000001, base LID 1, "desc"
//   #in out : 0  1  2  ...  15
//   #--------------------------------------------------------
//   0   1   : 0  1  2  ...
//   #--------------------------------------------------------
// The GUID is the port GUID (a switch's port 0); "Channel Adapter" / "Router"
// blocks have one "0 0" row (the injection map) and are checked but unused.
// Nodes are matched by port GUID, then node GUID. Throws InputError(file:line).
#pragma once

#include <string>
#include <string_view>

#include "fabric/fabric.h"
#include "fabric/sl2vl.h"

namespace psssp {

Sl2VlTables parse_sl2vl_dump(std::string_view content, const std::string& source,
                             const Fabric& fabric);
Sl2VlTables read_sl2vl_dump(const std::string& path, const Fabric& fabric);

}  // namespace psssp
