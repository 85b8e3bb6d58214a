// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "failures.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "rng.h"

namespace psssp::topo {
namespace {

// Connectivity over all cables except `cut` (invalid: none).
bool connected_without(const Fabric& fabric, PortRef cut) {
  const std::size_t n = fabric.node_count();
  if (n == 0) return true;
  std::vector<bool> seen(n, false);
  std::vector<NodeId> stack{0};
  seen[0] = true;
  std::size_t reached = 1;
  const PortRef cut_far = cut.valid() ? fabric.port(cut).remote : PortRef{};
  while (!stack.empty()) {
    const NodeId u = stack.back();
    stack.pop_back();
    const Node& node = fabric.node(u);
    for (PortNum p = 1; p < node.ports.size(); ++p) {
      const PortRef here{u, p};
      if (!node.ports[p].connected() || here == cut || here == cut_far) continue;
      const NodeId v = node.ports[p].remote.node;
      if (!seen[v]) seen[v] = true, ++reached, stack.push_back(v);
    }
  }
  return reached == n;
}

}  // namespace

bool is_connected(const Fabric& fabric) { return connected_without(fabric, {}); }

std::size_t fail_cables(Fabric& fabric, double fraction, std::uint64_t seed) {
  if (!(fraction >= 0.0 && fraction <= 1.0))
    throw std::invalid_argument("--fail: fraction must be in [0, 1]");
  std::vector<PortRef> cables;  // switch-to-switch, one end each, in node/port order
  for (NodeId id = 0; id < fabric.node_count(); ++id) {
    const Node& node = fabric.node(id);
    if (!node.is_switch()) continue;
    for (PortNum p = 1; p < node.ports.size(); ++p) {
      const PortRef remote = node.ports[p].remote;
      if (remote.valid() && fabric.node(remote.node).is_switch() &&
          (remote.node > id || (remote.node == id && remote.port > p)))
        cables.push_back({id, p});
    }
  }
  const auto want =
      static_cast<std::size_t>(std::llround(fraction * static_cast<double>(cables.size())));
  Rng rng(seed);
  rng.shuffle(cables);
  std::size_t removed = 0;
  for (std::size_t i = 0; i < cables.size() && removed < want; ++i) {
    if (!connected_without(fabric, cables[i])) continue;
    const PortRef far = fabric.port(cables[i]).remote;
    fabric.port(cables[i]).remote = {};
    fabric.port(far).remote = {};
    ++removed;
  }
  if (removed < want)
    throw std::invalid_argument("--fail: only " + std::to_string(removed) + " of " +
                                std::to_string(want) +
                                " cables can be removed without disconnecting the fabric");
  fabric.index();
  return removed;
}

}  // namespace psssp::topo
