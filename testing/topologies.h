// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Generated fabrics with LIDs for tests and benchmarks (link psssp_testing).
// Switches come first ("sw-<i>" for rings, "sw-<x>-<y>..." for grids,
// "leaf-<i>" and "spine-<i>" for two-level trees), then hosts "h-<n>" in
// switch order; switch i's ports 1..hosts face its hosts. LIDs: switches 1..,
// then host ports (testing::assign_lids).
#pragma once

#include <cstdint>
#include <vector>

#include "testing/lids_and_lfts.h"
#include "topologies/builder.h"
#include "topologies/families.h"

namespace psssp::testing {

inline Fabric with_lids(const topo::TopologySpec& spec, std::uint8_t lmc = 0) {
  Fabric fabric = topo::build_fabric(spec);
  assign_lids(fabric, lmc);
  return fabric;
}

// Torus (wrap) or mesh, first dimension fastest; port hosts+2d+1 is the "+"
// direction of dimension d, hosts+2d+2 the "-" one. A ring of 2 has two cables.
inline Fabric grid(const std::vector<unsigned>& dims, bool wrap, unsigned hosts) {
  return with_lids(topo::grid(dims, wrap, hosts));
}
inline Fabric ring(unsigned switches, unsigned hosts) { return grid({switches}, true, hosts); }

// Two-level fat tree: every leaf cabled once to every spine; leaf ports
// hosts+1+s go to spine s, spine port l+1 to leaf l.
inline Fabric fat_tree(unsigned leaves, unsigned spines, unsigned hosts_per_leaf) {
  return with_lids(topo::fattree2(leaves, hosts_per_leaf, spines, 1, 0));
}

}  // namespace psssp::testing
