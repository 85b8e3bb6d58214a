// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The hosts that take part in a simulation: CA ports with a LID, optionally
// narrowed by a regular expression on the node description or a GUID list.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fabric/fabric.h"

namespace psssp::sim {

struct Host {
  PortRef port;
  Lid lid = 0;  // base LID
  std::uint8_t lmc = 0;
};

struct HostFilter {
  std::string regex;       // RE2 syntax, searched in the node description (else name)
  std::string guids_file;  // one GUID per line (port or node GUID), '#' comments
};

// Hosts in fabric.host_ports() order. Throws std::runtime_error on a bad
// regex, an unreadable file or a GUID that names no CA in the fabric.
std::vector<Host> select_hosts(const Fabric& fabric, const HostFilter& filter);

// Natural order of names, as `ls -v` and schedulers' host lists have it:
// runs of digits compare by value (node2 < node10, node002 < node010,
// "dgx017 mlx5_2" < "dgx017 mlx5_3" < "dgx017 mlx5_10"), everything else
// byte by byte; runs of equal value with more leading zeros sort after.
bool natural_less(const std::string& a, const std::string& b);

// Host indices in the order a block-allocated job gets its ranks: natural
// order of the node description (the name where it has none), then port
// number; hosts that tie keep the order of `hosts`.
std::vector<std::uint32_t> hostname_order(const Fabric& fabric, const std::vector<Host>& hosts);

// Parses a GUID or LID written as decimal or 0x-hex; throws on junk.
std::uint64_t parse_number(const std::string& text, const std::string& what);

}  // namespace psssp::sim
