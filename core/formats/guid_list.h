// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// GUID list files as OpenSM reads them (cn_guid_file, root_guid_file, ...):
// one hexadecimal GUID per line, "0x" optional, blank lines and # comments
// ignored.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "fabric/fabric.h"

namespace psssp {

// Throws InputError (file:line) on a malformed line.
std::vector<Guid> parse_guid_list(std::string_view content, const std::string& source);
std::vector<Guid> read_guid_list(const std::string& path);

}  // namespace psssp
