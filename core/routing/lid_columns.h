// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The routers keep LFT entries LID-major (columns[lid * vertices + vertex]):
// one destination's entries for every switch are contiguous. These convert
// to and from ForwardingTables (switch rows) in 64 x 64 blocks, one cache miss
// per block row instead of per entry, switches split over the threads.
#pragma once

#include <vector>

#include "fabric/forwarding_tables.h"
#include "routing/switch_graph.h"

namespace psssp::routing {

// Entries of `tables` for LIDs below min(its LID count, columns' LID count)
// into `columns`; switches `tables` has no row for are left as they are.
void columns_from_tables(const ForwardingTables& tables, const SwitchView& view,
                         std::vector<PortNum>& columns, unsigned threads);

// Tables of `fabric` (every switch of `view`) holding `columns`.
ForwardingTables tables_from_columns(const Fabric& fabric, const SwitchView& view,
                                     const std::vector<PortNum>& columns, unsigned threads);

}  // namespace psssp::routing
