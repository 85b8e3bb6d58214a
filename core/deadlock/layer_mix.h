// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// How evenly the layers share each cable: per switch-to-switch channel, the
// routes in each layer (a route: a source LID and a destination LID, so a
// switch's path counts once per LID behind it). Spreading routes over spare
// layers is for this: the routes on a cable use all of its VLs' buffers.
// One walk of every route; for benchmarks and tests, not the routing.
//
//   const LayerMix mix = layer_mix(fabric, lfts, layers);
//   double share = mix.busiest_share();  // 1/8 at best with 8 layers
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"
#include "fabric/layer_table.h"

namespace psssp::deadlock {

struct LayerMix {
  // Per channel, its routes per layer; channels of host cables stay 0.
  std::vector<std::array<std::size_t, kSlCount>> routes;
  // The busiest layer's share of a cable's routes, mean over the cables
  // weighted by their routes (0 without routes).
  double busiest_share() const;
};

// Routes that do not arrive are left out (the route checker reports them).
LayerMix layer_mix(const Fabric& fabric, const ForwardingTables& lfts, const LayerTable& layers);

}  // namespace psssp::deadlock
