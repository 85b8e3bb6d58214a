// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// A quick eBB estimate of forwarding tables, for the router's own choices
// (RoutingOptions::Order::automatic) and for tests and bench_route. The
// simulator's scorer (simulator/ebb_scorer.*) is the measurement of record;
// this one follows the same definition for one-way random bisections, on
// fabric ports and ForwardingTables directly, without any files, and shares
// its tracer, bisection and kernel (core/traffic).
#pragma once

#include <cstdint>
#include <vector>

#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"
#include "traffic/bisection.h"

namespace psssp {

// Per run, a random bisection of `hosts` (traffic/bisection.h, the pairs
// psssp-sim score --pattern bisect draws for the same seed), routes traced
// by traffic/route_tracer.h, one flow from each first-half host to its
// partner (both_ways: also back); every flow gets 1 / (most flows on any
// channel of its path), a flow without a route 0; run value = mean share.
// Returns the mean over runs; the same hosts, runs and seed give the same
// flows for any tables, so two routings compare on common flows.
// by_capacity: the scorer's capacity-aware share (cap-eBB) instead, each
// channel at its port's Gb/s, shares relative to the source cable's.
double estimate_ebb(const Fabric& f, const ForwardingTables& lfts,
                    const std::vector<PortRef>& hosts, unsigned runs, std::uint64_t seed = 1,
                    bool both_ways = false, bool by_capacity = false);
// The same on runs drawn beforehand (draws.ranks() == hosts.size(), else 0):
// several routings scored on one set of draws.
double estimate_ebb(const Fabric& f, const ForwardingTables& lfts,
                    const std::vector<PortRef>& hosts, const BisectionDraws& draws,
                    bool both_ways = false, bool by_capacity = false);
// The same over all host ports (Fabric::host_ports).
double estimate_ebb(const Fabric& f, const ForwardingTables& lfts, unsigned runs,
                    std::uint64_t seed = 1, bool both_ways = false);

}  // namespace psssp
