// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// How a route through the forwarding tables ends: the one vocabulary of the
// tracer, the route checker's report and its JSON keys. The deadlock walk
// folds it into delivered / unrouted / broken / loop.
#pragma once

#include <cstdint>

namespace psssp {

enum class TraceStatus : std::uint8_t {
  delivered,
  black_hole,      // an LFT has no entry (kNoPath) for the LID
  loop,            // more switch hops than switches: the route cycles (no path
                   // can be too long without revisiting a switch)
  wrong_delivery,  // reaches a node or port that does not own the LID (a switch
                   // through LFT port 0)
  down_link,       // leaves over a cable marked unhealthy/down
  unconnected,     // leaves over a port with no cable (or beyond the switch)
};
constexpr int kTraceStatusCount = 6;
const char* trace_status_name(TraceStatus status);  // "black hole", ...
// The same as a JSON key (\"black_hole\").
const char* trace_status_key(TraceStatus status);

}  // namespace psssp
