// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The switch-to-switch dependencies of every route toward one destination,
// counted with shared suffixes: routes to a LID form a tree, so once a switch's
// way onward is known, a later route reaching it stops there and adds the
// switch's known count. O(switches) memory, about one LFT lookup per switch
// and destination instead of one per hop of every route. Gives exactly what
// walk_route and a dependency per consecutive switch-to-switch hop pair give;
// routes that do not end in delivery are walked that way.
//
//   PathSurvey survey(fabric, slots, tracer);
//   survey.begin(dlid, column);  // column[row] = LFT entry of row for dlid
//   for (NodeId s : sources) n = survey.count(s, marked, end);
#pragma once

#include <cstdint>
#include <vector>

#include "dependency_slots.h"
#include "route_walk.h"

namespace psssp::deadlock {

class PathSurvey {
 public:
  // All must outlive the survey.
  PathSurvey(const Fabric& fabric, const DependencySlots& slots, const RouteTracer& tracer);

  // Starts the routes toward `dlid`; forgets what was known about the last.
  // column[row]: the LFT entry for dlid of the tracer's switch row (the
  // caller's copy, laid out by destination so that a route's walk reads few
  // cache lines); must outlive the counts.
  void begin(Lid dlid, const std::uint8_t* column);
  // The number of dependencies of the route from switch `source` toward the
  // current destination; sets marked[slot] = 1 for each (those of a known
  // suffix were marked when it was first met). `end` as walk_route says.
  std::size_t count(NodeId source, std::vector<std::uint8_t>& marked, WalkEnd& end);

 private:
  struct Step {
    std::uint32_t row;
    PortNum in, out;
    bool to_switch;
  };
  std::size_t walk(NodeId source, std::vector<std::uint8_t>& marked, WalkEnd& end);

  const Fabric& fabric_;
  const DependencySlots& slots_;
  const RouteTracer& tracer_;
  Lid dlid_ = 0;
  const std::uint8_t* column_ = nullptr;
  std::uint32_t want_ = 0;
  std::uint32_t stamp_ = 0;               // per destination
  std::vector<std::uint32_t> known_;      // stamp_ when the row's way onward is known
  std::vector<std::uint32_t> onward_;     // dependencies from the row on, as a source
  std::vector<PortNum> out_;              // the row's output port
  std::vector<std::uint8_t> out_switch_;  // it leads to a switch
  std::vector<Step> path_;
  std::vector<Hop> hops_;
};

}  // namespace psssp::deadlock
