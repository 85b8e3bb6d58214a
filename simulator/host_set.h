// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The hosts that take part in a simulation: CA ports with a LID, optionally
// narrowed by a regular expression on the node description or a GUID list.
#pragma once

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

// Parses a GUID or LID written as decimal or 0x-hex; throws on junk.
std::uint64_t parse_number(const std::string& text, const std::string& what);

}  // namespace psssp::sim
