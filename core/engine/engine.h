// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The engine's one pipeline from a fabric snapshot to tables, layers and
// statistics, shared by the OpenSM plugin and psssp-sim route: read the GUID
// list, route in full or incrementally from the tables the switches hold,
// put the routes on deadlock-free virtual layers (routing again where they
// need too many), and sum up the link loads. The callers keep only their
// adapters: OpenSM's structures and log, or files and the command line.
//
//   engine::RouteInputs in;
//   in.previous = &tables_the_switches_hold;
//   engine::EngineRun run = engine::run_engine(fabric, options, in);
#pragma once

#include <cstddef>
#include <string>

#include "deadlock/layer_assignment.h"
#include "engine/engine_options.h"
#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"
#include "routing/psssp_routing.h"

namespace psssp::engine {

// What a routing starts from besides the fabric and the options.
struct RouteInputs {
  // Route incrementally from these tables (options.incremental permitting);
  // nullptr: a full routing.
  const ForwardingTables* previous = nullptr;
  // With `previous`: the last full routing's tables, where moved entries
  // return (routing/incremental.h); nullptr: none.
  const ForwardingTables* reference = nullptr;
  // The data VLs the hardware offers (0: unknown); with options.vls the
  // routes use at most the smaller of the two.
  unsigned data_vls = 0;
};

// Routes per switch-to-switch channel.
struct SwitchLinkLoad {
  std::size_t links = 0;
  double max = 0.0, mean = 0.0;
};

struct EngineRun {
  RoutingResult routing;
  // options.vls only: the routes' layers, and which routing fit when the
  // first needed too many ("routed again in port order: ...", else empty).
  deadlock::LayerAssignment layers;
  std::string layers_fallback;
  bool incremental_asked = false;  // `previous` was given and incremental on
  SwitchLinkLoad switch_links;
  double seconds = 0.0;  // routing and layers
};

// Throws what the steps throw (FabricError, LayerError, file errors of the
// GUID list); nothing is half done.
EngineRun run_engine(const Fabric& fabric, const EngineOptions& options, const RouteInputs& inputs);

SwitchLinkLoad switch_link_load(const Fabric& fabric, const RoutingResult& routing);

// The choices of a routing that its summary line names, for the plugin's
// log and psssp-sim route alike: "; tree layout" (", round robin"),
// "; rank neighbours (window N)", "; load weighed by capacity", each where
// it applies; "" for none.
std::string choice_notes(const RoutingResult& routing);

}  // namespace psssp::engine
