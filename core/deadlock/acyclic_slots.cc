// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "acyclic_slots.h"

namespace psssp::deadlock {

bool slots_acyclic(const Fabric& fabric, const DependencySlots& slots,
                   const std::vector<std::uint8_t>& marked) {
  const std::size_t n = fabric.channel_count();
  std::vector<std::uint32_t> indegree(n, 0);
  for (NodeId sw : fabric.switches()) {
    const unsigned width = slots.width(sw);
    const ChannelId chan0 = fabric.channel(PortRef{sw, 0});
    for (unsigned p = 1; p < width; ++p)
      for (unsigned q = 1; q < width; ++q)
        if (marked[slots.slot(sw, static_cast<PortNum>(p), static_cast<PortNum>(q))])
          ++indegree[chan0 + q];
  }
  std::vector<ChannelId> ready;
  for (ChannelId c = 0; c < n; ++c)
    if (indegree[c] == 0) ready.push_back(c);
  std::size_t done = 0;
  while (!ready.empty()) {
    const ChannelId c = ready.back();
    ready.pop_back();
    ++done;
    const PortRef at = slots.arrival(c);
    if (!at.valid()) continue;
    const unsigned width = slots.width(at.node);
    const Slot base = slots.slot(at.node, at.port, 0);
    const ChannelId chan0 = fabric.channel(PortRef{at.node, 0});
    for (unsigned q = 1; q < width; ++q)
      if (marked[base + q] && --indegree[chan0 + q] == 0) ready.push_back(chan0 + q);
  }
  return done == n;
}

}  // namespace psssp::deadlock
