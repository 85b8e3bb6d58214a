// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// First fit, the search of the layer assignment (layer_assignment.cc): every
// route, in the placement order, goes into the lowest layer whose channel
// dependency graph stays acyclic with it. A route is walked only as far as
// the layer tried needs: once a route toward a LID is placed in layer l,
// every switch it walked is marked as having its way onward in l, and a
// later route toward that LID is walked to the first switch marked for the
// layer being tried (the layer holds the rest, and adding what it holds
// changes nothing). A layer that refuses a dependency for good (it closes a
// cycle on its own) refuses every route on through the switches before it:
// those are marked too, and a later route toward that LID stops its try of
// that layer at the first such switch (and marks the switches it walked to
// get there: they lead into it). On two threads the layers form a
// pipeline: one thread places every route it can in layer 0 and hands the
// routes layer 0 refuses, in order, to the other, which places them in
// layers 1 and up. Each layer sees the same routes in the same order as on
// one thread, so the layers are the same. If either thread fails (an
// allocation), the other stops and the failure reaches the caller.
// Internal to core/deadlock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "layer_graph.h"
#include "path_table.h"
#include "route_walk.h"

namespace psssp::deadlock {

// What first fit reads; all of it outlives the call.
struct FirstFitInput {
  const Geometry& g;
  const RouteTracer& tracer;
  const std::vector<SourceSwitch>& sources;
  const std::vector<std::uint32_t>& rows;  // the tracer row of each source switch
  const std::vector<Lid>& dests;
  // The LFT by destination: columns[d * tracer.switch_count() + row].
  const Bytes& columns;
};

struct FirstFitResult {
  std::vector<std::unique_ptr<LayerGraph>> layers;  // the layers opened, at least one
  bool capped = false;                              // a route fit none of `cap` layers
  std::size_t mark_bytes = 0;  // the marks' memory (a byte per path each thread)
};

// The switch-to-switch dependencies of the route from `source` to `dlid`,
// the whole route (hops: scratch).
void route_dependencies(const Geometry& g, const RouteTracer& tracer, NodeId source, Lid dlid,
                        std::vector<Hop>& hops, std::vector<Dependency>& deps);

// Places every path of `paths` with dependencies, in `order`, writing
// paths.layer; opens at most `cap` layers. threads >= 2: the pipeline above.
FirstFitResult first_fit(const FirstFitInput& in, PathTable& paths, LayerOptions::Order order,
                         unsigned cap, unsigned threads);

// The survey of the paths (layer_assignment.cc) in units of destinations,
// for first_fit_surveying. Unit u is destinations unit_begin[u] up to
// unit_begin[u + 1] (consecutive, in order: the destinations are kept in
// the placement order). survey(u, worker) writes the lengths (and
// repeats) of every path toward the destinations of unit u, with worker's
// scratch; longest(worker) is the most dependencies of a path worker has
// surveyed so far (0: none); lengths() the lengths that occur, ascending,
// once every unit is surveyed.
struct SurveyUnits {
  const std::vector<std::size_t>* unit_begin = nullptr;  // units + 1 entries
  std::function<void(std::size_t unit, unsigned worker)> survey;
  std::function<unsigned(unsigned worker)> longest;
  std::function<std::vector<unsigned>()> lengths;
};

// First fit in longest-first order on two threads (cap >= 2) while the
// paths are being surveyed: both threads take units; the thread placing
// layer 0 guesses the longest length from its first unit and places the
// paths of that length destination by destination as their units are
// done, surveying the next unit itself when its destination's is not. Once
// every unit is surveyed (paths.lengths set), the guess stands when it was
// the longest length: layer 0 goes on with the shorter ones, and the other
// thread places the routes it refused, as in first_fit. Every path is then
// placed in the same order as by first_fit, so the layers are the same. A
// wrong guess (a longer path in a later unit) gives nullopt with nothing
// placed: the caller runs first_fit. A survey's exception reaches the
// caller as parallel_for would give it (the lowest unit's).
std::optional<FirstFitResult> first_fit_surveying(const FirstFitInput& in, PathTable& paths,
                                                  const SurveyUnits& units, unsigned cap);

}  // namespace psssp::deadlock
