// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Whether a set of channel dependencies (marked dependency slots) is acyclic:
// one topological sort (Kahn) over the switch-to-switch channels, O(channels
// + slots). The layer assignment asks it about the union of all routes'
// dependencies: when that is acyclic, every route fits one layer and any
// split of the routes over layers stays acyclic, so no per-route search is
// needed.
#pragma once

#include <cstdint>
#include <vector>

#include "dependency_slots.h"
#include "fabric/fabric.h"

namespace psssp::deadlock {

// marked[slot] != 0: the dependency exists. marked.size() == slots.size().
bool slots_acyclic(const Fabric& fabric, const DependencySlots& slots,
                   const std::vector<std::uint8_t>& marked);

}  // namespace psssp::deadlock
