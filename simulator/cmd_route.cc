// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// psssp-sim route FABRIC -o LFTS: P-SSSP forwarding tables for a fabric file,
// written in opensm-lfts.dump format (OpenSM loads it with -R file -U).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/command_line.h"
#include "cli/json_report.h"
#include "cli/output_files.h"
#include "commands.h"
#include "deadlock/deadlock_free_routing.h"
#include "fabric/canonical_order.h"
#include "fabric_input.h"
#include "formats/fabric_io.h"
#include "formats/guid_list.h"
#include "formats/ibdmchk_writer.h"
#include "formats/layer_table_io.h"
#include "formats/lft_io.h"
#include "routing/incremental/incremental.h"
#include "routing/option_names.h"
#include "routing/psssp_routing.h"

namespace psssp::sim {
namespace {

constexpr const char* kDescription =
    "Computes P-SSSP routes (one load-weighted shortest-path search per destination\n"
    "LID) and writes them as an opensm-lfts.dump file. Summary on stderr, or with\n"
    "--json as one JSON object on standard output.";

struct RouteOptions {
  FabricInput input;
  std::string output, guid_file;
  std::string previous, reference;  // incremental re-routing (routing/incremental.h)
  unsigned vls = 0;                 // deadlock-free mode: virtual layers, as the plugin's vls=N
  std::string layers_out;           // the layer table the plugin would program
  std::string ibdmchk_out;          // prefix of the files for ibdmchk
  bool json = false;
  RoutingOptions routing;
  IncrementalOptions incremental;
};

// An option value from option_names.h, or UsageError listing the accepted words.
template <typename Parse, typename Choices>
auto parse_choice(const std::string& opt, const std::string& word, Parse parse, Choices choices) {
  const auto value = parse(word);
  if (!value) throw cli::UsageError(opt + " is " + choices() + ", not '" + word + "'");
  return *value;
}

void parse_affinity(const std::string& v, RoutingOptions& options) {
  char* end = nullptr;
  const double source = std::strtod(v.c_str(), &end);
  const char* rest = end;
  const double root = *rest == ',' ? std::strtod(rest + 1, &end) : -1.0;
  if (*rest != ',' || *end != '\0' || end == rest + 1 || !(source >= 0.0) || !(root >= 0.0) ||
      source > 1e6 || root > 1e6)
    throw cli::UsageError("--affinity is SOURCE,ROOT (two numbers >= 0), not '" + v + "'");
  options.source_affinity = source;
  options.root_affinity = root;
}

// Load over the switch-to-switch channels.
struct LinkLoad {
  std::size_t links = 0;
  double max = 0.0, mean = 0.0;
};

LinkLoad switch_link_load(const Fabric& fabric, const RoutingResult& r) {
  LinkLoad load;
  double sum = 0.0;
  for (ChannelId c = 0; c < r.channel_load.size(); ++c) {
    const PortRef ref = fabric.channel_port(c);
    const Node& node = fabric.node(ref.node);
    if (!node.is_switch() || ref.port == 0) continue;
    const Port& port = node.ports[ref.port];
    if (!port.usable() || !fabric.node(port.remote.node).is_switch()) continue;
    load.max = std::max(load.max, r.channel_load[c]);
    sum += r.channel_load[c];
    ++load.links;
  }
  load.mean = load.links ? sum / static_cast<double>(load.links) : 0.0;
  return load;
}

// The candidates' estimated eBB, those that were tried (a negative
// estimate: not a candidate), for the text summary and the JSON report.
struct Estimate {
  const char* text;
  const char* key;
  double value;
};
std::vector<Estimate> estimates(const RoutingResult& r) {
  const Estimate all[] = {
      {"switches", "switches", r.estimate_switches},
      {"interleaved", "interleaved", r.estimate_interleaved},
      {"interleaved with port-order ties", "port_order", r.estimate_port_order},
      {"switches with loose port-order ties", "loose_ties", r.estimate_loose_ties},
      {"tree layout", "tree_layout", r.estimate_tree_layout},
      {"tree layout round robin", "tree_layout_round_robin", r.estimate_tree_layout_round_robin}};
  std::vector<Estimate> tried;
  for (const Estimate& e : all)
    if (e.value >= 0.0) tried.push_back(e);
  return tried;
}

void print_summary(const Fabric& fabric, const RoutingResult& r, const std::string& output) {
  const LinkLoad load = switch_link_load(fabric, r);
  std::fprintf(
      stderr,
      "psssp-sim route: %zu switches, LIDs up to %zu, routed in %.3f s; switch links: %zu, "
      "routes per link max %.0f mean %.1f; %zu unreachable; wrote %s\n",
      fabric.switches().size(), static_cast<std::size_t>(fabric.max_lid()), r.seconds, load.links,
      load.max, load.mean, r.unreachable.size(), output.c_str());
  std::fprintf(stderr, "  %s effort, %u refinement pass%s%s; order %s",
               r.full_effort ? "full" : "fast", r.refine_passes_run,
               r.refine_passes_run == 1 ? "" : "es",
               r.converged ? " (converged: the last changed no table)" : "", order_name(r.order));
  if (r.tie_break == RoutingOptions::TieBreak::first)
    std::fprintf(stderr, ", %sties to the lowest port", r.tie_slack > 0.0 ? "loose " : "");
  if (r.tree_layout != RoutingResult::TreeLayout::off)
    std::fprintf(stderr, "; tree layout%s",
                 r.tree_layout == RoutingResult::TreeLayout::round_robin ? ", round robin" : "");
  if (r.capacity_weights) std::fprintf(stderr, "; load weighed by capacity");
  const char* sep = " (estimated eBB: ";
  for (const Estimate& e : estimates(r)) {
    std::fprintf(stderr, "%s%s %.4f", sep, e.text, e.value);
    sep = ", ";
  }
  if (*sep == ',') std::fprintf(stderr, ")");
  std::fprintf(stderr, "\n");
  const std::size_t shown = std::min<std::size_t>(r.unreachable.size(), 5);
  for (std::size_t i = 0; i < shown; ++i)
    std::fprintf(stderr, "  unreachable: %s\n", r.unreachable[i].c_str());
  if (shown < r.unreachable.size())
    std::fprintf(stderr, "  ... and %zu more\n", r.unreachable.size() - shown);
}

void print_json(const RouteOptions& o, const Fabric& fabric, const RoutingResult& r,
                const cli::Json& layers) {
  const LinkLoad load = switch_link_load(fabric, r);
  cli::Json report = cli::json_report();
  report["fabric"] = o.input.path;
  report["output"] = o.output;
  report["switches"] = fabric.switches().size();
  report["max_lid"] = fabric.max_lid();
  report["seconds"] = r.seconds;
  report["switch_links"] = {
      {"links", load.links}, {"max_routes", load.max}, {"mean_routes", load.mean}};
  report["unreachable"] = r.unreachable;
  report["effort"] = r.full_effort ? "full" : "fast";
  report["refine_passes"] = r.refine_passes_run;
  report["converged"] = r.converged;
  report["order"] = order_name(r.order);
  report["tie_break"] = tie_break_name(r.tie_break);
  report["tie_slack"] = r.tie_slack;
  report["capacity_weights"] = r.capacity_weights;
  report["tree_layout"] = r.tree_layout == RoutingResult::TreeLayout::off ? "off"
                          : r.tree_layout == RoutingResult::TreeLayout::round_robin
                              ? "round_robin"
                              : "leaf_by_leaf";
  if (!o.previous.empty())
    report["incremental"] = {{"used", r.incremental.used},
                             {"full_reason", r.incremental.reason},
                             {"entries", r.incremental.entries},
                             {"kept", r.incremental.kept},
                             {"repaired", r.incremental.repaired},
                             {"restored", r.incremental.restored},
                             {"rebalanced", r.incremental.rebalanced}};
  cli::Json estimated;  // null unless candidates were compared
  for (const Estimate& e : estimates(r)) estimated[e.key] = e.value;
  report["estimated_ebb"] = estimated;
  cli::Json judged;  // null unless candidates were judged on the structured patterns
  for (const auto& [name, value] : r.pattern_estimates) judged[name] = value;
  report["estimated_patterns"] = judged;
  report["passed_over_bisect_choice"] = r.passed_over_bisect_choice;
  report["layers"] = layers;
  cli::write_json(std::cout, report);
}

int route(RouteOptions& o) {
  cli::OutputFiles outputs;
  if (o.json) outputs.claim_stdout("--json");
  std::ostream& out = outputs.open(o.output, "-o");
  // Route in node-GUID order, as the OpenSM plugin does, so both give the same tables.
  const Fabric fabric = sorted_by_guid(load_fabric(o.input));
  if (!o.guid_file.empty()) o.routing.guid_list = read_guid_list(o.guid_file);

  RoutingResult result;
  if (o.previous.empty()) {
    result = route_psssp(fabric, o.routing);
  } else {
    // As the plugin on a re-sweep: the switches' current tables, and
    // optionally the last full routing that moved entries return to.
    const ForwardingTables previous = read_lfts(o.previous, fabric);
    if (o.reference.empty()) {
      result = route_psssp_incremental(fabric, previous, o.routing, o.incremental);
    } else {
      const ForwardingTables reference = read_lfts(o.reference, fabric);
      result = route_psssp_incremental(fabric, previous, o.routing, o.incremental, &reference);
    }
  }
  deadlock::LayerAssignment layers;
  std::string fallback;
  if (o.vls) {
    deadlock::LayerOptions lo;
    lo.max_layers = o.vls;
    lo.threads = o.routing.threads;
    // LayerError when no routing tried fits; else perhaps another routing.
    deadlock::DeadlockFreeRouting d =
        deadlock::layer_or_reroute(fabric, std::move(result), o.routing, lo);
    result = std::move(d.routing);
    layers = std::move(d.layers);
    fallback = std::move(d.fallback);
    if (!o.layers_out.empty())
      write_layer_table(outputs.open(o.layers_out, "--layers-out"), fabric, layers.table);
    if (!o.ibdmchk_out.empty()) {
      write_ibdmchk_path_sls(outputs.open(o.ibdmchk_out + "path-sl.ibdmchk", "--ibdmchk-out"),
                             fabric, layers.table);
      write_ibdmchk_sl2vl(outputs.open(o.ibdmchk_out + "sl2vl.ibdmchk", "--ibdmchk-out"), fabric,
                          o.vls);
      write_ibdmchk_fdbs(outputs.open(o.ibdmchk_out + "fdbs.ibdmchk", "--ibdmchk-out"), fabric,
                         result.lfts);
    }
  }
  write_lfts(out, fabric, result.lfts);
  if (o.json) {
    cli::Json report;
    if (o.vls)
      report = {{"needed", layers.layers_needed},
                {"used", layers.layers_used},
                {"seconds", layers.seconds},
                {"output", o.layers_out},
                {"fallback", fallback}};
    print_json(o, fabric, result, report);
    outputs.commit();
  } else {
    outputs.commit();
    print_summary(fabric, result, o.output);  // "wrote FILE" once it is written
    if (o.vls) {
      if (!fallback.empty()) std::fprintf(stderr, "  %s\n", fallback.c_str());
      std::fprintf(stderr, "  routes need %u virtual layers, spread over %u, in %.3f s%s%s\n",
                   layers.layers_needed, layers.layers_used, layers.seconds,
                   o.layers_out.empty() ? "" : "; table in ", o.layers_out.c_str());
    }
  }
  return cli::kExitOk;
}

void define_options(CLI::App& cmd, RouteOptions& o) {
  RoutingOptions& r = o.routing;
  cmd.footer(kDescription);
  add_fabric_input(cmd, o.input);
  cmd.add_option("-o,--output", o.output,
                 "where to write the tables (opensm-lfts.dump format, loads\n"
                 "with opensm -R file -U LFTS); - is standard output")
      ->required()
      ->type_name("LFTS");
  cmd.add_flag("--json", o.json, "the summary as one JSON object on standard output");
  cmd.add_flag_function(
      "--nonminimal", [&r](std::int64_t) { r.minimal = false; },
      "allow paths longer than the shortest");
  cli::add_uint(cmd, "--max-extra-hops", r.max_extra_hops,
                "with --nonminimal: at most N hops longer (default 2)", 0, 1000000);
  cmd.add_flag_function(
      "--capacity", [&r](std::int64_t) { r.capacity = RoutingOptions::Capacity::on; },
      "weigh link load by link capacity, also when all switch cables have one rate\n"
      "(default: exactly when they mix rates)");
  cmd.add_flag_function(
      "--no-capacity", [&r](std::int64_t) { r.capacity = RoutingOptions::Capacity::off; },
      "count routes only, also where the switch cables mix rates");
  cmd.add_flag_function(
      "--switch-load", [&r](std::int64_t) { r.switch_lids_load = true; },
      "routes to switch LIDs add load too");
  CLI::Option* guid_file =
      cmd.add_option("--guid-file", o.guid_file, "port GUIDs (cn_guid_file format)")
          ->type_name("FILE");
  cmd.add_option_function<std::string>(
         "--guid-mode",
         [&r](const std::string& mode) {
           if (mode == "priority")
             r.guid_list_mode = RoutingOptions::GuidListMode::priority;
           else if (mode == "only")
             r.guid_list_mode = RoutingOptions::GuidListMode::only;
           else
             throw cli::UsageError("--guid-mode is priority or only, not '" + mode + "'");
         },
         "priority (default): route the listed ports first;\n"
         "only: only their traffic adds load")
      ->type_name("M")
      ->needs(guid_file);
  cmd.add_flag_callback(
      "--bisect-choice", [&r] { r.judge_patterns = false; },
      "order auto: judge the candidates on random bisections alone (no structured patterns, "
      "no tree layout on two-level trees)");
  cli::add_uint(cmd, "--refine", r.refine_passes,
                "rip-up-and-reroute passes, at most (default 8; stops at a\n"
                "pass that changes no table)",
                0, 1000000);
  cmd.add_option_function<std::string>(
         "--effort",
         [&r](const std::string& word) {
           r.effort = parse_choice("--effort", word, parse_effort, effort_choices);
         },
         "full: endpoint affinity and all refinement passes; fast:\n"
         "neither, one refinement pass keeping ties; auto\n"
         "(default): full up to about 1000 hosts (2e6\n"
         "shortest-path edges per pass)")
      ->type_name("E");
  cmd.add_option_function<std::string>(
         "--affinity", [&r](const std::string& v) { parse_affinity(v, r); },
         "endpoint-affinity strengths (default 3,1; 0,0 = off)")
      ->type_name("S,R");
  cmd.add_option_function<std::string>(
         "--order",
         [&r](const std::string& word) {
           r.order = parse_choice("--order", word, parse_order, order_choices);
         },
         "destination order: switches (all LIDs of a switch in a\n"
         "row), interleaved (round robin over switches), lid, or\n"
         "auto (default): switches, and with full effort also\n"
         "interleaved, and interleaved with ties to the lowest port,\n"
         "keeping the highest estimated eBB (switches unless another\n"
         "is 0.2% better); with fast effort on a direct network\n"
         "(hosts on every switch) switches and the port-order one,\n"
         "which must be 0.5% better")
      ->type_name("O");
  CLI::Option* vls =
      cli::add_uint(cmd, "--vls", o.vls,
                    "deadlock-free mode, as the plugin's vls=N: spread the routes over\n"
                    "at most N virtual layers (SLs), each free of credit loops; when\n"
                    "the routes need more, routes again in port order, then with full\n"
                    "effort, and fails when none fits",
                    1, 16);
  cmd.add_option("--layers-out", o.layers_out,
                 "with --vls: write the layer table the plugin would program\n"
                 "(its psssp-layers.dump; psssp-sim check --deadlock --layers FILE)")
      ->type_name("FILE")
      ->needs(vls);
  cmd.add_option("--ibdmchk-out", o.ibdmchk_out,
                 "with --vls: write PREFIXpath-sl.ibdmchk, PREFIXsl2vl.ibdmchk and\n"
                 "PREFIXfdbs.ibdmchk for ibdmchk -c, -d and -f (with OpenSM's\n"
                 "opensm-subnet.lst of the same LIDs as -s)")
      ->type_name("PREFIX")
      ->needs(vls);
  cli::add_threads(cmd, r.threads, "worker threads; the tables do not depend on it");
  CLI::Option* previous =
      cmd.add_option("--previous", o.previous,
                     "re-route incrementally from these tables (any LFT dump of this\n"
                     "fabric, e.g. dump_fts): keep every entry whose path still reaches\n"
                     "its LID over live cables, repair the others, rebalance a little; a\n"
                     "full routing if more than 5% lost their next hop")
          ->type_name("LFTS");
  cmd.add_option("--reference", o.reference,
                 "with --previous: the last full routing; entries that differ from\n"
                 "it go back to it where that hop is live and the path delivers")
      ->type_name("LFTS")
      ->needs(previous);
  cmd.add_option_function<std::string>(
         "--rebalance",
         [&o](const std::string& word) {
           if (!parse_rebalance(word, o.incremental))
             throw cli::UsageError("--rebalance is " + rebalance_choices() + ", not '" + word +
                                   "'");
         },
         "with --previous: entries the rebalancing may move: auto (after a\n"
         "fault at most 2 changes per entry that lost its hop, all\n"
         "together), off, N entries, or Kx (K changes per entry lost)")
      ->type_name("auto|off|N|Kx")
      ->needs(previous);
}

}  // namespace

Command add_route(CLI::App& app) {
  auto o = std::make_shared<RouteOptions>();
  CLI::App* cmd = cli::add_subcommand(app, "route", "compute P-SSSP forwarding tables",
                                      [o](CLI::App& c) { define_options(c, *o); });
  return {cmd, [o] { return route(*o); }};
}

}  // namespace psssp::sim
