// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Virtual layers of the engine's deadlock-free mode: one layer (used as the
// SL, 0..15) per (source switch, destination LID). Rows follow the fabric's
// switch order like ForwardingTables, so memory is switches x LIDs bytes plus
// a LID -> row index; layer(slid, dlid) is O(1) and const (thread-safe reads).
// formats/layer_table_io.h writes and reads it as text.
#pragma once

#include <cstdint>
#include <vector>

#include "fabric.h"
#include "sl_source.h"
#include "switch_lid_table.h"

namespace psssp {

class LayerTable : public SlSource {
 public:
  LayerTable() = default;
  // All layer 0, for every switch of an indexed fabric and LIDs 0..max_lid.
  explicit LayerTable(const Fabric& fabric);

  // The layer of the route from `slid` to `dlid`: host LIDs map to the switch
  // their port is cabled to, switch LIDs to the switch itself. Unknown LIDs
  // give 0.
  std::uint8_t layer(Lid slid, Lid dlid) const {
    if (slid >= row_of_lid_.size() || dlid >= layers_.lid_count()) return 0;
    const std::uint32_t row = row_of_lid_[slid];
    return row == SwitchLidTable::kNoRow ? 0 : layers_.at(row, dlid);
  }
  std::uint8_t sl(Lid slid, Lid dlid) const override { return layer(slid, dlid); }
  bool by_source_switch() const override { return true; }

  bool has_switch(NodeId sw) const { return layers_.has_switch(sw); }
  std::uint8_t get(NodeId sw, Lid dlid) const { return layers_.get(sw, dlid); }
  void set(NodeId sw, Lid dlid, std::uint8_t layer) { layers_.set(sw, dlid, layer); }
  // The row of a switch of the table: row(sw)[dlid] is set(sw, dlid, ...)'s.
  std::uint8_t* row(NodeId sw) { return layers_.row(sw); }
  std::size_t lid_count() const { return layers_.lid_count(); }
  std::size_t switch_count() const { return layers_.switch_count(); }
  NodeId switch_at(std::size_t row) const { return layers_.switch_at(row); }
  // 1 + the highest layer in the table (1 for an all-zero table).
  unsigned layers_used() const;
  std::size_t memory_bytes() const;

  bool operator==(const LayerTable& o) const { return layers_ == o.layers_; }

 private:
  SwitchLidTable layers_;
  std::vector<std::uint32_t> row_of_lid_;  // source LID -> row of its switch
};

}  // namespace psssp
