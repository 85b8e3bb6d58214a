// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "sl2vl.h"

namespace psssp {

SlVlMap identity_sl2vl() {
  SlVlMap map{};
  for (unsigned sl = 0; sl < kSlCount; ++sl) map[sl] = static_cast<std::uint8_t>(sl);
  return map;
}

void Sl2VlTables::set(const Fabric& fabric, NodeId sw, PortNum in, PortNum out,
                      const SlVlMap& map) {
  if (offset_.empty()) {
    offset_.assign(fabric.node_count(), kNone);
    width_.assign(fabric.node_count(), 0);
  }
  if (offset_[sw] == kNone) {
    // Dense per switch: lookups sit in the checker's innermost loop.
    width_[sw] = static_cast<unsigned>(fabric.node(sw).ports.size());
    offset_[sw] = maps_.size();
    const std::size_t cells = static_cast<std::size_t>(width_[sw]) * width_[sw];
    maps_.resize(maps_.size() + cells);
    present_.resize(present_.size() + cells, false);
  }
  const std::size_t i = offset_[sw] + static_cast<std::size_t>(in) * width_[sw] + out;
  maps_[i] = map;
  present_[i] = true;
}

}  // namespace psssp
