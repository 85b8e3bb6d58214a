// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The family-independent description of a generated topology: switches with
// their host counts and the switch-to-switch cables. Families fill one in;
// build_fabric() turns it into a psssp::Fabric with ports, GUIDs and hosts.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace psssp::topo {

struct SwitchSpec {
  std::string name;
  unsigned hosts = 0;  // hosts whose (first) port is cabled to this switch
  // Pads the ports after the host ports to at least this many (unused ports
  // stay dark), so switches of one kind share a port layout.
  unsigned min_fabric_ports = 0;
};

// A switch-to-switch cable. A slot fixes the port relative to the switch's
// host ports (port = host ports + slot); slot 0 takes the next free port in
// insertion order. Families use either fixed slots or none, not a mix.
struct CableSpec {
  std::size_t a = 0;
  std::size_t b = 0;
  unsigned a_slot = 0;
  unsigned b_slot = 0;
};

// Torus/mesh shape, for the torus-2QoS configuration. Switch i has
// coordinates in mixed radix of `dims`, first dimension fastest.
struct GridShape {
  std::vector<unsigned> dims;
  bool wrap = false;  // torus (true) or mesh
};

struct TopologySpec {
  std::string family;
  std::vector<SwitchSpec> switches;
  std::vector<CableSpec> cables;
  std::vector<std::size_t> roots;  // top switches of tree families
  std::optional<GridShape> grid;
  // Node descriptions of each switch's hosts in port order (by switch index;
  // missing or empty: "h-<n>", the node name). Node names stay "h-<n>".
  std::vector<std::vector<std::string>> host_descriptions;
};

}  // namespace psssp::topo
