// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// SL-to-VL mapping: identity, one map for the whole fabric, or per (switch,
// in port, out port) as OpenSM programs it and dumps it to opensm-sl2vl.dump
// (read by formats/sl2vl_dump_reader.h).
// A route leaving switch w on port q after entering on p travels the channel
// out of q on VL vl(w, p, q, SL). VL 15 is management only: a data route
// mapped to it is dropped by the switch.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "fabric.h"
#include "sl_source.h"

namespace psssp {

using SlVlMap = std::array<std::uint8_t, kSlCount>;
constexpr std::uint8_t kDropVl = 15;

SlVlMap identity_sl2vl();

class Sl2VlTables {
 public:
  // Identity everywhere.
  Sl2VlTables() : uniform_(identity_sl2vl()) {}
  // One map for every switch and port pair.
  explicit Sl2VlTables(const SlVlMap& uniform) : uniform_(uniform) {}

  // Per-port map for (switch, in, out); pairs without one use the uniform map.
  void set(const Fabric& fabric, NodeId sw, PortNum in, PortNum out, const SlVlMap& map);
  bool port_dependent() const { return !offset_.empty(); }

  std::uint8_t vl(NodeId sw, PortNum in, PortNum out, std::uint8_t sl) const {
    if (offset_.empty() || sw >= offset_.size() || offset_[sw] == kNone) return uniform_[sl & 15];
    const std::size_t i = offset_[sw] + static_cast<std::size_t>(in) * width_[sw] + out;
    return present_[i] ? maps_[i][sl & 15] : uniform_[sl & 15];
  }

 private:
  static constexpr std::size_t kNone = ~std::size_t{0};
  SlVlMap uniform_;
  std::vector<std::size_t> offset_;  // per node
  std::vector<unsigned> width_;
  std::vector<SlVlMap> maps_;
  std::vector<bool> present_;
};

}  // namespace psssp
