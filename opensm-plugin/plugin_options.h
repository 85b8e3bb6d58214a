// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The psssp engine's options, as admins write them in opensm.conf's
// event_plugin_options: space- or comma-separated `key` or `key=value`.
#pragma once

#include <string>

#include "routing/incremental/incremental.h"
#include "routing/psssp_routing.h"

namespace psssp {

struct PluginOptions {
  RoutingOptions routing;
  std::string guid_file;  // read at every sweep, so edits apply on re-sweep
  // Deadlock-free mode: spread routes over up to `vls` virtual layers, each
  // acyclic, used as SL = VL = layer. 0 = off.
  unsigned vls = 0;
  // Re-sweeps start from the switches' current tables (routing/incremental.h).
  bool incremental = true;
  IncrementalOptions incremental_options;
  // Who fills the switches' hop tables (OpenSM's "LID matrices", used by
  // multicast routing and the dumps): psssp's BFS or OpenSM's own min-hop
  // step. Both give identical tables; psssp's is faster.
  enum class LidMatrices { psssp, opensm };
  LidMatrices lid_matrices = LidMatrices::psssp;
};

// Throws std::invalid_argument naming the offending option.
PluginOptions parse_plugin_options(const std::string& text);
// The effective options, one line, for the OpenSM log.
std::string describe(const PluginOptions& options);

}  // namespace psssp
