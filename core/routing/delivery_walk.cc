// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// DeliveryWalk::run (delivery_walk.h).
#include "delivery_walk.h"

namespace psssp::routing {

void DeliveryWalk::run(const RoutingGraph& g, const PortNum* col, Vertex root,
                       const std::vector<std::uint32_t>& component) {
  order.clear();
  bad.clear();
  state[root] = kGood;
  depth[root] = 0;
  order.push_back(root);
  const std::uint32_t comp = component[root];
  const EdgeId* edge_of_port = g.edge_of_port.data();
  const Vertex* target = g.target.data();
  const std::uint32_t stride = g.port_stride;
  for (Vertex u = 0; u < g.vertex_count; ++u) {
    if (state[u] != kUnknown || component[u] != comp) continue;
    // Most switches hop straight to one already known good (on the 32-ary
    // 3-tree all but about 61 of 3,072 per column): settle those without
    // the stack.
    const PortNum port = col[u];
    if (port != 0 && port < stride) {
      const EdgeId e = edge_of_port[static_cast<std::size_t>(u) * stride + port];
      if (e != kNoEdge && state[target[e]] == kGood) {
        next[u] = e;
        depth[u] = depth[target[e]] + 1;
        state[u] = kGood;
        order.push_back(u);
        continue;
      }
    }
    stack_.clear();
    Vertex v = u;
    bool dead = false;
    for (;;) {
      if (state[v] != kUnknown) break;  // good, bad, or visiting (a loop)
      state[v] = kVisiting;
      stack_.push_back(v);
      const EdgeId e = edge_of(g, v, col[v]);
      next[v] = e;
      if (e == kNoEdge) {
        dead = true;
        break;
      }
      v = g.target[e];
    }
    if (!dead && state[v] == kGood) {
      // The top of the stack hops to v; each one below hops to the next.
      for (std::size_t i = stack_.size(); i-- > 0;) {
        const Vertex x = stack_[i];
        depth[x] = depth[i + 1 < stack_.size() ? stack_[i + 1] : v] + 1;
        state[x] = kGood;
        order.push_back(x);
      }
      continue;
    }
    // Bad: a dead hop at the top, a loop from v's place on, or a path into
    // an earlier bad vertex.
    std::size_t first_failure = stack_.size();
    if (dead) {
      first_failure = stack_.size() - 1;  // the top's own hop is dead
    } else if (state[v] == kVisiting) {   // v is on the stack: the loop is v .. top
      first_failure = stack_.size() - 1;
      while (stack_[first_failure] != v) --first_failure;
    }
    for (std::size_t i = 0; i < stack_.size(); ++i) {
      state[stack_[i]] = i >= first_failure ? kFailure : kBad;
      bad.push_back(stack_[i]);
    }
  }
}

void DeliveryWalk::clear() {
  for (const Vertex v : order) state[v] = kUnknown;
  for (const Vertex v : bad) state[v] = kUnknown;
}

}  // namespace psssp::routing
