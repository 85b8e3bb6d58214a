// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Routes as the checker and the layer assignment see them: every source host
// port injects into its switch, and a route's path depends only on (source
// switch, destination LID), so routes are enumerated per switch and LID and
// the hosts behind a switch share the walk.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"
#include "traffic/route_tracer.h"

namespace psssp::deadlock {

// One host port (CA or router port with a LID) cabled to a switch.
struct SourcePort {
  PortNum in_port = 0;  // the switch port the host is cabled to
  Lid base_lid = 0;
  unsigned lid_count = 1;
};

struct SourceSwitch {
  NodeId node = kNoNode;
  std::vector<SourcePort> ports;
  // The source LIDs behind the switch: the routes each of its paths stands for.
  std::size_t lid_count() const {
    std::size_t n = 0;
    for (const SourcePort& p : ports) n += p.lid_count;
    return n;
  }
};

// Which switches send routes: those with at least one source host port, or
// also every other switch with a LID of its own (port 0, as one source
// port on in_port 0), whose own traffic (SA queries, counters) takes data
// VLs too.
enum class Sources { hosts, every_switch };

// The switches that send routes, in fabric switch order.
std::vector<SourceSwitch> source_switches(const Fabric& fabric, Sources which = Sources::hosts);

// Destination LIDs: every LID some port owns (switch LIDs, host LIDs and
// their LMC ranges), ascending.
std::vector<Lid> destination_lids(const Fabric& fabric);
// Whether lids[begin..end) (begin < end) are consecutive LIDs, ascending:
// then their bytes in a table row are one run. (The layer assignment may
// keep its destinations switch by switch, not by LID.)
inline bool consecutive_lids(const std::vector<Lid>& lids, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin + 1; i < end; ++i)
    if (lids[i] != lids[i - 1] + 1) return false;
  return true;
}

// One switch a route passes: it enters on in_port (0 at the source switch,
// whose in-port is the host's) and leaves on out_port (0: delivered to the
// switch itself). to_switch: out_port leads to another switch.
struct Hop {
  NodeId sw = kNoNode;
  PortNum in_port = 0;
  PortNum out_port = 0;
  bool to_switch = false;
};

enum class WalkEnd { delivered, unrouted, broken, loop };

// Follows the LFTs from `source` toward `dlid` with the shared tracer and
// appends the hops to `hops` (cleared first). Arriving anywhere counts as
// delivered here (the route checker judges the destination); no LFT entry
// is unrouted, a dead or uncabled port broken. A forwarding loop is
// followed once around and more (switch count + 2 hops), so its
// dependencies close a cycle.
WalkEnd walk_route(const RouteTracer& tracer, NodeId source, Lid dlid, std::vector<Hop>& hops);
// The same with a table of Fabric::channel_port per channel (a binary search
// saved per hop, for callers that walk millions of routes).
WalkEnd walk_route(const RouteTracer& tracer, NodeId source, Lid dlid, std::vector<Hop>& hops,
                   const std::vector<PortRef>& port_of_channel);

// "switch "leaf3" (0x...) port 7" for messages.
std::string describe_port(const Fabric& fabric, PortRef port);

}  // namespace psssp::deadlock
