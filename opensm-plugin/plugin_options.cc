// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "plugin_options.h"

#include <cctype>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "routing/option_names.h"

namespace psssp {
namespace {

std::vector<std::string> split_tokens(const std::string& text) {
  std::vector<std::string> tokens;
  std::string current;
  for (const char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
      if (!current.empty()) tokens.push_back(std::move(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) tokens.push_back(std::move(current));
  return tokens;
}

unsigned parse_count(const std::string& key, const std::string& value, unsigned lo, unsigned hi) {
  const auto n = parse_whole_number(value, hi);
  if (!n || *n < lo)
    throw std::invalid_argument("option '" + key + "' needs a whole number in " +
                                std::to_string(lo) + ".." + std::to_string(hi) + ", got '" + value +
                                "'");
  return static_cast<unsigned>(*n);
}

// event_plugin_options is one line for every event plugin. Words of the
// form "name:word" belong to the plugin `name`; "psssp:" words are ours.
// Once any word carries "psssp:", unprefixed words belong to other plugins;
// without one, unprefixed words are ours (the line holds only ours).
std::vector<std::string> own_tokens(const std::string& text) {
  const std::vector<std::string> all = split_tokens(text);
  auto prefix_end = [](const std::string& token) {
    const auto colon = token.find(':');
    const auto eq = token.find('=');
    return colon != std::string::npos && (eq == std::string::npos || colon < eq)
               ? colon
               : std::string::npos;
  };
  bool prefixed = false;
  for (const std::string& token : all)
    if (token.compare(0, 6, "psssp:") == 0) prefixed = true;
  std::vector<std::string> own;
  for (const std::string& token : all) {
    const auto end = prefix_end(token);
    if (end == std::string::npos) {
      if (!prefixed) own.push_back(token);
    } else if (token.compare(0, end, "psssp") == 0) {
      if (end + 1 == token.size())
        throw std::invalid_argument("option 'psssp:' has no word after the prefix");
      own.push_back(token.substr(end + 1));
    }
  }
  return own;
}

}  // namespace

PluginOptions parse_plugin_options(const std::string& text) {
  PluginOptions o;
  for (const std::string& token : own_tokens(text)) {
    const auto eq = token.find('=');
    const std::string key = token.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : token.substr(eq + 1);
    const bool has_value = eq != std::string::npos;
    auto flag = [&]() {
      if (has_value) throw std::invalid_argument("option '" + key + "' takes no value");
    };
    auto need = [&]() {
      if (!has_value || value.empty())
        throw std::invalid_argument("option '" + key + "' needs a value (" + key + "=...)");
    };
    if (key == "minimal") {
      flag();
      o.routing.minimal = true;
    } else if (key == "nonminimal") {
      flag();
      o.routing.minimal = false;
    } else if (key == "max_extra_hops") {
      need();
      o.routing.max_extra_hops = parse_count(key, value, 0, 64);
    } else if (key == "capacity") {
      // A bare "capacity" forces it on, as before there was an automatic mode.
      using Capacity = RoutingOptions::Capacity;
      if (!has_value || value == "on")
        o.routing.capacity = Capacity::on;
      else if (value == "off")
        o.routing.capacity = Capacity::off;
      else if (value == "auto")
        o.routing.capacity = Capacity::automatic;
      else
        throw std::invalid_argument("option 'capacity' is 'auto', 'on' or 'off', got '" + value +
                                    "'");
    } else if (key == "switch_load") {
      flag();
      o.routing.switch_lids_load = true;
    } else if (key == "threads") {
      need();
      o.routing.threads = parse_count(key, value, 0, 256);
    } else if (key == "effort") {
      need();
      const auto effort = parse_effort(value);
      if (!effort)
        throw std::invalid_argument("option 'effort' is " + effort_choices() + ", got '" + value +
                                    "'");
      o.routing.effort = *effort;
    } else if (key == "vls") {
      need();
      o.vls = parse_count(key, value, 1, 15);
    } else if (key == "incremental") {
      need();
      if (value != "on" && value != "off")
        throw std::invalid_argument("option 'incremental' is 'on' or 'off', got '" + value + "'");
      o.incremental = value == "on";
    } else if (key == "rebalance") {
      need();
      if (!parse_rebalance(value, o.incremental_options))
        throw std::invalid_argument("option 'rebalance' is " + rebalance_choices() + ", got '" +
                                    value + "'");
    } else if (key == "full_reroute_above") {
      need();
      o.incremental_options.full_above = parse_count(key, value, 0, 100) / 100.0;
    } else if (key == "lid_matrices") {
      need();
      if (value == "psssp")
        o.lid_matrices = PluginOptions::LidMatrices::psssp;
      else if (value == "opensm")
        o.lid_matrices = PluginOptions::LidMatrices::opensm;
      else
        throw std::invalid_argument("option 'lid_matrices' is 'psssp' or 'opensm', got '" + value +
                                    "'");
    } else if (key == "guid_file") {
      need();
      o.guid_file = value;
    } else if (key == "guid_mode") {
      need();
      if (value == "priority")
        o.routing.guid_list_mode = RoutingOptions::GuidListMode::priority;
      else if (value == "only")
        o.routing.guid_list_mode = RoutingOptions::GuidListMode::only;
      else
        throw std::invalid_argument("option 'guid_mode' is 'priority' or 'only', got '" + value +
                                    "'");
    } else {
      throw std::invalid_argument(
          "unknown option '" + token +
          "' (known: minimal nonminimal max_extra_hops=N capacity[=auto|on|off] switch_load "
          "threads=N "
          "effort=auto|full|fast vls=N incremental=on|off rebalance=auto|off|N|Kx "
          "full_reroute_above=PERCENT lid_matrices=psssp|opensm guid_file=PATH "
          "guid_mode=priority|only)");
    }
  }
  if (o.routing.guid_list_mode == RoutingOptions::GuidListMode::only && o.guid_file.empty())
    throw std::invalid_argument(
        "option 'guid_mode=only' needs guid_file=PATH (the ports that are the only sources and "
        "destinations of load)");
  return o;
}

std::string describe(const PluginOptions& o) {
  std::ostringstream out;
  out << (o.routing.minimal ? "minimal" : "nonminimal");
  if (!o.routing.minimal) out << " max_extra_hops=" << o.routing.max_extra_hops;
  if (o.routing.capacity == RoutingOptions::Capacity::on) out << " capacity";
  if (o.routing.capacity == RoutingOptions::Capacity::off) out << " capacity=off";
  if (o.routing.switch_lids_load) out << " switch_load";
  out << " threads=" << o.routing.threads;
  if (o.routing.effort != RoutingOptions::Effort::automatic)
    out << " effort=" << effort_name(o.routing.effort);
  if (o.vls) out << " vls=" << o.vls;
  if (!o.incremental) out << " incremental=off";
  if (o.incremental && rebalance_name(o.incremental_options) != "auto")
    out << " rebalance=" << rebalance_name(o.incremental_options);
  if (o.incremental && o.incremental_options.full_above != IncrementalOptions{}.full_above)
    out << " full_reroute_above=" << o.incremental_options.full_above * 100.0;
  if (o.lid_matrices == PluginOptions::LidMatrices::opensm) out << " lid_matrices=opensm";
  if (!o.guid_file.empty())
    out << " guid_file=" << o.guid_file << " guid_mode="
        << (o.routing.guid_list_mode == RoutingOptions::GuidListMode::only ? "only" : "priority");
  return out.str();
}

}  // namespace psssp
