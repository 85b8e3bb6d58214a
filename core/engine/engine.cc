// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "engine.h"

#include <algorithm>
#include <utility>

#include "engine/deadlock_free_routing.h"
#include "formats/guid_list.h"
#include "routing/incremental/incremental.h"

namespace psssp::engine {
namespace {

RoutingResult route(const Fabric& fabric, const EngineOptions& options,
                    const RoutingOptions& routing, const RouteInputs& inputs) {
  if (!inputs.previous || !options.incremental) return route_psssp(fabric, routing);
  return route_psssp_incremental(fabric, *inputs.previous, routing, options.incremental_options,
                                 inputs.reference);
}

}  // namespace

EngineRun run_engine(const Fabric& fabric, const EngineOptions& options,
                     const RouteInputs& inputs) {
  RoutingOptions routing = options.routing;
  if (!options.guid_file.empty()) routing.guid_list = read_guid_list(options.guid_file);
  EngineRun run;
  run.incremental_asked = inputs.previous && options.incremental;
  run.routing = route(fabric, options, routing, inputs);
  if (options.vls) {
    // The hardware may offer fewer data VLs than asked for.
    deadlock::LayerOptions layer_options;
    layer_options.max_layers =
        inputs.data_vls ? std::min(options.vls, inputs.data_vls) : options.vls;
    layer_options.threads = routing.threads;
    layer_options.switch_sources = options.vls_all_routes;
    // LayerError when no routing tried fits; else perhaps another routing.
    DeadlockFreeRouting d =
        layer_or_reroute(fabric, std::move(run.routing), routing, layer_options);
    run.routing = std::move(d.routing);
    run.layers = std::move(d.layers);
    run.layers_fallback = std::move(d.fallback);
  }
  run.seconds = run.routing.seconds + (options.vls ? run.layers.seconds : 0.0);
  run.switch_links = switch_link_load(fabric, run.routing);
  return run;
}

std::string choice_notes(const RoutingResult& r) {
  std::string notes;
  if (r.tree_layout == RoutingResult::TreeLayout::round_robin)
    notes += "; tree layout, round robin";
  else if (r.tree_layout == RoutingResult::TreeLayout::leaf_by_leaf)
    notes += "; tree layout";
  if (r.neighbour_window > 0)
    notes += "; rank neighbours (window " + std::to_string(r.neighbour_window) + ")";
  if (r.pattern_moves > 0)
    notes += "; pattern-refined (" + std::to_string(r.pattern_moves) + " entries moved)";
  if (r.capacity_weights) notes += "; load weighed by capacity";
  return notes;
}

SwitchLinkLoad switch_link_load(const Fabric& fabric, const RoutingResult& r) {
  SwitchLinkLoad load;
  double sum = 0.0;
  for (ChannelId c = 0; c < r.channel_load.size(); ++c) {
    const PortRef ref = fabric.channel_port(c);
    const Node& node = fabric.node(ref.node);
    if (!node.is_switch() || ref.port == 0) continue;
    const Port& port = node.ports[ref.port];
    if (!port.usable() || !fabric.node(port.remote.node).is_switch()) continue;
    load.max = std::max(load.max, r.channel_load[c]);
    sum += r.channel_load[c];
    ++load.links;
  }
  load.mean = load.links ? sum / static_cast<double>(load.links) : 0.0;
  return load;
}

}  // namespace psssp::engine
