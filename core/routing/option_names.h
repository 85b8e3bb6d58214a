// Names of routing option values, shared by psssp-sim route and the plugin
// options, so both accept and print the same words.
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

}  // namespace psssp
