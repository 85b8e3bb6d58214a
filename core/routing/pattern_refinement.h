// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Pattern refinement: moves single forwarding entries of host LIDs to
// another shortest next hop where that spreads the flows of the judged
// structured patterns (pattern_estimate.h) over more cables, each move
// paid for by how far it takes the link loads from the routing's own. A
// local search on finished tables with shortest routes only, over the
// router's switch graph, BFS layers and load sources;
// psssp_routing.cc judges its result as one more candidate.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "destinations.h"
#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"
#include "hop_layers.h"
#include "pattern_estimate.h"
#include "routing_graph.h"

namespace psssp::routing {

// Moves entries of a copy of `lfts` pass by pass (`problem`'s load sources
// are the destinations refined; `patterns` index into them; `layers` hold a
// BFS from every switch with a load source). `balance_weight` prices a
// change of the link loads (relative to the mean load) against the flow
// collisions of the phases. The loads before the first move are the target
// throughout. Nothing moves where some route is not shortest. The graph,
// layers and problem must outlive the refiner.
class PatternRefiner {
 public:
  PatternRefiner(const Fabric& fabric, const RoutingGraph& graph, const HopLayers& layers,
                 const RoutingProblem& problem, const ForwardingTables& lfts,
                 const StructuredPatterns& patterns, double balance_weight);
  ~PatternRefiner();
  PatternRefiner(PatternRefiner&&) noexcept;
  PatternRefiner& operator=(PatternRefiner&&) noexcept;

  bool applies() const { return applies_; }
  // One pass over the destinations: the entries moved.
  std::size_t pass();
  // The tables as refined so far.
  const ForwardingTables& tables() const;
  // Per fabric channel: routes gained (or lost) since construction.
  std::vector<double> route_delta() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
  bool applies_;
};

}  // namespace psssp::routing
