// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "destination_groups.h"

#include <algorithm>

namespace psssp::deadlock {
namespace {

// The switch that delivers `lid`, kNoNode if none does.
NodeId delivering_switch(const Fabric& fabric, Lid lid) {
  const PortRef p = fabric.port_of_lid(lid);
  if (!p.valid()) return kNoNode;
  if (fabric.node(p.node).is_switch()) return p.node;
  const PortRef remote = fabric.port(p).remote;
  return remote.valid() && fabric.node(remote.node).is_switch() ? remote.node : kNoNode;
}

}  // namespace

DestinationGroups group_by_switch(const Fabric& fabric, const std::vector<Lid>& dests,
                                  std::size_t max_group, std::size_t unit) {
  const std::size_t n = dests.size();
  max_group = std::max<std::size_t>(max_group, 1);
  std::vector<NodeId> at(n);
  std::vector<std::vector<std::uint32_t>> of_switch(fabric.node_count());
  for (std::size_t d = 0; d < n; ++d) {
    at[d] = delivering_switch(fabric, dests[d]);
    if (at[d] != kNoNode) of_switch[at[d]].push_back(static_cast<std::uint32_t>(d));
  }
  DestinationGroups g;
  g.members.reserve(n);
  g.group_first.assign(n, 0);
  g.unit_begin.push_back(0);
  std::size_t in_unit = 0;
  const auto add_group = [&](const std::uint32_t* d, std::size_t count) {
    const auto first = static_cast<std::uint32_t>(g.members.size());
    for (std::size_t i = 0; i < count; ++i) {
      g.group_first[d[i]] = first;
      g.members.push_back(d[i]);
    }
    g.max_group = std::max(g.max_group, count);
    in_unit += count;
    if (in_unit >= unit) {
      g.unit_begin.push_back(g.members.size());
      in_unit = 0;
    }
  };
  for (const std::vector<std::uint32_t>& group : of_switch)
    for (std::size_t i = 0; i < group.size(); i += max_group)
      add_group(group.data() + i, std::min(max_group, group.size() - i));
  for (std::size_t d = 0; d < n; ++d)
    if (at[d] == kNoNode) {
      const auto alone = static_cast<std::uint32_t>(d);
      add_group(&alone, 1);
    }
  if (in_unit != 0) g.unit_begin.push_back(g.members.size());
  return g;
}

}  // namespace psssp::deadlock
