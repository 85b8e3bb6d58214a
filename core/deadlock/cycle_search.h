// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Finding one directed cycle in a dependency graph: iterative depth-first
// search (no recursion, so million-vertex graphs are fine), vertices and edges
// in index order, so the cycle found is deterministic.
#pragma once

#include <vector>

#include "dependency_graph.h"

namespace psssp::deadlock {

// The edges of the first cycle met, in order (edge i's target is edge
// i+1's source, the last edge returns to the first's source), rotated to
// start at the smallest vertex. Empty when the graph is acyclic.
std::vector<DependencyEdge> find_cycle(const DependencyGraph& graph);

}  // namespace psssp::deadlock
