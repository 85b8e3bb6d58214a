// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Black holes that are dump_fts's omissions, not the switches'. dump_fts of
// infiniband-diags (rdma-core's dump_fts.c) reads a switch's LFT blocks
// 0 .. ALIGN(top, 64) / 64 - 1, top being the switch's LinearFDBTop (the end
// of its "Unicast lids [0x0-0xTOP]" header): when top is a multiple of 64
// its own block is never read and the entry for LID top never printed
// (ibroute has the same loop). Up to rdma-core 62 it also holds a block in
// signed chars, so an entry to a port above 127 reads as beyond the switch
// and is dropped as illegal (printed, with its true number, only with -a).
#pragma once

#include <string>

#include "fabric/fabric.h"
#include "route_checker.h"

namespace psssp::sim {

struct DumpFtsGaps {
  std::uint64_t top_lid_entries = 0;    // black holes at a switch's top LID on a 64 boundary
  std::uint64_t wide_port_entries = 0;  // black holes on switches with more than 127 ports
  std::uint64_t pairs = 0;              // host pairs lost at those entries
  std::string message;                  // "dump_fts dropped ..."; empty: not that pattern
};

// When `routes` (the file check read) holds dump_fts/ibroute tables and every
// black hole in `report` sits where dump_fts drops entries, what it dropped
// and how to read the tables completely; else an empty message.
DumpFtsGaps find_dump_fts_gaps(const Fabric& fabric, const CheckReport& report,
                               const std::string& routes);

}  // namespace psssp::sim
