// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Cable failures for generated fabrics.
#pragma once

#include <cstdint>

#include "fabric/fabric.h"

namespace psssp::topo {

// Removes round(fraction * switch-to-switch cables) such cables, chosen at
// random by `seed`, skipping any whose removal would disconnect the fabric.
// Ports keep their numbers (a removed cable leaves two dark ports, as a pulled
// cable would). Throws std::invalid_argument if not enough cables can go.
// Returns the number removed.
std::size_t fail_cables(Fabric& fabric, double fraction, std::uint64_t seed);

// True if every node reaches every other over cabled ports.
bool is_connected(const Fabric& fabric);

}  // namespace psssp::topo
