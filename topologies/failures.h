// Cable failures and the side files OpenSM needs for generated fabrics.
#pragma once

#include <cstdint>
#include <iosfwd>

#include "fabric/fabric.h"
#include "topology_spec.h"

namespace psssp::topo {

// Removes round(fraction * switch-to-switch cables) such cables, chosen at
// random by `seed`, skipping any whose removal would disconnect the fabric.
// Ports keep their numbers (a removed cable leaves two dark ports, as a pulled
// cable would). Throws std::invalid_argument if not enough cables can go.
// Returns the number removed.
std::size_t fail_cables(Fabric& fabric, double fraction, std::uint64_t seed);

// True if every node reaches every other over cabled ports.
bool is_connected(const Fabric& fabric);

// OpenSM root_guid_file: one "0x<node GUID>" line per root switch.
void write_root_guids(std::ostream& out, const Fabric& fabric, const TopologySpec& spec);

// torus-2QoS.conf for a torus/mesh of at most 3 dimensions (missing ones are
// radix 1), seeded at switch 0 with +/- links in each dimension of size > 1.
void write_torus_conf(std::ostream& out, const Fabric& fabric, const TopologySpec& spec);

}  // namespace psssp::topo
