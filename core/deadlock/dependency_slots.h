// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Dense numbering of the possible channel dependencies of a fabric. A route
// entering switch w on port p and leaving on port q makes the channel into p
// depend on the channel out of q; slot(w, p, q) numbers these triples so that
// per-layer or per-VL dependency data is a flat array, not a hash map.
#pragma once

#include <cstdint>
#include <vector>

#include "fabric/fabric.h"

namespace psssp::deadlock {

using Slot = std::uint32_t;
constexpr ChannelId kNoChannel = 0xFFFFFFFFu;

class DependencySlots {
 public:
  explicit DependencySlots(const Fabric& fabric);

  Slot slot(NodeId sw, PortNum in, PortNum out) const {
    return base_[sw] + static_cast<Slot>(in) * width_[sw] + out;
  }
  std::size_t size() const { return size_; }
  NodeId switch_of(Slot s) const;
  PortNum in_port(Slot s) const {
    return static_cast<PortNum>((s - base_[switch_of(s)]) / width_[switch_of(s)]);
  }
  PortNum out_port(Slot s) const {
    return static_cast<PortNum>((s - base_[switch_of(s)]) % width_[switch_of(s)]);
  }
  unsigned width(NodeId sw) const { return width_[sw]; }  // ports + 1

  // The channel arriving at (sw, port): the one leaving the cabled peer port;
  // kNoChannel if the port is not usable or the peer is not a switch.
  ChannelId switch_channel_into(NodeId sw, PortNum port) const {
    return into_[base_channel_[sw] + port];
  }
  // For a switch-to-switch channel: the switch and port it arrives at.
  PortRef arrival(ChannelId c) const { return arrival_[c]; }

 private:
  std::vector<Slot> base_;  // per node; only switches have slots
  std::vector<unsigned> width_;
  std::vector<NodeId> slot_switches_;  // switches in slot order, for switch_of
  std::vector<Slot> slot_starts_;
  std::vector<ChannelId> base_channel_;
  std::vector<ChannelId> into_;
  std::vector<PortRef> arrival_;  // invalid unless switch-to-switch
  std::size_t size_ = 0;
};

}  // namespace psssp::deadlock
