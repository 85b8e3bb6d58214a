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
    const engine::EngineOption* row = engine::find_option_key(key);
    if (!row)
      throw std::invalid_argument("unknown option '" + token +
                                  "' (known: " + engine::plugin_option_synopsis() + ")");
    if (!row->value_name && has_value)
      throw std::invalid_argument("option '" + key + "' takes no value");
    if (row->value_name && !row->value_optional && (!has_value || value.empty()))
      throw std::invalid_argument("option '" + key + "' needs a value (" + key + "=...)");
    try {
      row->set(o, *row, value);
    } catch (const engine::OptionValueError& e) {
      throw std::invalid_argument("option '" + key + "' " + e.what());
    }
  }
  engine::check_option_combination(o);
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
  if (o.vls && !o.vls_all_routes) out << " vls_scope=hosts";
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
