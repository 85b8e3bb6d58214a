// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "tree_roots.h"

#include <algorithm>
#include <deque>
#include <limits>

namespace psssp {
namespace {

struct PortCounts {
  unsigned hosts = 0, switches = 0;
};

PortCounts count_ports(const Fabric& fabric, const Node& sw) {
  PortCounts c;
  for (PortNum p = 1; p <= sw.num_ports(); ++p) {
    const Port& port = sw.ports[p];
    if (!port.connected()) continue;
    (fabric.node(port.remote.node).is_switch() ? c.switches : c.hosts)++;
  }
  return c;
}

// The leaves: switches with at least as many hosts as switch cables, and
// also a switch with fewer (a leaf of a grown tree with many uplinks) when
// no switch cable leads to such a leaf and it has at least half the hosts
// of the smallest of them. Not the spines of a grown tree that hold a few
// hosts (their cables lead to leaves), nor cores with a host or two.
// Without any switch of as many hosts as switch cables, every switch with
// hosts.
std::vector<NodeId> leaves(const Fabric& fabric) {
  std::vector<NodeId> any_host;
  std::vector<bool> mostly_hosts(fabric.node_count(), false);
  unsigned fewest = 0;  // hosts on the smallest such leaf
  for (NodeId id : fabric.switches()) {
    const PortCounts c = count_ports(fabric, fabric.node(id));
    if (!c.hosts) continue;
    any_host.push_back(id);
    if (c.hosts < c.switches) continue;
    mostly_hosts[id] = true;
    fewest = fewest ? std::min(fewest, c.hosts) : c.hosts;
  }
  if (!fewest) return any_host;
  const auto next_to_leaf = [&](NodeId id) {
    const Node& sw = fabric.node(id);
    for (PortNum p = 1; p <= sw.num_ports(); ++p) {
      const Port& port = sw.ports[p];
      if (port.connected() && mostly_hosts[port.remote.node]) return true;
    }
    return false;
  };
  std::vector<NodeId> out;
  for (NodeId id : any_host)
    if (mostly_hosts[id] ||
        (2 * count_ports(fabric, fabric.node(id)).hosts >= fewest && !next_to_leaf(id)))
      out.push_back(id);
  return out;
}

}  // namespace

std::vector<NodeId> fat_tree_roots(const Fabric& fabric) {
  constexpr unsigned kUnreached = std::numeric_limits<unsigned>::max();
  std::vector<unsigned> level(fabric.node_count(), kUnreached);
  std::deque<NodeId> queue;
  for (NodeId id : leaves(fabric)) level[id] = 0, queue.push_back(id);
  // Multi-source BFS over switch-to-switch cables.
  while (!queue.empty()) {
    const NodeId u = queue.front();
    queue.pop_front();
    const Node& sw = fabric.node(u);
    for (PortNum p = 1; p <= sw.num_ports(); ++p) {
      const Port& port = sw.ports[p];
      if (!port.connected() || !fabric.node(port.remote.node).is_switch()) continue;
      if (level[port.remote.node] != kUnreached) continue;
      level[port.remote.node] = level[u] + 1;
      queue.push_back(port.remote.node);
    }
  }
  unsigned top = 0;
  for (NodeId id : fabric.switches())
    if (level[id] != kUnreached) top = std::max(top, level[id]);
  std::vector<NodeId> roots;
  if (top == 0) return roots;
  for (NodeId id : fabric.switches())
    if (level[id] == top) roots.push_back(id);
  return roots;
}

std::vector<NodeId> updown_roots(const Fabric& fabric) {
  std::vector<NodeId> roots = fat_tree_roots(fabric);
  if (!roots.empty() || fabric.switches().size() < 2) return roots;
  // One level (every switch has hosts): up*/down* still needs a root to
  // orient the cables; the switch with the most switch cables, as a star's hub.
  NodeId hub = fabric.switches().front();
  for (NodeId id : fabric.switches())
    if (count_ports(fabric, fabric.node(id)).switches >
        count_ports(fabric, fabric.node(hub)).switches)
      hub = id;
  return {hub};
}

}  // namespace psssp
