// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Files for ibdmchk (ibutils) to verify psssp's deadlock-free mode, in the
// formats its readers take (ibdm/Fabric.cpp: parsePSLFile, parseSLVLFile,
// parseFdbFile):
//   -c path SLs   "0x<source node GUID> <DLID> <SL>" (decimal DLID and SL),
//                 one line per source node (CAs and switches) and LID
//   -d SL-to-VL   "0x<switch GUID> <in port> <out port> 0x<VL of SL0><SL1> ...
//                 0x<SL14><SL15>" (one hex digit per VL), per switch and
//                 pair of cabled ports
//   -f routes     opensm.fdbs blocks, every routed entry as
//                 "0x%04X : %03u  : 00   : yes" (ibdiagnet's writer gives
//                 every hop count as 00 too; ibdmchk reads LID and port only)
#pragma once

#include <cstddef>
#include <iosfwd>

#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"
#include "fabric/layer_table.h"

namespace psssp {

// A node's SL to every LID is the layer of its first cabled port's LID as
// source: what the plugin's path_sl answers. ibdmchk keeps one SL table per
// node, so a CA whose ports hang off different switches gets its first
// port's layers.
void write_ibdmchk_path_sls(std::ostream& out, const Fabric& fabric, const LayerTable& layers);
// The lines write_ibdmchk_path_sls writes: source nodes x LIDs.
std::size_t ibdmchk_path_sl_lines(const Fabric& fabric);

// SL = VL = layer for the `vls` layers (SLs from vls up, which psssp gives
// no route, on VL 0), on every switch between every two cabled ports.
void write_ibdmchk_sl2vl(std::ostream& out, const Fabric& fabric, unsigned vls);

void write_ibdmchk_fdbs(std::ostream& out, const Fabric& fabric, const ForwardingTables& lfts);

}  // namespace psssp
