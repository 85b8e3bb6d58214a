// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "layer_mix.h"

#include <algorithm>

#include "route_walk.h"
#include "traffic/route_tracer.h"

namespace psssp::deadlock {

double LayerMix::busiest_share() const {
  double busiest = 0, total = 0;
  for (const auto& per_layer : routes) {
    busiest += static_cast<double>(*std::max_element(per_layer.begin(), per_layer.end()));
    for (const std::size_t n : per_layer) total += static_cast<double>(n);
  }
  return total > 0 ? busiest / total : 0.0;
}

LayerMix layer_mix(const Fabric& fabric, const ForwardingTables& lfts, const LayerTable& layers) {
  const RouteTracer tracer(fabric, lfts);
  LayerMix mix;
  mix.routes.assign(fabric.channel_count(), {});
  std::vector<Hop> hops;
  const std::vector<Lid> dests = destination_lids(fabric);
  for (const SourceSwitch& s : source_switches(fabric)) {
    const std::size_t weight = s.lid_count();
    for (const Lid dlid : dests) {
      if (walk_route(tracer, s.node, dlid, hops) != WalkEnd::delivered) continue;
      const unsigned layer = layers.get(s.node, dlid);
      for (const Hop& h : hops)
        if (h.to_switch) mix.routes[fabric.channel(PortRef{h.sw, h.out_port})][layer] += weight;
    }
  }
  return mix;
}

}  // namespace psssp::deadlock
