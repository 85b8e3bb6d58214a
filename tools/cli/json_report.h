// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// JSON reports (--json): nlohmann::ordered_json keeps fields in the order
// they are set, and every report starts with the tools' version.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>

namespace psssp::cli {

using Json = nlohmann::ordered_json;

// {"version": "X.Y.Z"}, to which a command adds its fields.
Json json_report();

// The report as one line; bytes that are not UTF-8 (a node description from
// a file) become U+FFFD instead of failing.
void write_json(std::ostream& out, const Json& report);

}  // namespace psssp::cli
