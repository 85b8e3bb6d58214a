// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The switch-to-switch dependencies of every route toward one destination,
// counted with shared suffixes: routes to a LID form a tree, so once a switch's
// way onward is known, a later route reaching it stops there and adds the
// switch's known count. O(switches) memory, about one LFT lookup per switch
// and destination instead of one per hop of every route. Gives exactly what
// walk_route and a dependency per consecutive switch-to-switch hop pair give;
// routes that do not end in delivery are walked that way.
// With a group size, it also finds routes that repeat one counted before:
// the LIDs of a group (those of one destination switch) begun one after
// another, a route from a source that takes the same switch-to-switch
// channels as the route of an earlier LID of the group has the same
// dependencies. Per switch, a route's way onward is named by its first
// LID: the port it leaves by and the name of the way onward from the next
// switch (a switch that delivers: one name for all), so two routes are the
// same exactly when their names are (no hashing).
//
//   PathSurvey survey(fabric, slots, tracer, max_group);
//   survey.begin_group();
//   survey.begin(dlid, column);  // column[row] = LFT entry of row for dlid
//   for (NodeId s : sources) {
//     n = survey.count(s, marked, end);
//     j = survey.same_route_as();  // kOwn, or the group's LID j routed alike
//   }
//   survey.keep_order();           // every switch a source, no marks:
//   survey.begin(dlid2, column2);  // the group's next LIDs
//   survey.count_every_switch();   // then count() as above, mostly known
// Every switch a source and no marks, the group's first LID also goes
// without walks: begin(), then count_tree() instead of count() and
// keep_order(), which shortens the survey (docs/benchmarks/deadlock-free.md,
// "Why the code is as it is").
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "dependency_slots.h"
#include "route_walk.h"

namespace psssp::deadlock {

class PathSurvey {
 public:
  static constexpr std::uint8_t kOwn = 0xFF;     // repeats no earlier route
  static constexpr std::size_t kMaxGroup = 254;  // LIDs per group, at most

  // All must outlive the survey. max_group: the most LIDs a group will
  // hold (at most kMaxGroup); 0 finds no repeated routes.
  PathSurvey(const Fabric& fabric, const DependencySlots& slots, const RouteTracer& tracer,
             std::size_t max_group = 0);

  // Starts a group: the LIDs begun from here on (at most max_group) are
  // compared with each other.
  void begin_group();
  // Starts the routes toward `dlid`; forgets what was known about the last.
  // column[row]: the LFT entry for dlid of the tracer's switch row (the
  // caller's copy, laid out by destination so that a route's walk reads few
  // cache lines); must outlive the counts.
  void begin(Lid dlid, const std::uint8_t* column);
  // The number of dependencies of the route from switch `source` toward the
  // current destination; sets marked[slot] = 1 for each (those of a known
  // suffix were marked when it was first met), unless marked is null. `end`
  // as walk_route says.
  std::size_t count(NodeId source, std::vector<std::uint8_t>* marked, WalkEnd& end);
  // After count(): the place in the group (0 = the LID begun first) of the
  // first LID whose route from the same source takes the same channels
  // between switches, if it is an earlier one; else kOwn (also for routes
  // that do not deliver, and without groups).
  std::uint8_t same_route_as() const { return same_as_; }

  // Where every switch is a source, the group's later LIDs need no walks:
  // once count() has run from every switch toward the group's first LID,
  // keep_order() keeps the switches by their hops to delivery (nearest
  // first). After begin() of a later LID, count_every_switch() then counts
  // from each switch in that order off its next switch's count, known
  // already where the routes are as short as the first LID's (minimal
  // routing). It stops at a switch whose next one is not known yet or whose
  // route fails, and returns the switches it counted; count() walks the
  // rest. Either way count() from a switch then gives what it would have
  // without (the same counts and names), but marks nothing for the
  // switches counted here: for surveys without marks.
  void keep_order();
  std::size_t count_every_switch();
  // The group's first LID without walks, for surveys without marks: counts
  // the routes from every switch off the tree of next hops toward the
  // current LID, breadth first from the switch that delivers (one pass over
  // the switches for the next hops, one over the tree), and keeps that
  // order as keep_order() would (nearest first). False, with nothing
  // counted or kept, when a switch's route does not deliver: count() then
  // walks them, and tells why.
  bool count_tree();
  // When count_every_switch() or count_tree() counted every switch: what
  // count() and same_route_as() from the switch at tracer row rows[i]
  // give, for each i < n, as record() writes them (length[i], repeat[i],
  // seen).
  void read_off(const std::uint32_t* rows, std::size_t n, std::uint8_t* length,
                std::uint8_t* repeat, std::uint8_t* seen) const;
  // One path's entries as read_off() writes them, from count() and
  // same_route_as() (repeat_out may be null: no repeats kept).
  static void record(std::size_t count, std::uint8_t repeat, std::uint8_t& length,
                     std::uint8_t* repeat_out, std::uint8_t* seen) {
    const auto len = static_cast<std::uint8_t>(std::min<std::size_t>(count, 255));
    seen[len] = 1;
    length = repeat == kOwn ? len : 0;
    if (repeat_out) *repeat_out = repeat;
  }

 private:
  struct Step {
    std::uint32_t row;
    PortNum in, out;
    bool to_switch;
  };
  std::size_t walk(NodeId source, std::vector<std::uint8_t>* marked, WalkEnd& end);
  // Names the ways onward of the switches count() just walked.
  void name_ways_onward(std::uint32_t known, bool hit);
  // count_every_switch(), with each row's next row from next_rows where
  // given (count_tree() found them already), else from the tables.
  std::size_t count_in_order(const std::uint32_t* next_rows);
  struct Named {
    std::uint16_t key;
    std::uint8_t lid;  // place in the group
  };
  // The names of the ways onward, over raw arrays: the loop counting every
  // switch keeps it in a local, since its byte stores would otherwise make
  // the compiler load every vector's pointer again per switch.
  struct NameBook {
    std::uint32_t* named_in;
    std::uint8_t* named_count;
    Named* names;
    std::size_t max_group;
    std::uint32_t group;
    std::uint8_t index;
    // The name of the way onward at `row` with `key` (out port and the next
    // switch's name, or kDelivers): the first LID of the group with it.
    std::uint8_t first_with(std::uint32_t row, std::uint16_t key) {
      if (named_in[row] != group) {
        named_in[row] = group;
        named_count[row] = 0;
      }
      Named* at = names + row * max_group;
      const std::uint8_t n = named_count[row];
      for (std::uint8_t i = 0; i < n; ++i)
        if (at[i].key == key) return at[i].lid;
      if (n < max_group) {
        at[n] = Named{key, index};
        named_count[row] = static_cast<std::uint8_t>(n + 1);
      }
      return index;
    }
  };
  NameBook name_book() {
    return NameBook{
        named_in_.data(), named_count_.data(), names_.data(), max_group_, group_, index_};
  }
  static constexpr std::uint16_t kDelivers = 0xFFFF;

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
  // Repeated routes (max_group_ != 0).
  std::size_t max_group_ = 0;
  std::uint8_t index_ = kOwn;       // the current LID's place in the group
  std::uint8_t next_index_ = kOwn;  // the next begin()'s (kOwn: no group)
  std::uint8_t same_as_ = kOwn;
  std::uint32_t group_ = 0;                 // per group
  std::vector<std::uint32_t> named_in_;     // group_ when the row's names are this group's
  std::vector<std::uint8_t> named_count_;   // names at the row
  std::vector<Named> names_;                // max_group_ per row
  std::vector<std::uint8_t> name_;          // the row's way onward toward the current LID
  std::vector<std::uint32_t> order_;        // keep_order(); empty: none for this group
  std::vector<std::uint32_t> next_;         // count_tree(): each row's next row
  std::vector<std::uint32_t> child_start_;  // its children, by next row
  std::vector<std::uint32_t> children_;
  std::vector<std::uint32_t> order_start_;  // keep_order's counting sort
  static constexpr std::uint32_t kMaxHops = 256;
};

// Where every switch is a source, the union of all routes' dependencies
// toward `dlid` needs no walks: it is every switch's next two hops (the
// dependency where the route from one switch enters the next and leaves
// it to a third). Sets marked[slot] = 1 for each; the same as count() from
// every switch. column as for begin().
void mark_every_switchs_dependencies(const DependencySlots& slots, const RouteTracer& tracer,
                                     Lid dlid, const std::uint8_t* column,
                                     std::vector<std::uint8_t>& marked);

}  // namespace psssp::deadlock
