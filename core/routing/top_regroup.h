// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// ftree's grouping at the top of three-level trees with parallel cables.
// The search balances route counts over the core switches but leaves to
// chance which LIDs share a core; a random bisection sends at most one flow
// to each LID, so the flows into a leaf over one cable meet nowhere else
// when the LIDs sharing that cable also share the core above it and the
// cable up from every other leaf (psssp-route.md, "Parallel cables").
//
// For a LID on switch D whose routes from the top all come down through
// cores above one switch w one level up from D, then cable x of the bundle
// w -> D: they come through core U[x mod |U|] alone (U: w's neighbours one
// level up, in port order), over the cables of its bundle to w in turn
// among the LIDs it sends to w; a leaf of another pod sends them up over
// cable (x mod size) of its bundle. Hop counts stay minimal. Runs before
// align_parallel_cables, whose rule for the top of a route then mirrors the
// way down on the way up. All or nothing: if some cable would carry more
// routes than the busiest did (plus max(1, 1%)), nothing moves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cable_bundles.h"
#include "destinations.h"
#include "hop_layers.h"
#include "routing_graph.h"

namespace psssp::routing {

struct TopRegroup {
  std::size_t lids = 0;   // LIDs regrouped
  std::size_t moved = 0;  // LFT entries changed
  // Per edge: routes and distinct destinations to add to the link loads.
  std::vector<double> route_delta, dest_delta;
};

// `columns`: LFT columns, LID-major, graph.vertex_count entries per LID;
// `routes`: routes per edge now.
TopRegroup regroup_tops(const RoutingGraph& graph, const CableShape& shape, const HopLayers& layers,
                        const std::vector<Destination>& destinations,
                        const std::uint32_t* sources_at, const std::vector<double>& routes,
                        PortNum* columns);

}  // namespace psssp::routing
