// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Linear forwarding tables: for every switch, the output port per destination
// LID. One byte per (switch, LID), rows indexed by the fabric's switch order.
#pragma once

#include "fabric.h"
#include "switch_lid_table.h"

namespace psssp {

constexpr PortNum kNoPath = 0xFF;  // OpenSM's OSM_NO_PATH: the LID is not routed

class ForwardingTables : public SwitchLidTable {
 public:
  ForwardingTables() = default;
  // Tables for every switch of an indexed fabric, LIDs 0..max_lid, all kNoPath.
  explicit ForwardingTables(const Fabric& fabric) : SwitchLidTable(fabric, kNoPath) {}
};

}  // namespace psssp
