// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Names of routing option values, shared by psssp-sim route and the plugin
// options, so both accept, print and list the same words (one table each).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "psssp_routing.h"
#include "routing/incremental/incremental.h"

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

// Digits only (std::from_chars: no sign, no spaces, no hex), at most `most`;
// nullopt otherwise. The plugin's options and the words below use it.
std::optional<std::uint64_t> parse_whole_number(const std::string& text, std::uint64_t most);

// The incremental mode's rebalancing: "auto", "off", N (entries moved after
// the repair, up to 100000000) or "Kx" (K = 1..1000: after a fault at most
// K changes per entry that lost its hop; "auto" is "2x"). Sets
// out.rebalance and out.changes_per_lost; false (out unchanged) for
// anything else.
bool parse_rebalance(const std::string& word, IncrementalOptions& out);
// The word that parses back to the same setting ("auto" for the default).
std::string rebalance_name(const IncrementalOptions& options);
std::string rebalance_choices();

}  // namespace psssp
