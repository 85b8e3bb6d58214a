// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Which host port each rank transfers from: a map file ("RANK PORT-GUID" or
// "RANK LID" per line) or the rank's own HCA in sysfs, checked against the
// fabric when one is given.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fabric/fabric.h"
#include "host_set.h"

namespace psssp::bench {

// A rank's port as the rank or the map file states it: a GUID, a LID or both.
struct PortId {
  std::uint64_t guid = 0;  // 0: not known
  std::uint32_t lid = 0;   // 0: not known
  std::string where;       // "map.txt:3" or "rank 2 (sysfs mlx5_0 port 1)", for messages
};

// One PortId per rank 0..ranks-1. Throws std::runtime_error naming FILE:LINE
// on junk, a rank out of range or given twice, and naming the first rank
// the file leaves out. A value up to 0xBFFF is a LID, above a port GUID.
std::vector<PortId> read_map(const std::string& path, std::size_t ranks);

// The port of this host from a sysfs tree (/sys/class/infiniband): `hca`
// "DEV" or "DEV:PORT" picks one, empty the first ACTIVE InfiniBand port of
// the devices in name order. Throws std::runtime_error when there is none.
PortId read_sysfs_port(const std::string& root, const std::string& hca);

// The ranks' ports resolved: LIDs (from the fabric when given) and, with a
// fabric, each rank's index into `hosts`.
struct RankPorts {
  std::vector<std::uint64_t> guid;
  std::vector<std::uint32_t> lid;
  std::vector<std::uint32_t> host;  // with a fabric: index into hosts; else empty
};

// Throws std::runtime_error when a GUID or LID is not a host port of the
// fabric, when a GUID cannot be resolved without one, or when two ranks name
// the same port (one rank per host port).
RankPorts resolve_ports(const std::vector<PortId>& ports, const Fabric* fabric,
                        const std::vector<sim::Host>& hosts, const std::string& fabric_path);

}  // namespace psssp::bench
