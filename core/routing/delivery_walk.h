// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Which switches' paths to one destination deliver: from every switch, follow
// the column's entries over live switch cables until the root (good), a dead
// or missing hop, kNoPath or a loop (bad). Memoized, so one pass over the
// column. Incremental re-routing keeps every entry whose path delivers,
// minimal or not (incremental.h).
#pragma once

#include <cstdint>
#include <vector>

#include "routing_graph.h"

namespace psssp::routing {

class DeliveryWalk {
 public:
  enum : std::uint8_t { kUnknown = 0, kVisiting, kGood, kBad, kFailure };

  explicit DeliveryWalk(std::uint32_t vertices = 0)
      : state(vertices, kUnknown), depth(vertices, 0), next(vertices, kNoEdge) {}

  // The forward edge an entry uses, kNoEdge for a dead, missing or host hop.
  static EdgeId edge_of(const RoutingGraph& g, Vertex u, PortNum port) {
    if (port == 0 || port >= g.port_stride) return kNoEdge;
    return g.edge_at_port(u, port);
  }

  // Walks every vertex v with component[v] == component[root] (the others
  // cannot reach it). Afterwards: `order` the good vertices, root first,
  // each after its next hop; `bad` the others; state kFailure marks the
  // failure points among them (own hop dead or missing, or on a loop),
  // kBad those whose path runs into one.
  void run(const RoutingGraph& g, const PortNum* col, Vertex root,
           const std::vector<std::uint32_t>& component);
  // Back to kUnknown for the vertices of the last run (before the next).
  void clear();

  std::vector<std::uint8_t> state;   // per vertex
  std::vector<std::uint32_t> depth;  // per good vertex: hops to the root
  std::vector<EdgeId> next;          // per vertex walked: the edge of its entry (or kNoEdge)
  std::vector<Vertex> order;
  std::vector<Vertex> bad;

 private:
  std::vector<Vertex> stack_;
};

}  // namespace psssp::routing
