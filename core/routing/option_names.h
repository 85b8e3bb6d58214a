// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Names of routing option values, shared by psssp-sim route and the plugin
// options, so both accept, print and list the same words (one table each).
#pragma once

#include <optional>
#include <string>

#include "psssp_routing.h"

namespace psssp {

// "auto", "full" or "fast"; nullopt for anything else.
std::optional<RoutingOptions::Effort> parse_effort(const std::string& name);
const char* effort_name(RoutingOptions::Effort effort);
// "auto", "switches", "interleaved" or "lid"; nullopt for anything else.
std::optional<RoutingOptions::Order> parse_order(const std::string& name);
const char* order_name(RoutingOptions::Order order);
// "path", "first" or "dmodk" (printed only: not an option).
const char* tie_break_name(RoutingOptions::TieBreak tie_break);

// The accepted words for error messages: "'auto', 'full' or 'fast'".
std::string effort_choices();
std::string order_choices();

}  // namespace psssp
