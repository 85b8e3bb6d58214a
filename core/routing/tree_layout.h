// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// A fixed layout of the routes to every host LID of a three-level tree
// (leaves with hosts, aggregation switches, cores), as ftree lays out its
// routes: a candidate routing that psssp's automatic order keeps only when
// its estimated eBB is ahead (psssp_routing.cc; psssp-route.md, "Tree
// layout"). On most three-level trees psssp's own tables are ahead of it;
// on some oversubscribed trees with bundles it is ahead of them (and of
// ftree), where the regroup (top_regroup.h) cannot apply.
//
// The k-th load-carrying host port of leaf D (in the order of D's ports it
// is cabled to; the LIDs of a port, LMC class c, are dealt as position
// k + c x max(1, |A| / 2^LMC), each class with its own turns and counts),
// with A = D's aggregation switches in port order:
//  - comes down from w = A[k mod |A|] over cable (k / |A|) mod X of the
//    w -> D bundle (X cables);
//  - comes down to w from core U[n mod |U|] (U: w's cores in port order, n:
//    the LIDs w has had so far), over the core's cables to w dealt in turn,
//    the turns of the core's i-th switch below starting i cables on;
//  - leaves with hosts send it up to w (those below w) or to the core's
//    first switch below (port order) that has them below it, dealing each
//    of their bundles in turn; that switch sends it up over the cable the
//    core's comes down (the mirror).
// On a two-level tree (no switch two levels above the leaves; levels as
// CableShape::tree_level gives them) the LID comes down from w over cable
// (k / |A|) mod X, and every leaf cabled to w sends it up over the same
// position of its own bundle to w; a leaf not cabled to w keeps psssp's
// entry, and so do hosts on the upper level (a grown tree's spines).
// The turns and the counts n depend on the order the LIDs are laid out in:
// leaf by leaf (vertex order), or round robin over the leaves (every leaf's
// LID k before any leaf's LID k + 1), which gives each leaf's LIDs through w
// one core where the leaves under w are a multiple of its cores. Neither
// wins on every tree; both are candidates with full effort, round robin
// with fast effort. Every path is minimal (checked per entry; a leaf that
// reaches neither w nor a switch below the core refuses the tree too); the
// switches' own LIDs and the entries no host's route uses keep psssp's. The
// layout does not depend on the routing order.
#pragma once

#include <cstddef>
#include <vector>

#include "cable_bundles.h"
#include "destinations.h"
#include "hop_layers.h"
#include "routing_graph.h"

namespace psssp::routing {

enum class TreeLayoutOrder { leaf_by_leaf, round_robin };

// Lays out `columns` (LID-major, graph.vertex_count entries per LID) as
// above. False where it does not apply or some route would not be minimal;
// `columns` may then be laid out in part (lay out a copy).
bool lay_out_tree(const RoutingGraph& graph, const CableShape& shape, const HopLayers& layers,
                  const std::vector<Destination>& destinations, const std::uint32_t* sources_at,
                  TreeLayoutOrder order, PortNum* columns);

}  // namespace psssp::routing
