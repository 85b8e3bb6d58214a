// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// One byte per (switch, LID), rows in the fabric's switch order: the shape of
// both the forwarding tables (output port per LID) and the deadlock-free
// mode's virtual layers (layer per destination LID).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fabric.h"

namespace psssp {

class SwitchLidTable {
 public:
  static constexpr std::uint32_t kNoRow = 0xFFFFFFFFu;

  SwitchLidTable() = default;
  // Every switch of an indexed fabric, LIDs 0..max_lid, all set to `fill`.
  SwitchLidTable(const Fabric& fabric, std::uint8_t fill);

  bool has_switch(NodeId sw) const { return row_index(sw) != kNoRow; }
  std::uint8_t get(NodeId sw, Lid lid) const { return bytes_[offset(row_of_node_[sw], lid)]; }
  void set(NodeId sw, Lid lid, std::uint8_t value) {
    bytes_[offset(row_of_node_[sw], lid)] = value;
  }
  // The whole row of a switch: row(sw)[lid] for lid < lid_count().
  const std::uint8_t* row(NodeId sw) const { return &bytes_[offset(row_of_node_[sw], 0)]; }
  std::uint8_t* row(NodeId sw) { return &bytes_[offset(row_of_node_[sw], 0)]; }
  // Row number of a switch, kNoRow for other nodes; rows are addressed by at().
  std::uint32_t row_index(NodeId sw) const {
    return sw < row_of_node_.size() ? row_of_node_[sw] : kNoRow;
  }
  std::uint8_t at(std::uint32_t row, Lid lid) const { return bytes_[offset(row, lid)]; }

  std::size_t lid_count() const { return stride_; }
  std::size_t switch_count() const { return node_of_row_.size(); }
  NodeId switch_at(std::size_t row) const { return node_of_row_[row]; }
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }
  std::size_t memory_bytes() const;

  bool operator==(const SwitchLidTable& o) const {
    return node_of_row_ == o.node_of_row_ && stride_ == o.stride_ && bytes_ == o.bytes_;
  }

 private:
  std::size_t offset(std::uint32_t row, Lid lid) const {
    return static_cast<std::size_t>(row) * stride_ + lid;
  }

  std::vector<std::uint32_t> row_of_node_;
  std::vector<NodeId> node_of_row_;
  std::size_t stride_ = 0;
  std::vector<std::uint8_t> bytes_;
};

}  // namespace psssp
