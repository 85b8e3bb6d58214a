#include "forwarding_tables.h"

namespace psssp {

ForwardingTables::ForwardingTables(const Fabric& fabric)
    : row_of_node_(fabric.node_count(), kNoRow),
      node_of_row_(fabric.switches()),
      stride_(static_cast<std::size_t>(fabric.max_lid()) + 1),
      table_(node_of_row_.size() * stride_, kNoPath) {
  for (std::size_t r = 0; r < node_of_row_.size(); ++r)
    row_of_node_[node_of_row_[r]] = static_cast<std::uint32_t>(r);
}

}  // namespace psssp
