// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The approximate LP bound (method approximate), no LP solver: Garg-Konemann
// maximum multicommodity flow in Fleischer's phases. Every channel has a
// length that grows by e^(step * amount / capacity) with each amount pushed
// through it; phase k routes each flow along its shortest path while that is
// shorter than (1 + step)^k times the shortest of all (relative to the flow's
// weight).
//  - Shortest paths: one tree per destination switch (a reverse Dijkstra on
//    the switch graph, or one pass over the minimal-hop DAG with --minimal),
//    grown in a sweep every ~1/step phases on the solve's threads. Between
//    sweeps each flow is routed on the best of the paths it has been given
//    (its pool), far cheaper than the trees.
//  - Upper end, at every sweep: the Lagrangian bound of the lengths
//    (pricer.h), an upper bound on the LP by weak duality; the best is kept.
//  - Lower end, at every sweep: the pushed amounts (older ones decayed), each
//    path divided by the worst load / capacity along it, a few times over: a
//    feasible flow.
// It stops when upper <= (1 + eps) * lower, or at the deadline (the best
// bound so far stands: valid, looser). The step starts below eps and halves
// when the gap stalls. The result does not depend on the thread count.
#pragma once

#include <vector>

#include "bound/channel_network.h"
#include "bound/solver.h"

namespace psssp::bound {

Solution solve_fleischer(const ChannelNetwork& net, const std::vector<Commodity>& fs,
                         const SolveOptions& options);

}  // namespace psssp::bound
