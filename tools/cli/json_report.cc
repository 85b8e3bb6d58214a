// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "cli/json_report.h"

#include <ostream>

#include "psssp/version.h"

namespace psssp::cli {

Json json_report() { return Json{{"version", PSSSP_VERSION}}; }

void write_json(std::ostream& out, const Json& report) {
  out << report.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n';
}

}  // namespace psssp::cli
