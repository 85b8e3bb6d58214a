// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Files OpenSM needs next to a generated fabric: the root GUID file for
// tree-aware engines and torus-2QoS.conf.
#pragma once

#include <iosfwd>

#include "fabric/fabric.h"
#include "topology_spec.h"

namespace psssp::topo {

// OpenSM root_guid_file: one "0x<node GUID>" line per root switch.
void write_root_guids(std::ostream& out, const Fabric& fabric, const TopologySpec& spec);

// torus-2QoS.conf for a torus/mesh of at most 3 dimensions (missing ones are
// radix 1), seeded at switch 0 with +/- links in each dimension of size > 1.
void write_torus_conf(std::ostream& out, const Fabric& fabric, const TopologySpec& spec);

}  // namespace psssp::topo
