#include "layer_table.h"

#include <algorithm>

namespace psssp::deadlock {

LayerTable::LayerTable(const Fabric& fabric)
    : row_of_node_(fabric.node_count(), kNoRow),
      node_of_row_(fabric.switches()),
      row_of_lid_(static_cast<std::size_t>(fabric.max_lid()) + 1, kNoRow),
      stride_(static_cast<std::size_t>(fabric.max_lid()) + 1),
      table_(node_of_row_.size() * stride_, 0) {
  for (std::size_t r = 0; r < node_of_row_.size(); ++r)
    row_of_node_[node_of_row_[r]] = static_cast<std::uint32_t>(r);
  for (std::size_t lid = 1; lid < row_of_lid_.size(); ++lid) {
    const PortRef owner = fabric.port_of_lid(static_cast<Lid>(lid));
    if (!owner.valid()) continue;
    NodeId sw = owner.node;
    if (!fabric.node(sw).is_switch()) {
      const Port& port = fabric.port(owner);
      if (!port.connected() || !fabric.node(port.remote.node).is_switch()) continue;
      sw = port.remote.node;
    }
    row_of_lid_[lid] = row_of_node_[sw];
  }
}

unsigned LayerTable::layers_used() const {
  const auto it = std::max_element(table_.begin(), table_.end());
  return it == table_.end() ? 1u : static_cast<unsigned>(*it) + 1;
}

std::size_t LayerTable::memory_bytes() const {
  return table_.size() + row_of_lid_.size() * sizeof(std::uint32_t) +
         row_of_node_.size() * sizeof(std::uint32_t) + node_of_row_.size() * sizeof(NodeId);
}

}  // namespace psssp::deadlock
