// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "switch_lid_table.h"

namespace psssp {

SwitchLidTable::SwitchLidTable(const Fabric& fabric, std::uint8_t fill)
    : row_of_node_(fabric.node_count(), kNoRow),
      node_of_row_(fabric.switches()),
      stride_(static_cast<std::size_t>(fabric.max_lid()) + 1),
      bytes_(node_of_row_.size() * stride_, fill) {
  for (std::size_t r = 0; r < node_of_row_.size(); ++r)
    row_of_node_[node_of_row_[r]] = static_cast<std::uint32_t>(r);
}

std::size_t SwitchLidTable::memory_bytes() const {
  return bytes_.size() + row_of_node_.size() * sizeof(std::uint32_t) +
         node_of_row_.size() * sizeof(NodeId);
}

}  // namespace psssp
