// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Layer table file, written by write_layer_table and read back against the
// same fabric:
//   psssp-layers 1
//   layers L lids N
//   switch 0x<switch GUID> <N characters>
// One row per switch (ascending GUID; rows may be missing = all layer 0),
// character i is the layer for destination LID i as one hex digit 0-f, so N =
// max LID + 1. '#' starts a comment line. Throws InputError(file:line) on bad
// headers, unknown or repeated switches, wrong row lengths, layers >= L.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "fabric/fabric.h"
#include "fabric/layer_table.h"

namespace psssp {

void write_layer_table(std::ostream& out, const Fabric& fabric, const LayerTable& table);
LayerTable parse_layer_table(std::string_view content, const std::string& source,
                             const Fabric& fabric);
LayerTable read_layer_table(const std::string& path, const Fabric& fabric);

}  // namespace psssp
