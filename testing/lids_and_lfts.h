// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// LIDs and min-hop forwarding tables for fabrics built in tests (see
// testing/topologies.h) and the benchmarks, so they need neither OpenSM nor
// the routing engine.
#pragma once

#include <cstdint>

#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"

namespace psssp::testing {

// Gives every switch (port 0) and cabled host port a LID: switches first,
// then hosts, in node order; host ports get `lmc`, their 2^lmc LIDs aligned
// as OpenSM hands them out. GUIDs that are zero are set from the node index
// (node 0x1000 + id, host port node << 8 | port). Indexes the fabric.
void assign_lids(Fabric& fabric, std::uint8_t lmc = 0);

// Min-hop LFTs by BFS from each destination's switch. Among the ports on
// shortest paths the choice is (LID mod count), so destinations spread over
// parallel paths as OpenSM's minhop does.
ForwardingTables min_hop_lfts(const Fabric& fabric);

// How many switch entries (LID 0 included) differ between `a` and `b`: the
// churn a re-routing causes.
std::uint64_t changed_entries(const Fabric& fabric, const ForwardingTables& a,
                              const ForwardingTables& b);

}  // namespace psssp::testing
