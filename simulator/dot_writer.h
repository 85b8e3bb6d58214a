// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// psssp-sim convert --format dot: the switch graph as a Graphviz file. One
// node per switch (its hosts counted, not drawn), one edge per switch-to-
// switch cable with its ports, rate and, given loads (a --link-csv of score
// or check), the load each way: colour (blue: idle .. red: the busiest
// cable) and pen width scale with the larger of the two. Fat trees get
// layout=dot with one rank per level, roots on top; other fabrics neato (up
// to 150 switches) or sfdp. Render with `dot -Tpng FILE` (the file's layout
// attribute picks the engine).
#pragma once

#include <iosfwd>
#include <string>

#include "fabric/fabric.h"
#include "link_table.h"

namespace psssp::sim {

struct DotOptions {
  std::string title;                 // graph label; empty: none
  const LinkLoads* loads = nullptr;  // per directed cable; null: no load attributes
};

void write_fabric_dot(std::ostream& out, const Fabric& fabric, const DotOptions& options);

}  // namespace psssp::sim
