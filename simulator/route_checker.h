// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// psssp-sim check: every ordered pair of host ports (every LID of the
// destination's LMC range) traced through the LFTs. Hosts on one switch share
// the route after their first hop, so each (source switch, destination LID)
// is traced once and weighted by the number of hosts on that switch.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"
#include "traffic/route_tracer.h"

namespace psssp::sim {

struct CheckFault {
  TraceStatus kind = TraceStatus::delivered;
  PortRef source;          // a source host port (all hosts of source_switch when on_switch)
  bool host_link = false;  // the source's own cable is at fault
  NodeId source_switch = kNoNode;
  Lid dlid = 0;
  std::uint64_t pairs = 0;  // host pairs this fault breaks
  std::string message;      // where and what, with GUIDs/descriptions and LIDs
};

struct CheckReport {
  std::uint64_t pairs = 0;      // ordered (source port, destination LID) pairs
  std::uint64_t delivered = 0;  // pairs whose route reaches the destination
  std::array<std::uint64_t, kTraceStatusCount> pairs_by_kind{};  // failing pairs per kind
  std::uint64_t fault_count = 0;                                 // distinct failing traces
  std::vector<CheckFault> faults;  // the first max_faults, ordered by source switch then LID

  // Over delivered pairs; hops = switch-to-switch links crossed.
  double mean_hops = 0.0;
  std::uint32_t max_hops = 0;
  std::uint64_t minimal_pairs = 0;  // pairs routed over a shortest switch path (BFS)
  double minimal_share = 0.0;

  // Edge forwarding index: delivered routes (hosts as sources only) per
  // directed switch-to-switch channel with at least one usable cable.
  std::uint64_t efi_max = 0;
  double efi_mean = 0.0;
  ChannelId efi_max_channel = 0;
  std::size_t switch_channels = 0;
  // Delivered routes per directed channel (indexed by ChannelId), host
  // cables included: a host's cable to its switch carries every route from
  // it, the switch's cable to the host every route to it.
  std::vector<std::uint64_t> channel_routes;

  // Every LFT entry where black-hole traces end (the switch has no port for
  // the LID there), with the host pairs lost at it; by switch, then LID.
  struct Hole {
    NodeId sw = kNoNode;
    Lid lid = 0;
    std::uint64_t pairs = 0;
  };
  std::vector<Hole> holes;

  bool ok() const { return pairs == delivered; }
};

CheckReport check_routes(const Fabric& fabric, const ForwardingTables& lfts, unsigned threads,
                         std::size_t max_faults);

}  // namespace psssp::sim
