// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// After first fit: the routes spread over all the layers allowed and
// written into the layer table. A subset of an acyclic layer is acyclic, so
// none of this needs a cycle search.
//
//   SpreadOptions o;
//   o.needed = needed;  // first fit's layers; 8 layers, balanced by default
//   std::vector<std::size_t> load = spread_into_table(paths, sources, dests, o, table);
#pragma once

#include <cstddef>
#include <vector>

#include "fabric/layer_table.h"
#include "path_table.h"
#include "route_walk.h"

namespace psssp::deadlock {

struct SpreadOptions {
  unsigned layers = 8;  // n: the layers the table may use
  unsigned needed = 1;  // the first-fit layers, 0..needed-1
  bool balance = true;  // spread over all n layers, else keep first fit's
  // One layer holds every route (their union is acyclic): any layer does for
  // any route, so all paths are dealt over all n layers, none of them read
  // (without balance the caller asks for n = 1: all in layer 0).
  bool any_layer = false;
  unsigned threads = 1;  // the table does not depend on it
};

// Writes every path's layer into the table and returns the routes per
// layer. With balance, every first-fit layer i becomes a group: layer i plus
// some of the spare layers, given one by one to the group with the most
// routes per layer. Each source switch deals its paths of a group over the
// group's layers in turn, destination by destination, starting at its own
// offset: every layer of a group gets an even share of each switch's
// routes, so the routes on a cable use all of its group's layers. Paths
// without dependencies fit any layer: they are dealt the same way over all
// n layers, each in proportion to what it lacks from an even count. One
// pass over the paths, on `threads` threads (blocks of source switches).
// Without balance each path keeps its first-fit layer, and paths without
// dependencies go to layer 0. Paths that repeat another (PathTable::repeat)
// get its length and layer in `paths` first, in the pass that counts the
// first-fit layers.
std::vector<std::size_t> spread_into_table(PathTable& paths,
                                           const std::vector<SourceSwitch>& sources,
                                           const std::vector<Lid>& dests,
                                           const SpreadOptions& options, LayerTable& table);

}  // namespace psssp::deadlock
