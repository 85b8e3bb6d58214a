// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The engine's deadlock-free mode as one step, shared by the OpenSM plugin
// and psssp-sim route --vls: routes and their virtual layers. When the routes
// need more layers than allowed, routings whose routes are easier to layer
// are tried before giving up, cheapest first:
//   1. the routing given (or route_psssp with the options);
//   2. interleaved with ties to the lowest port, fast effort (dimension
//      order where cables are numbered by dimension: tori need far fewer
//      layers there);
//   3. full effort (endpoint affinity gathers each switch's routes);
// docs/benchmarks/deadlock-free.md has the layer counts.
// Each try gives up as soon as it needs more than the allowed layers. The
// layers cover every route, also from switches without hosts (their own
// LIDs' traffic), where that fits; else the routes from switches with hosts.
//
//   engine::DeadlockFreeRouting r = engine::route_deadlock_free(fabric, routing,
//   {/*max_layers=*/8});
#pragma once

#include <string>

#include "deadlock/layer_assignment.h"
#include "fabric/fabric.h"
#include "routing/psssp_routing.h"

namespace psssp::engine {

using deadlock::LayerAssignment;
using deadlock::LayerError;
using deadlock::LayerOptions;

struct DeadlockFreeRouting {
  RoutingResult routing;
  LayerAssignment layers;
  // Empty when the first routing fit with every route layered; else which
  // routing fit and why ("routed again in port order: the routing before
  // needed more than 8 virtual layers"), and whether the routes from
  // switches without hosts were left out to make them fit.
  std::string fallback;
};

// Layers for `first` (a routing of `fabric` with `options`, e.g. an
// incremental one), or for the routings after it in the list above. Throws
// LayerError when none fits (a forwarding loop: at once), naming what was
// tried.
DeadlockFreeRouting layer_or_reroute(const Fabric& fabric, RoutingResult first,
                                     const RoutingOptions& options,
                                     const LayerOptions& layer_options);

// The same from scratch: route_psssp(fabric, options) first.
DeadlockFreeRouting route_deadlock_free(const Fabric& fabric, const RoutingOptions& options,
                                        const LayerOptions& layer_options);

}  // namespace psssp::engine
