// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// What gets routed, in which order, and who generates load: the destination
// LIDs with the switch each one terminates at, and the load sources (host
// ports) counted per switch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "psssp_routing.h"
#include "routing_graph.h"

namespace psssp::routing {

constexpr Vertex kNoVertexId = 0xFFFFFFFFu;

struct Destination {
  Lid lid = 0;
  PortRef port;                 // the port owning the LID
  Vertex vertex = kNoVertexId;  // switch the LID terminates at; kNoVertexId: none
  PortNum final_port = 0;       // that switch's LFT entry: 0 (own LID) or the CA's port
  bool loads = false;           // routes to it add load
  bool self_source = false;     // the owning port is itself a load source at `vertex`
  std::uint32_t rank = 0;       // index among the destinations of `vertex` (tie-break key)
  // Index into RoutingProblem::demand_rates: the Gb/s of the owning port's
  // cable, which caps what any flow toward it can carry.
  std::uint8_t demand_class = 0;
};

struct RoutingProblem {
  std::vector<Destination> destinations;  // in routing order
  // Load sources: CA ports with a LID cabled to a switch (only the listed ones
  // in guid-list "only" mode). sources_at[v] counts those attached to vertex v.
  std::vector<PortRef> source_ports;
  std::vector<Vertex> source_vertex;
  std::vector<std::uint32_t> sources_at;
  std::vector<double> source_rates;  // per load source: Gb/s of its cable
  // The distinct Gb/s of the destinations' cables (at least one entry; a
  // switch LID counts as the fastest switch cable).
  std::vector<double> demand_rates;
  // Destinations that cannot be routed at all (port not cabled to a switch).
  std::vector<std::string> unroutable;
};

RoutingProblem make_problem(const Fabric& fabric, const RoutingGraph& graph,
                            const RoutingOptions& options);

}  // namespace psssp::routing
