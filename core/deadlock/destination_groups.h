// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The destination LIDs of a layer assignment grouped by the switch they are
// delivered at (a host LID: the switch its port is cabled to; a switch LID:
// the switch), so that routes toward the LIDs of one switch can be compared
// (path_survey.h), and the groups dealt out as units of work of about
// `unit` LIDs. Groups come switch by switch in node order (GUID order in
// the plugin and in psssp-sim), whatever the LIDs, each ascending, at most
// `max_group` LIDs (a larger one is split); a LID no switch delivers is a
// group of its own, after them. First fit places routes in this order
// (path_table.h): in the order of the switches' lowest LIDs, OpenSM's
// numbering (hosts of one switch hundreds of LIDs apart) made large
// fabrics need more layers and more time (docs/benchmarks/deadlock-free.md).
// Internal to core/deadlock.
//
//   DestinationGroups g = group_by_switch(fabric, dests, 254, 64);
//   for (std::size_t u = 0; u < g.units(); ++u)
//     for (std::size_t m = g.unit_begin[u]; m < g.unit_begin[u + 1]; ++m)
//       dests[g.members[m]] ...  // a new group where g.group_first[d] == m
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fabric/fabric.h"

namespace psssp::deadlock {

struct DestinationGroups {
  std::vector<std::uint32_t> members;      // indexes into dests, group by group
  std::vector<std::uint32_t> group_first;  // per dests index: where its group starts in members
  std::vector<std::size_t> unit_begin;     // unit u: members [unit_begin[u], unit_begin[u + 1])
  std::size_t max_group = 1;               // LIDs of the largest group
  std::size_t units() const { return unit_begin.size() - 1; }
};

DestinationGroups group_by_switch(const Fabric& fabric, const std::vector<Lid>& dests,
                                  std::size_t max_group, std::size_t unit);

}  // namespace psssp::deadlock
