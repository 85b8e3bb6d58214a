// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Reader of SL files: the SL per (source LID, destination LID), e.g. what
// path records hand out. Text format, one route per line:
//   # comment (also after the fields)
//   SLID DLID SL
// LIDs 1..0xBFFF and SL 0..15, each decimal or 0x-prefixed hexadecimal.
// Routes not listed use the default SL (0). A pair listed twice with
// different SLs is an error. Files listing their routes in ascending
// (SLID, DLID) order, each once (the psssp_pathsl plugin's dump), are taken
// as they are; others are sorted. Throws InputError(file:line).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "fabric/sl_file.h"

namespace psssp {

SlFile parse_sl_file(std::string_view content, const std::string& source,
                     std::uint8_t default_sl = 0);
SlFile read_sl_file(const std::string& path, std::uint8_t default_sl = 0);

}  // namespace psssp
