// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// After first fit: the routes spread over all the layers allowed and
// written into the layer table. A subset of an acyclic layer is acyclic, so
// none of this needs a cycle search.
//
//   std::vector<std::size_t> load = spread_layers(paths, order, 8, needed, true);
//   write_layer_table(paths, sources, dests, table);
#pragma once

#include <cstddef>
#include <vector>

#include "fabric/layer_table.h"
#include "path_table.h"
#include "route_walk.h"

namespace psssp::deadlock {

// The routes per layer of n layers after spreading the first-fit layers
// 0..needed-1 of `paths` (balance: over all n layers, else where first fit
// put them) and placing the paths without dependencies (in the emptiest
// layer when balancing, else layer 0). Every first-fit layer i becomes a
// group: layer i plus some of the spare layers, given one by one to the
// group with the most routes per layer. Routes move only within their
// group, visited in `order`, out of layers over the group's equal share
// into its emptiest layer (ties: lowest).
std::vector<std::size_t> spread_layers(PathTable& paths, LayerOptions::Order order, unsigned n,
                                       unsigned needed, bool balance);

// When one layer holds every route, any layer does for any route: the k-th
// destination of the s-th source switch goes to layer (k + s) mod n,
// written row by row, so every source's and every destination's routes use
// all layers (the routes on any link share its VLs), with no pass over the
// paths. Returns the routes per layer.
std::vector<std::size_t> deal_one_layer(const PathTable& paths,
                                        const std::vector<SourceSwitch>& sources,
                                        const std::vector<Lid>& dests, unsigned n,
                                        LayerTable& table);

// The paths' layers into the table's switch-major rows.
void write_layer_table(const PathTable& paths, const std::vector<SourceSwitch>& sources,
                       const std::vector<Lid>& dests, LayerTable& table);

}  // namespace psssp::deadlock
