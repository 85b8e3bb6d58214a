// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Incremental re-routing: start from the tables the switches hold, keep every
// entry whose path still leads to its LID over live cables (minimal or not),
// give new next hops only to the entries that lost theirs (a dead cable or
// switch, a new LID, a loop), shortest path first and then by the same
// load-weighted cost as the full search, then move at most a bounded number
// of entries where that shortens paths or lowers the load by a margin (a
// cable that came back takes on routes). Every changed entry is a path that moves while
// traffic runs, so few changes matter more than the last bit of balance.
#pragma once

#include <cstdint>
#include <string>

#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"
#include "routing/psssp_routing.h"

namespace psssp {

struct IncrementalOptions {
  // Above this share of entries that lost their next hop (dead, missing or
  // on a loop), the fabric is too different from the one the tables were
  // made for: full routing instead.
  double full_above = 0.05;
  // Entries moved after the repair (shortcuts behind a detour, rebalancing
  // onto light links): -1 = automatic (after a fault, so many that at most
  // changes_per_lost times the entries that lost their hop change in all;
  // otherwise as many as were repaired, and at least twice the mean routes
  // of a switch cable), 0 = off.
  std::int64_t rebalance = -1;
  // The automatic budget after a fault, in changes per entry that lost its
  // hop (repairs included). 2 keeps churn lowest; on tori, where a repair
  // alone can cost two changes per entry, 4 or 6 cut the worst loss against
  // a full routing (docs/benchmarks/churn.md).
  unsigned changes_per_lost = 2;
  // A move must lower the path cost (sum of link loads, in routes, with the
  // moved routes counted on the new path) by more than this.
  double margin = 1.0;
};

// `previous` holds the tables the switches have now (ForwardingTables of this
// fabric: rows by switch, kNoPath or anything invalid where unknown). With a
// `reference` (the last full routing's tables, remapped to this fabric),
// every entry that differs from it goes back to it wherever that hop is live
// and the restored path delivers: a cable that returns gets its original
// routes back, and the entries moved when it failed return exactly. Minimal mode only;
// otherwise, or when too much changed, a full route_psssp.
RoutingResult route_psssp_incremental(const Fabric& fabric, const ForwardingTables& previous,
                                      const RoutingOptions& options,
                                      const IncrementalOptions& incremental,
                                      const ForwardingTables* reference = nullptr);

}  // namespace psssp
