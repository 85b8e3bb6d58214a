// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "dependency_slots.h"

#include <algorithm>

namespace psssp::deadlock {

DependencySlots::DependencySlots(const Fabric& fabric)
    : base_(fabric.node_count(), 0),
      width_(fabric.node_count(), 0),
      base_channel_(fabric.node_count(), 0),
      into_(fabric.channel_count(), kNoChannel),
      arrival_(fabric.channel_count()) {
  for (NodeId id = 0; id < fabric.node_count(); ++id)
    base_channel_[id] = fabric.channel(PortRef{id, 0});
  for (NodeId sw : fabric.switches()) {
    const Node& n = fabric.node(sw);
    base_[sw] = static_cast<Slot>(size_);
    width_[sw] = static_cast<unsigned>(n.ports.size());
    slot_switches_.push_back(sw);
    slot_starts_.push_back(static_cast<Slot>(size_));
    size_ += static_cast<std::size_t>(width_[sw]) * width_[sw];
    for (PortNum p = 1; p < n.ports.size(); ++p) {
      const Port& port = n.ports[p];
      if (!port.usable() || !fabric.node(port.remote.node).is_switch()) continue;
      if (port.remote.node == sw) continue;  // self-cabled: no route uses it
      const ChannelId in = fabric.channel(port.remote);
      into_[base_channel_[sw] + p] = in;
      arrival_[in] = PortRef{sw, p};
    }
  }
}

NodeId DependencySlots::switch_of(Slot s) const {
  const auto it = std::upper_bound(slot_starts_.begin(), slot_starts_.end(), s);
  return slot_switches_[static_cast<std::size_t>(it - slot_starts_.begin()) - 1];
}

}  // namespace psssp::deadlock
