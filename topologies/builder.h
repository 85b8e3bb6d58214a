// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Turns a TopologySpec into a psssp::Fabric: switches first (NodeId = spec
// index), then hosts h-0, h-1, ... in switch order.
//
// GUID scheme (readable in hex, unique, independent of the family):
//   switch i : node/system/port-0 GUID 0x5053570000000000 + i   ("PSW")
//   host h   : node/system GUID      0x5053480000000000 + h*16 ("PSH")
//              port p GUID           node GUID + p (ibsim derives CA port
//              GUIDs this way, so the generator does the same)
#pragma once

#include <cstdint>

#include "fabric/fabric.h"
#include "topology_spec.h"

namespace psssp::topo {

constexpr Guid kSwitchGuidBase = 0x5053570000000000ull;
constexpr Guid kHostGuidBase = 0x5053480000000000ull;
// Port numbers 1..254 (255 means "no path" in an LFT); ibsim 0.10 runs
// 254-port switches (checked with OpenSM and ibnetdiscover).
constexpr unsigned kMaxSwitchPorts = 254;

inline Guid switch_guid(std::size_t index) { return kSwitchGuidBase + index; }
inline Guid host_guid(std::size_t index) { return kHostGuidBase + (Guid{index} << 4); }

struct BuildOptions {
  // Each host gets 2 ports: port 1 to its own switch, port 2 to the next
  // host-carrying switch (cyclically; the same switch if there is only one).
  bool dual_port = false;
  // Every cable's rate (psssp-topo --rate). ibsim 0.10 emulates up to HDR.
  LinkRate rate{LinkWidth::x4, LinkSpeed::qdr};
};

// Throws std::invalid_argument when a switch would need too many ports or a
// fixed slot is used twice.
Fabric build_fabric(const TopologySpec& spec, const BuildOptions& options = {});

}  // namespace psssp::topo
