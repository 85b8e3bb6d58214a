// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// `psssp-sim check --deadlock`: the credit-loop check of the routes, with SLs
// from an SL file or the engine's layer table and VLs from opensm-sl2vl.dump.
#pragma once

#include <string>

#include "cli/json_report.h"
#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"

namespace psssp::sim {

struct DeadlockInputs {
  std::string sl_file;       // "SLID DLID SL" lines
  std::string layer_table;   // psssp-layers file written by the engine
  std::string sl2vl_dump;    // opensm-sl2vl.dump; identity when empty
  bool hosts_scope = false;  // --deadlock-scope hosts: host-to-host routes set the verdict;
                             // false (all, the default): all routes
};

// Both scopes are checked: host-to-host routes, and all routes (switch LIDs
// as sources and destinations too); deadlock_free is the one of the scope
// that sets the exit status.
struct DeadlockOutcome {
  bool deadlock_free = true;
  std::string text;  // human-readable lines, newline-terminated
  cli::Json json;    // an object
};

// Throws InputError on unreadable SL/VL inputs.
DeadlockOutcome check_credit_loops(const Fabric& fabric, const ForwardingTables& lfts,
                                   const DeadlockInputs& inputs);

}  // namespace psssp::sim
