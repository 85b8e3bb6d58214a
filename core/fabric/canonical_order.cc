// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "canonical_order.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace psssp {

Fabric sorted_by_guid(const Fabric& fabric) {
  std::vector<NodeId> order(fabric.node_count());
  std::iota(order.begin(), order.end(), NodeId{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](NodeId a, NodeId b) { return fabric.node(a).guid < fabric.node(b).guid; });
  std::vector<NodeId> new_id(order.size());
  for (NodeId i = 0; i < order.size(); ++i) new_id[order[i]] = i;

  Fabric out;
  for (const NodeId old : order) {
    const Node& n = fabric.node(old);
    const NodeId id = out.add_node(n.type, n.name, n.num_ports());
    Node& copy = out.node(id);
    copy = n;
    for (Port& p : copy.ports)
      if (p.remote.valid()) p.remote.node = new_id[p.remote.node];
  }
  out.warnings = fabric.warnings;
  out.index();
  return out;
}

}  // namespace psssp
