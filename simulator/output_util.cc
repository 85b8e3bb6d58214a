// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "output_util.h"

#include <unistd.h>

#include <cinttypes>
#include <cmath>
#include <cstdio>

namespace psssp::sim {

std::string csv_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (const char ch : s) {
    if (ch == '"') out += '"';
    out += ch;
  }
  return out + "\"";
}

std::string hex_guid(std::uint64_t guid) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, guid);
  return buf;
}

bool stderr_is_tty() { return isatty(STDERR_FILENO) != 0; }

}  // namespace psssp::sim
