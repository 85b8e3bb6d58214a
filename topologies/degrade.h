// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Mixed rates for generated fabrics: real clusters run a degraded cable here
// and there (a 4x cable trained at 1x, a DDR cable among EDR ones).
#pragma once

#include <cstdint>

#include "fabric/fabric.h"

namespace psssp::topo {

// Sets round(fraction x cables) cables, host cables included, to `slower`,
// chosen by `seed` (portable: the same cables on every platform). Returns
// how many. Throws std::invalid_argument for a fraction outside [0, 1].
std::size_t degrade_cables(Fabric& fabric, double fraction, LinkRate slower, std::uint64_t seed);

}  // namespace psssp::topo
