// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Small helpers for the simulator's CSV and table output (JSON: cli/json_report.h).
#pragma once

#include <cstdint>
#include <string>

namespace psssp::sim {

std::string csv_number(double v);  // shortest round-trip form ("%.17g"), null if not finite
std::string csv_field(const std::string& s);  // quoted when it holds , " or newline
std::string hex_guid(std::uint64_t guid);     // "0x0002c90000000001"
bool stderr_is_tty();

}  // namespace psssp::sim
