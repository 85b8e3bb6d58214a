// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The deadlock checker: builds the channel dependency graph of a routed
// fabric per VL and reports either "acyclic" or one concrete credit loop with
// a route for every dependency in it.
//
//   DeadlockReport r = check_deadlock(fabric, lfts);               // SL 0, identity SL2VL
//   DeadlockReport r = check_deadlock(fabric, lfts, layer_table);  // engine layers as SLs
//   DeadlockReport r = check_deadlock(fabric, lfts, read_sl_file(p), read_sl2vl_dump(q, fabric));
//   if (!r.deadlock_free) std::cerr << format_cycle(fabric, r);
#pragma once

#include <array>
#include <string>
#include <vector>

#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"
#include "fabric/sl2vl.h"
#include "fabric/sl_source.h"
#include "route_scope.h"

namespace psssp::deadlock {

// One channel of a credit loop and the route that makes it wait on the next.
struct CycleLink {
  PortRef channel;  // the switch and the port the channel leaves by
  Guid switch_guid = 0;
  std::uint8_t vl = 0;  // VL of the channel
  // A route that arrives over this channel and leaves over the next one
  // (cycle[(i + 1) % size]): source LID, destination LID.
  Lid slid = 0;
  Lid dlid = 0;
};

struct DeadlockReport {
  bool deadlock_free = true;
  std::vector<CycleLink> cycle;  // empty when deadlock_free
  std::size_t routes = 0;        // (source LID, destination LID) pairs checked
  std::size_t unrouted = 0;      // of those: no LFT entry on the way
  std::size_t broken = 0;        // sent to a missing or unusable port
  std::size_t loops = 0;         // caught in a forwarding loop
  // Of unrouted, broken and loops: the routes from or to a switch LID.
  std::size_t switch_unrouted = 0, switch_broken = 0, switch_loops = 0;
  std::size_t dependencies = 0;  // CDG edges over all VLs
  std::array<std::size_t, kVlCount> dependencies_per_vl{};
  std::vector<std::uint8_t> vls;  // VLs carrying switch-to-switch dependencies
  double seconds = 0.0;
};

// `scope`: which routes count (dependency_graph.h); by default those from
// host ports to every LID.
DeadlockReport check_deadlock(const Fabric& fabric, const ForwardingTables& lfts,
                              const SlSource& sls, const Sl2VlTables& sl2vl,
                              RouteScope scope = RouteScope::from_hosts);
DeadlockReport check_deadlock(const Fabric& fabric, const ForwardingTables& lfts,
                              const SlSource& sls);
DeadlockReport check_deadlock(const Fabric& fabric, const ForwardingTables& lfts);

// Human-readable cycle, one line per channel:
//   credit loop on VL 0 over 4 channels:
//     "s0" (0x...) port 2 -> "s1" (0x...) [VL 0]  route 5 -> 12
// A route from or to a switch's own LID says so ("route 5 -> 12 (to switch
// "s3" (0x...))").
std::string format_cycle(const Fabric& fabric, const DeadlockReport& report);
// " (from switch ..., to switch ...)" for the switch ends of a route; empty
// for a host-to-host route.
std::string switch_ends(const Fabric& fabric, Lid slid, Lid dlid);

}  // namespace psssp::deadlock
