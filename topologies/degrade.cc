// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "degrade.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "rng.h"

namespace psssp::topo {

std::size_t degrade_cables(Fabric& fabric, double fraction, LinkRate slower, std::uint64_t seed) {
  if (!(fraction >= 0.0 && fraction <= 1.0))
    throw std::invalid_argument("--degrade: fraction must be in [0, 1]");
  std::vector<PortRef> cables;  // one end each, in node/port order
  for (NodeId id = 0; id < fabric.node_count(); ++id) {
    const Node& node = fabric.node(id);
    for (PortNum p = 1; p < node.ports.size(); ++p) {
      const PortRef remote = node.ports[p].remote;
      if (remote.valid() && (remote.node > id || (remote.node == id && remote.port > p)))
        cables.push_back({id, p});
    }
  }
  const auto want =
      static_cast<std::size_t>(std::llround(fraction * static_cast<double>(cables.size())));
  // Its own stream: --degrade does not change which cables --fail removes.
  Rng rng(seed ^ 0x52415445ull);  // "RATE"
  rng.shuffle(cables);
  for (std::size_t i = 0; i < want; ++i) {
    fabric.port(cables[i]).rate = slower;
    fabric.port(fabric.port(cables[i]).remote).rate = slower;
  }
  return want;
}

}  // namespace psssp::topo
