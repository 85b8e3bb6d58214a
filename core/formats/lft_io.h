// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Reading and writing linear forwarding tables: opensm-lfts.dump (also what
// OpenSM's `file` engine loads), dump_fts / ibroute output, and the routes
// dump opensm.fdbs (ibdiagnet.fdbs, what ibdmchk reads).
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "fabric/forwarding_tables.h"
#include "formats/fabric_io.h"

namespace psssp {

// Parses any supported LFT dump and binds it to the fabric: switches are
// matched by GUID (DR-path headers by the switch's LID), entries naming a
// port GUID are remapped to that port's LID in `fabric`. Throws InputError
// (file:line) for malformed lines, unknown switches, ports beyond the switch.
ForwardingTables parse_lfts(std::string_view content, const std::string& source,
                            const Fabric& fabric);
ForwardingTables read_lfts(const std::string& path, const Fabric& fabric);

// opensm.fdbs / ibdiagnet.fdbs ("dump_ucast_routes: Switch 0x..." blocks of
// "LID : Port : Hops : Optimal" lines); parse_lfts reads them too, told apart
// by their first line. Throws InputError (file:line) like parse_lfts.
bool is_fdbs(std::string_view content);
ForwardingTables parse_fdbs(std::string_view content, const std::string& source,
                            const Fabric& fabric);

// Writes opensm-lfts.dump format exactly as OpenSM 3.3 does: switches in
// ascending GUID order, each a "Unicast lids [0-MAX] of switch Lid L guid
// 0x%016x ('desc'):" header, "0x%04x %03u # Channel Adapter portguid
// 0x%016x: 'desc'" entries for every routed LID ("unknown node and type" for
// a LID no port owns), and a "MAX lids dumped" footer (MAX = highest LID).
void write_lfts(std::ostream& out, const Fabric& fabric, const ForwardingTables& lfts);

}  // namespace psssp
