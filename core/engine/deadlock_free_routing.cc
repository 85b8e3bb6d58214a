// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "deadlock_free_routing.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "deadlock/route_walk.h"

namespace psssp::engine {
namespace {

constexpr double kFullEffortStretch = 4.0;

struct Retry {
  const char* name;
  RoutingOptions options;
};

// The routings after `first`, cheapest first, leaving out what `first` is.
std::vector<Retry> retries(const RoutingResult& first, const RoutingOptions& options) {
  using Effort = RoutingOptions::Effort;
  std::vector<Retry> out;
  if (first.neighbour_window > 0 || first.pattern_moves > 0) {
    // The rank-neighbours routings and the pattern refinement spread routes
    // apart, which can close more cycles: the choice without them first
    // (the routing closest to it).
    RoutingOptions o = options;
    o.rank_neighbours = false;
    o.refine_patterns = false;
    out.push_back({"without the rank-neighbours routings and the pattern refinement", o});
  }
  const bool port_order = first.tie_break == RoutingOptions::TieBreak::first &&
                          first.order == RoutingOptions::Order::interleaved;
  if (!(port_order && !first.full_effort)) {
    RoutingOptions o = options;
    o.effort = Effort::fast;
    o.order = RoutingOptions::Order::interleaved;
    o.tie_break = RoutingOptions::TieBreak::first;
    out.push_back({"in port order", o});
  }
  if (!first.full_effort && options.effort != Effort::full) {
    // Full effort costs far more than a fast routing: up to kFullEffortStretch
    // times the work the automatic choice allows (docs/benchmarks/deadlock-free.md,
    // "Why the code is as it is"); larger fabrics stay fast here.
    RoutingOptions o = options;
    o.effort = Effort::automatic;
    o.full_effort_limit *= kFullEffortStretch;
    o.order = RoutingOptions::Order::switches;
    out.push_back({"with full effort", o});
  }
  return out;
}

// The layers of `routing` when they fit, else nothing: of every route if
// they fit, else of the routes from switches with hosts.
std::optional<LayerAssignment> layers_if_they_fit(const Fabric& fabric,
                                                  const RoutingResult& routing,
                                                  const LayerOptions& options) {
  LayerOptions hosts_only = options;
  hosts_only.switch_sources = false;
  for (const LayerOptions* o : {&options, static_cast<const LayerOptions*>(&hosts_only)}) {
    try {
      return deadlock::assign_layers(fabric, routing.lfts, *o);
    } catch (const LayerError&) {
      if (!o->switch_sources) break;
    }
  }
  return std::nullopt;
}

// Where the layers leave out routes from switches without hosts that were
// asked for, a note saying so; else "".
std::string scope_note(const Fabric& fabric, const LayerAssignment& layers,
                       const LayerOptions& asked) {
  if (!asked.switch_sources || layers.switch_sources ||
      deadlock::source_switches(fabric).size() == fabric.switches().size())
    return "";
  return "routes from switches without hosts not layered: with them the routes need more than " +
         std::to_string(asked.max_layers) + " virtual layers";
}

}  // namespace

DeadlockFreeRouting layer_or_reroute(const Fabric& fabric, RoutingResult first,
                                     const RoutingOptions& options,
                                     const LayerOptions& layer_options) {
  LayerOptions quick = layer_options;
  quick.count_beyond = false;
  const std::vector<Retry> tries = retries(first, options);
  DeadlockFreeRouting out;
  out.routing = std::move(first);
  for (std::size_t i = 0;; ++i) {
    if (std::optional<LayerAssignment> layers = layers_if_they_fit(fabric, out.routing, quick)) {
      out.layers = std::move(*layers);
      if (i > 0)
        out.fallback = std::string("routed again ") + tries[i - 1].name +
                       ": the routing before needed more than " +
                       std::to_string(layer_options.max_layers) + " virtual layers";
      const std::string note = scope_note(fabric, out.layers, layer_options);
      if (!note.empty()) out.fallback += (out.fallback.empty() ? "" : "; ") + note;
      return out;
    }
    if (i == tries.size()) break;
    out.routing = route_psssp(fabric, tries[i].options);
  }
  // None fits: count how many the last routing tried needs, for the message
  // (one placement order: counting in all three can take seconds more). The
  // count cannot fit either, so this throws.
  LayerOptions count = layer_options;
  count.try_other_orders = false;
  count.switch_sources = false;  // the fewest layers any of these needs
  try {
    out.layers = deadlock::assign_layers(fabric, out.routing.lfts, count);
  } catch (const LayerError& e) {
    std::string message = e.what();
    for (std::size_t i = 0; i < tries.size(); ++i)
      message += std::string(i == 0 ? " (also routed " : " and ") + tries[i].name +
                 (i + 1 == tries.size() ? ")" : "");
    throw LayerError(message, e.needed(), e.available());
  }
  return out;
}

DeadlockFreeRouting route_deadlock_free(const Fabric& fabric, const RoutingOptions& options,
                                        const LayerOptions& layer_options) {
  return layer_or_reroute(fabric, route_psssp(fabric, options), options, layer_options);
}

}  // namespace psssp::engine
