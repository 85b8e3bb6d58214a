// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Hand-made fabrics and min-hop forwarding tables for the deadlock and SL
// reader tests and bench_deadlock, so they need neither a reader nor the
// routing engine.
#pragma once

#include <vector>

#include "fabric.h"
#include "forwarding_tables.h"

namespace psssp::testing {

// Switches "s<i>" with `hosts` hosts each ("h<i>-<k>", one port). Switch i's
// ports 1..hosts face its hosts; fabric ports follow.
Fabric ring(unsigned switches, unsigned hosts);
// Torus (wrap) or mesh; switch index in mixed radix, first dimension fastest.
Fabric grid(const std::vector<unsigned>& dims, bool wrap, unsigned hosts);
// Two-level fat tree: every leaf cabled once to every spine.
Fabric fat_tree(unsigned leaves, unsigned spines, unsigned hosts_per_leaf);

// Gives every switch (port 0) and host port a LID: switches first, then hosts,
// in node order; hosts get `lmc`. GUIDs are set from the node index when zero.
// Indexes the fabric.
void assign_lids(Fabric& fabric, std::uint8_t lmc = 0);

// Min-hop LFTs by BFS from each destination's switch. Among the ports on
// shortest paths the choice is (LID mod count), so destinations spread over
// parallel paths as OpenSM's minhop does.
ForwardingTables min_hop_lfts(const Fabric& fabric);

}  // namespace psssp::testing
