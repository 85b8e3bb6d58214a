// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The structured patterns the automatic order judges its candidates on
// besides random bisections (psssp_routing.cc; psssp-route.md, "Judged on
// the patterns jobs run"): shift, recursive doubling and ring, with the
// ranks in fabric order (psssp-sim score --mapping linear) and in the
// natural order of the node descriptions and ports (--mapping hostname),
// the second left out where it is the same order. Each phase is one
// permutation of the ranks: every host sends at most one flow and receives
// at most one, so, as in estimate_ebb, a flow's own host cables cannot be
// its bottleneck and its path is traced from its source's switch. The
// values are the scorer's for the same phases (mean over phases of the mean
// share), without its runs' noise: the phases are fixed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"

namespace psssp {

struct StructuredPatterns {
  struct Pattern {
    std::string name;  // "shift linear", "ring hostname", ...
    // Phases of flows (source, destination) as indices into the hosts.
    std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> phases;
  };
  std::vector<Pattern> patterns;
};

// The patterns over `hosts` (in fabric order). Shift takes at most
// `shift_phases` of its n - 1 phases: the first half of them the shortest
// shifts (1, 2, ...), the rest spread over the others; recursive doubling
// its first `doubling_phases` (partners 1, 2, 4, ... apart), ring its one.
StructuredPatterns structured_patterns(const Fabric& fabric, const std::vector<PortRef>& hosts,
                                       std::size_t shift_phases, std::size_t doubling_phases = 64);

// Hosts' ranks under --mapping hostname: indices into `hosts` in natural
// order of node description (digit runs compared as numbers, node002 before
// node010), then port number; nodes without a description by name.
std::vector<std::uint32_t> hostname_order(const Fabric& fabric, const std::vector<PortRef>& hosts);

// Per pattern, the mean over its phases of the mean share of its flows
// (1 / the most flows on any channel of the path; 0 without a route);
// by_capacity: the capacity-aware share, as estimate_ebb.
std::vector<double> estimate_patterns(const Fabric& fabric, const ForwardingTables& lfts,
                                      const std::vector<PortRef>& hosts,
                                      const StructuredPatterns& patterns, bool by_capacity = false);

}  // namespace psssp
