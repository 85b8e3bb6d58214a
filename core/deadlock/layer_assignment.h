// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Virtual-layer assignment, the engine's deadlock-free mode: every route
// (source switch, destination LID) gets a layer such that each layer's
// channel dependency graph is acyclic. Routes go through incremental cycle
// detection (OnlineTopologicalOrder) into the first layer where their
// dependencies close no cycle; afterwards each source switch deals its
// routes of a first-fit layer over that layer and its share of the spare
// layers as the table is written (layer_spread.h; a subset of an acyclic
// layer is acyclic, so this needs no search). When the union of all routes'
// dependencies is acyclic (fat trees, HyperX in dimension order), one
// topological sort proves it and there is no first fit: every route is
// dealt over all layers. Where every switch carries hosts, that union
// comes from one pass over the tables (each switch's next two hops), and a
// path survey runs only when first fit will.
// First fit (first_fit.h) walks a route only as far as a layer try needs
// and, on two threads, places layer 0 on one and the rest on the other;
// where every switch has hosts, layer 0 starts on the longest paths while
// the survey is still under way.
// It places only routes that repeat no other: the survey (path_survey.h)
// finds, among the LIDs delivered at one switch, a route that takes the
// same channels as an earlier LID's route from the same source switch;
// it has the same dependencies, comes later in every placement order, and
// first fit would give it the same layer, so it takes that layer
// afterwards.
// Memory is the LayerTable (switches x LIDs bytes), a byte per path for
// its length, one for its layer and one naming the route it repeats (and,
// where first fit runs, one for the transposed LFT and, for the marks, two
// bits for layer 0's thread and two bytes for the other's), plus per layer
// two bits per possible dependency
// (switch ports squared) and a few words per channel; never a LIDs x LIDs
// table.
//
// Routes are placed destination switch by destination switch in node
// order, and where every switch has hosts the destinations are kept in
// that order too (their columns and paths side by side), so that neither
// the layers nor the time depend on how the subnet manager numbered the
// LIDs.
//
// Cost: bench_vls and bench_opensm.py, docs/benchmarks/deadlock-free.md
// (layer 0's thread is first fit's longest; fat trees, one layer, pay only
// the survey and the table).
// Tried and not kept (same page): placing all routes to a LID at once (their
// tree) needs more layers and is no faster; layers as fixed channel orders
// (Eades-Lin-Smyth on the remaining routes' dependencies, no search) need
// more layers on dragonflies and 3-D tori, even with first fit after each
// order.
//
//   LayerAssignment a = assign_layers(fabric, lfts, {/*max_layers=*/8});
//   sl = a.table.layer(slid, dlid);
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"
#include "fabric/layer_table.h"

namespace psssp::deadlock {

struct LayerOptions {
  unsigned max_layers = 8;  // 1..16 (layers become SLs)
  // Spread routes over all max_layers layers after the first fit (fuller use
  // of the VL buffers): the spare layers go to the first-fit layers with the
  // most routes per layer, and each first-fit layer's routes are shared
  // evenly among its own; off keeps every route in the lowest layer it fits.
  bool balance = true;
  // Order in which routes are placed. longest_first: routes with more
  // switch-to-switch dependencies first (measured best, see bench_deadlock),
  // among routes of one length destination switch by destination switch
  // (in node order whatever the LIDs, each one's LIDs ascending), then
  // source switches; lid: destination LIDs ascending, then source switches.
  // (Switch by switch needs fewer layers than LIDs ascending on some
  // fabrics and never more, docs/benchmarks/deadlock-free.md; and it does
  // not depend on how the subnet manager numbers LIDs: destination_groups.h.)
  enum class Order { longest_first, shortest_first, lid } order = Order::longest_first;
  // When `order` needs more than max_layers, try the other orders before
  // giving up (each try costs one more first-fit pass).
  bool try_other_orders = true;
  // When the routes need more than max_layers: count how many (up to 64
  // layers, for the error message), or give up at once (a caller with other
  // routings to try: counting can cost seconds).
  bool count_beyond = true;
  // Threads for the survey of all routes (0: one per core); the tables do
  // not depend on it.
  unsigned threads = 0;
  // Also the routes from switches without hosts (their own LIDs' traffic,
  // on data VLs too), so that every route is layered (check's scope all);
  // off: the routes from switches with hosts only, which on trees keeps one
  // layer enough (switch-to-switch routes there may turn down, then up).
  bool switch_sources = true;
};

struct LayerAssignment {
  LayerTable table;
  unsigned layers_needed = 1;  // first-fit layers before balancing
  LayerOptions::Order order = LayerOptions::Order::longest_first;  // the order that fit
  unsigned layers_used = 1;                                        // after balancing
  std::vector<std::size_t> routes_per_layer;  // (source LID, destination LID) pairs
  std::size_t paths = 0;                      // (source switch, destination LID) pairs
  bool switch_sources = false;                // LayerOptions::switch_sources was on
  std::size_t work_bytes = 0;                 // peak memory of the assignment's own tables
  double seconds = 0.0;
  // Where `seconds` went (wall time): set-up (the slot numbering, the
  // tracer, the path and layer tables), the union and survey, first fit in
  // every order tried, and settling and spreading into the table (with
  // first fit's memory freed). Where every switch has hosts and first fit
  // runs longest first on two threads, the survey runs beside layer 0's
  // placing (first_fit_surveying): its time is in first_fit_seconds.
  double setup_seconds = 0.0, survey_seconds = 0.0, first_fit_seconds = 0.0, spread_seconds = 0.0;
  // First-fit passes begun: one per order tried, one more when the pass
  // beside the survey guessed the longest length wrong and started again
  // (0 where one layer holds every route).
  unsigned first_fit_passes = 0;
};

// Thrown when the routes need more layers than allowed, or cannot be made
// deadlock-free by layers at all (a forwarding loop).
class LayerError : public std::runtime_error {
 public:
  LayerError(const std::string& message, unsigned needed, unsigned available)
      : std::runtime_error(message), needed_(needed), available_(available) {}
  unsigned needed() const { return needed_; }  // 0 when unknown (more than the search cap)
  unsigned available() const { return available_; }

 private:
  unsigned needed_, available_;
};

// Throws LayerError ("needs 9 virtual layers, 8 available": the fewest any
// order needed) and
// std::invalid_argument for max_layers outside 1..16.
LayerAssignment assign_layers(const Fabric& fabric, const ForwardingTables& lfts,
                              const LayerOptions& options);

}  // namespace psssp::deadlock
