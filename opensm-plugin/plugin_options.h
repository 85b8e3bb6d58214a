// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The psssp engine's options, as admins write them in opensm.conf's
// event_plugin_options: space- or comma-separated `key` or `key=value`,
// read through the engine's option table (engine/engine_options.h).
#pragma once

#include <string>

#include "engine/engine_options.h"

namespace psssp {

using PluginOptions = engine::EngineOptions;

// Throws std::invalid_argument naming the offending option.
PluginOptions parse_plugin_options(const std::string& text);
// The effective options, one line, for the OpenSM log.
std::string describe(const PluginOptions& options);

}  // namespace psssp
