// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "layer_table.h"

#include <algorithm>

namespace psssp {

LayerTable::LayerTable(const Fabric& fabric)
    : layers_(fabric, 0),
      row_of_lid_(static_cast<std::size_t>(fabric.max_lid()) + 1, SwitchLidTable::kNoRow) {
  for (std::size_t lid = 1; lid < row_of_lid_.size(); ++lid) {
    const PortRef owner = fabric.port_of_lid(static_cast<Lid>(lid));
    if (!owner.valid()) continue;
    NodeId sw = owner.node;
    if (!fabric.node(sw).is_switch()) {
      const Port& port = fabric.port(owner);
      if (!port.connected() || !fabric.node(port.remote.node).is_switch()) continue;
      sw = port.remote.node;
    }
    row_of_lid_[lid] = layers_.row_index(sw);
  }
}

unsigned LayerTable::layers_used() const {
  const auto& bytes = layers_.bytes();
  const auto it = std::max_element(bytes.begin(), bytes.end());
  return it == bytes.end() ? 1u : static_cast<unsigned>(*it) + 1;
}

std::size_t LayerTable::memory_bytes() const {
  return layers_.memory_bytes() + row_of_lid_.size() * sizeof(std::uint32_t);
}

}  // namespace psssp
