// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// psssp-sim route's engine flags, made from the engine's option table
// (engine/engine_options.h): the same parsers, ranges and help as the
// plugin's event_plugin_options words.
#pragma once

#include <CLI/CLI.hpp>

#include "engine/engine_options.h"

namespace psssp::sim {

// Adds a flag for every table row that has one, applying it to `options`.
void add_engine_flags(CLI::App& cmd, engine::EngineOptions& options);

}  // namespace psssp::sim
