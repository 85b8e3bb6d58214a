// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Pattern refinement: moves single forwarding entries of host LIDs to
// another shortest next hop where that spreads the flows of the judged
// structured patterns (pattern_estimate.h) over more cables, each move
// paid for by how far it takes the link loads from the routing's own. A
// local search on finished tables with shortest routes only;
// psssp_routing.cc judges its result as one more candidate.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"
#include "pattern_estimate.h"

namespace psssp {

// Moves `lfts` entries pass by pass (`hosts` are the load sources and the
// destinations refined; `patterns` index into them). `balance_weight`
// prices a change of the link loads (relative to the mean load) against
// the flow collisions of the phases. The loads before the first move are
// the target throughout. Nothing moves where some route is not shortest.
class PatternRefiner {
 public:
  PatternRefiner(const Fabric& fabric, ForwardingTables& lfts, const std::vector<PortRef>& hosts,
                 const StructuredPatterns& patterns, double balance_weight);
  ~PatternRefiner();
  PatternRefiner(const PatternRefiner&) = delete;
  PatternRefiner& operator=(const PatternRefiner&) = delete;

  bool applies() const { return applies_; }
  // One pass over the destinations: the entries moved.
  std::size_t pass();
  // Per fabric channel: routes gained (or lost) since construction.
  std::vector<double> route_delta() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
  bool applies_;
};

}  // namespace psssp
