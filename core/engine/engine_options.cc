// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "engine_options.h"

#include <cstdlib>

#include "routing/option_names.h"

namespace psssp::engine {
namespace {

using Row = EngineOption;

[[noreturn]] void bad(const std::string& wanted, const std::string& value) {
  throw OptionValueError(wanted + ", got '" + value + "'");
}

unsigned whole_number(const Row& row, const std::string& value) {
  const auto n = parse_whole_number(value, row.max);
  if (!n || *n < row.min)
    bad("needs a whole number in " + std::to_string(row.min) + ".." + std::to_string(row.max),
        value);
  return static_cast<unsigned>(*n);
}

void set_capacity(EngineOptions& o, const Row&, const std::string& value) {
  using Capacity = RoutingOptions::Capacity;
  if (value.empty() || value == "on")
    o.routing.capacity = Capacity::on;
  else if (value == "off")
    o.routing.capacity = Capacity::off;
  else if (value == "auto")
    o.routing.capacity = Capacity::automatic;
  else
    bad("is 'auto', 'on' or 'off'", value);
}

void set_guid_mode(EngineOptions& o, const Row&, const std::string& value) {
  if (value == "priority")
    o.routing.guid_list_mode = RoutingOptions::GuidListMode::priority;
  else if (value == "only")
    o.routing.guid_list_mode = RoutingOptions::GuidListMode::only;
  else
    bad("is 'priority' or 'only'", value);
}

void set_affinity(EngineOptions& o, const Row&, const std::string& value) {
  char* end = nullptr;
  const double source = std::strtod(value.c_str(), &end);
  const char* rest = end;
  const double root = *rest == ',' ? std::strtod(rest + 1, &end) : -1.0;
  if (*rest != ',' || *end != '\0' || end == rest + 1 || !(source >= 0.0) || !(root >= 0.0) ||
      source > 1e6 || root > 1e6)
    bad("is SOURCE,ROOT (two numbers >= 0)", value);
  o.routing.source_affinity = source;
  o.routing.root_affinity = root;
}

// clang-format off
const std::vector<EngineOption> kTable = {
  {"minimal", nullptr, nullptr, nullptr, false, 0, 0, "on",
   "balance load only among minimal-hop paths",
   [](EngineOptions& o, const Row&, const std::string&) { o.routing.minimal = true; }},
  {"nonminimal", "--nonminimal", nullptr, nullptr, false, 0, 0, "off",
   "allow paths longer than the shortest where they are less loaded",
   [](EngineOptions& o, const Row&, const std::string&) { o.routing.minimal = false; }},
  {"max_extra_hops", "--max-extra-hops", "N", nullptr, false, 0, 64, "2",
   "nonminimal: paths at most N hops longer than the shortest",
   [](EngineOptions& o, const Row& r, const std::string& v) {
     o.routing.max_extra_hops = whole_number(r, v); }},
  {"capacity", "--capacity", "auto|on|off", "on", true, 0, 0, "auto",
   "weigh link load by link capacity; auto: exactly when the switch cables mix rates",
   set_capacity},
  {nullptr, "--no-capacity", nullptr, "off", false, 0, 0, nullptr,
   "count routes only, also where the switch cables mix rates", set_capacity},
  {"switch_load", "--switch-load", nullptr, nullptr, false, 0, 0, "off",
   "routes to switch LIDs add load too",
   [](EngineOptions& o, const Row&, const std::string&) { o.routing.switch_lids_load = true; }},
  {"threads", "--threads", "N", nullptr, false, 0, kMaxThreads, "0",
   "routing threads, 0 = one per core; the tables do not depend on it",
   [](EngineOptions& o, const Row& r, const std::string& v) {
     o.routing.threads = whole_number(r, v); }},
  {"effort", "--effort", "auto|full|fast", nullptr, false, 0, 0, "auto",
   "full: endpoint affinity and all refinement passes; fast: neither; auto: full up to "
   "about 1000 hosts",
   [](EngineOptions& o, const Row&, const std::string& v) {
     const auto effort = parse_effort(v);
     if (!effort) bad("is " + effort_choices(), v);
     o.routing.effort = *effort; }},
  {"vls", "--vls", "N", nullptr, false, 1, kMaxVirtualLayers, "off",
   "deadlock-free mode: spread the routes over at most N virtual layers, each free of "
   "credit loops",
   [](EngineOptions& o, const Row& r, const std::string& v) { o.vls = whole_number(r, v); }},
  {"vls_scope", "--vls-scope", "all|hosts", nullptr, false, 0, 0, "all",
   "with vls: the routes the layers cover: all (also from switches without hosts, where "
   "they fit) or hosts",
   [](EngineOptions& o, const Row&, const std::string& v) {
     if (v != "all" && v != "hosts") bad("is 'all' or 'hosts'", v);
     o.vls_all_routes = v == "all"; }},
  {"incremental", nullptr, "on|off", nullptr, false, 0, 0, "on",
   "re-sweeps start from the switches' tables",
   [](EngineOptions& o, const Row&, const std::string& v) {
     if (v != "on" && v != "off") bad("is 'on' or 'off'", v);
     o.incremental = v == "on"; }},
  {"rebalance", "--rebalance", "auto|off|N|Kx", nullptr, false, 0, 0, "auto",
   "incremental: entries the rebalancing may move after the repair",
   [](EngineOptions& o, const Row&, const std::string& v) {
     if (!parse_rebalance(v, o.incremental_options)) bad("is " + rebalance_choices(), v); }},
  {"full_reroute_above", "--full-reroute-above", "PERCENT", nullptr, false, 0, 100, "5",
   "incremental: a full routing when more than PERCENT of the entries lost their next hop",
   [](EngineOptions& o, const Row& r, const std::string& v) {
     o.incremental_options.full_above = whole_number(r, v) / 100.0; }},
  {"lid_matrices", nullptr, "psssp|opensm", nullptr, false, 0, 0, "psssp",
   "who builds OpenSM's hop tables",
   [](EngineOptions& o, const Row&, const std::string& v) {
     if (v == "psssp") o.lid_matrices = EngineOptions::LidMatrices::psssp;
     else if (v == "opensm") o.lid_matrices = EngineOptions::LidMatrices::opensm;
     else bad("is 'psssp' or 'opensm'", v); }},
  {"guid_file", "--guid-file", "PATH", nullptr, false, 0, 0, nullptr,
   "port GUIDs (cn_guid_file format) routed first, or the only load",
   [](EngineOptions& o, const Row&, const std::string& v) { o.guid_file = v; }},
  {"guid_mode", "--guid-mode", "priority|only", nullptr, false, 0, 0, "priority",
   "with a GUID file: route its ports first (priority) or let only their traffic add load",
   set_guid_mode},
  {nullptr, "--refine", "N", nullptr, false, 0, 1000000, "8",
   "rip-up-and-reroute passes, at most; stops at a pass that changes no table",
   [](EngineOptions& o, const Row& r, const std::string& v) {
     o.routing.refine_passes = whole_number(r, v); }},
  {nullptr, "--affinity", "S,R", nullptr, false, 0, 0, "3,1",
   "endpoint-affinity strengths (0,0 = off)", set_affinity},
  {nullptr, "--order", "auto|switches|interleaved|lid", nullptr, false, 0, 0, "auto",
   "destination order; auto routes the candidates and keeps the best estimated",
   [](EngineOptions& o, const Row&, const std::string& v) {
     const auto order = parse_order(v);
     if (!order) bad("is " + order_choices(), v);
     o.routing.order = *order; }},
  {nullptr, "--bisect-choice", nullptr, nullptr, false, 0, 0, "off",
   "order auto: judge the candidates on random bisections alone",
   [](EngineOptions& o, const Row&, const std::string&) { o.routing.judge_patterns = false; }},
};
// clang-format on

}  // namespace

const std::vector<EngineOption>& engine_option_table() { return kTable; }

const EngineOption* find_option_key(const std::string& key) {
  for (const EngineOption& row : kTable)
    if (row.key && key == row.key) return &row;
  return nullptr;
}

const EngineOption* find_option_flag(const std::string& flag) {
  for (const EngineOption& row : kTable)
    if (row.flag && flag == row.flag) return &row;
  return nullptr;
}

void check_option_combination(const EngineOptions& o) {
  if (o.routing.guid_list_mode == RoutingOptions::GuidListMode::only && o.guid_file.empty())
    throw std::invalid_argument(
        "option 'guid_mode=only' needs guid_file=PATH (the ports that are the only sources and "
        "destinations of load)");
}

std::string plugin_option_synopsis() {
  std::string words;
  for (const EngineOption& row : kTable) {
    if (!row.key) continue;
    if (!words.empty()) words += ' ';
    words += row.key;
    if (row.value_name)
      words += std::string(row.value_optional ? "[=" : "=") + row.value_name +
               (row.value_optional ? "]" : "");
  }
  return words;
}

}  // namespace psssp::engine
