// Linear forwarding tables: for every switch, the output port per destination
// LID. One byte per (switch, LID), rows indexed by the fabric's switch order.
#pragma once

#include <cstddef>
#include <vector>

#include "fabric.h"

namespace psssp {

constexpr PortNum kNoPath = 0xFF;  // OpenSM's OSM_NO_PATH: the LID is not routed

class ForwardingTables {
 public:
  ForwardingTables() = default;
  // Tables for every switch of an indexed fabric, LIDs 0..max_lid, all kNoPath.
  explicit ForwardingTables(const Fabric& fabric);

  bool has_switch(NodeId sw) const {
    return sw < row_of_node_.size() && row_of_node_[sw] != kNoRow;
  }
  PortNum get(NodeId sw, Lid lid) const { return table_[offset(sw, lid)]; }
  void set(NodeId sw, Lid lid, PortNum port) { table_[offset(sw, lid)] = port; }
  // The whole row of a switch: row(sw)[lid] for lid < lid_count().
  const PortNum* row(NodeId sw) const { return &table_[offset(sw, 0)]; }
  PortNum* row(NodeId sw) { return &table_[offset(sw, 0)]; }
  std::size_t lid_count() const { return stride_; }
  std::size_t switch_count() const { return node_of_row_.size(); }
  NodeId switch_at(std::size_t row) const { return node_of_row_[row]; }

  bool operator==(const ForwardingTables& o) const {
    return node_of_row_ == o.node_of_row_ && stride_ == o.stride_ && table_ == o.table_;
  }

 private:
  static constexpr std::uint32_t kNoRow = 0xFFFFFFFFu;
  std::size_t offset(NodeId sw, Lid lid) const {
    return static_cast<std::size_t>(row_of_node_[sw]) * stride_ + lid;
  }

  std::vector<std::uint32_t> row_of_node_;
  std::vector<NodeId> node_of_row_;
  std::size_t stride_ = 0;
  std::vector<PortNum> table_;
};

}  // namespace psssp
