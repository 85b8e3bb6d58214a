// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Alignment of parallel cables. Between two switches joined by several
// cables the search only balances route counts, so which LIDs share a cable
// is left to chance. A random bisection sends at most one flow to each LID:
// when the LIDs that share a cable into a switch also share the cable that
// feeds it (as d-mod-k routing on fat trees does), the flows that meet on one
// cable are the same flows on both, and fewer flows meet in total. Measured
// on a two-level tree with 2 cables per leaf-spine pair (288 hosts, 2000
// bisections): 0.4876 unaligned, 0.4889 aligned, OpenSM's minhop and ftree
// 0.4886.
#pragma once

#include <cstddef>
#include <vector>

#include "cable_bundles.h"
#include "destinations.h"
#include "hop_layers.h"
#include "routing_graph.h"

namespace psssp::routing {

struct CableAlignment {
  std::size_t moved = 0;   // LFT entries given another cable of their bundle
  std::size_t frozen = 0;  // bundles left as routed: aligning overloaded them
  // Per edge: routes and distinct destinations to add to the link loads.
  std::vector<double> route_delta, dest_delta;
};

// Walks every destination's minimal tree from its root outwards. A switch u
// whose next hop v (a switch without hosts) is one cable of a bundle u -> v,
// where v's next hop w is one cable of a bundle v -> w of a multiple of the
// size, takes cable (i mod size) of its bundle, i being v's cable index in
// its bundle (cables in port order), when either w is the LID's switch and u
// forwards no other switch's routes to the LID, or u and w are at one
// distance (at least one hop) from the switches with hosts and v one hop
// farther: the top of an up-down route (psssp-route.md, "Parallel cables").
// Only the cable changes, never the next switch, so paths, hop counts and
// reachability stay. A bundle whose busiest cable would carry more than both
// its busiest now (plus max(1, 1%)) and 1.25x an even share keeps its
// entries (and the walk starts again, at most three times; then nothing
// moves). `columns`: LFT columns, LID-major, graph.vertex_count entries per
// LID; `routes`: routes per edge now.
CableAlignment align_parallel_cables(const RoutingGraph& graph, const CableShape& shape,
                                     const HopLayers& layers,
                                     const std::vector<Destination>& destinations,
                                     const std::uint32_t* sources_at,
                                     const std::vector<double>& routes, PortNum* columns);

}  // namespace psssp::routing
