// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// psssp-sim route FABRIC -o LFTS: P-SSSP forwarding tables for a fabric file,
// written in opensm-lfts.dump format (OpenSM loads it with -R file -U).
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/command_line.h"
#include "cli/json_report.h"
#include "cli/output_files.h"
#include "commands.h"
#include "engine/engine.h"
#include "engine_flags.h"
#include "fabric/canonical_order.h"
#include "fabric_input.h"
#include "formats/fabric_io.h"
#include "formats/ibdmchk_writer.h"
#include "formats/layer_table_io.h"
#include "formats/lft_io.h"
#include "routing/option_names.h"

namespace psssp::sim {
namespace {

constexpr const char* kRouteDescription =
    "Computes P-SSSP routes (one load-weighted shortest-path search per destination\n"
    "LID) and writes them as an opensm-lfts.dump file. Summary on stderr, or with\n"
    "--json as one JSON object on standard output.";

struct RouteOptions {
  FabricInput input;
  std::string output;
  std::string previous, reference;  // incremental re-routing (routing/incremental.h)
  std::string layers_out;           // with vls: the layer table the plugin would program
  std::string ibdmchk_out;          // with vls: prefix of the files for ibdmchk
  bool json = false;
  engine::EngineOptions engine;  // the flags of the engine's option table
};

void print_summary(const Fabric& fabric, const engine::EngineRun& run, const std::string& output) {
  const RoutingResult& r = run.routing;
  const engine::SwitchLinkLoad& load = run.switch_links;
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
  std::fprintf(stderr, "%s", engine::choice_notes(r).c_str());
  const char* sep = " (estimated eBB: ";
  for (const RoutingResult::CandidateEstimate& e : r.estimates) {
    std::fprintf(stderr, "%s%s %.4f", sep, candidate_text(e.candidate), e.bisect);
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

void print_json(const RouteOptions& o, const Fabric& fabric, const engine::EngineRun& run) {
  const RoutingResult& r = run.routing;
  const engine::SwitchLinkLoad& load = run.switch_links;
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
  report["neighbour_window"] = r.neighbour_window;
  report["pattern_moves"] = r.pattern_moves;
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
  for (const RoutingResult::CandidateEstimate& e : r.estimates)
    estimated[candidate_key(e.candidate)] = e.bisect;
  report["estimated_ebb"] = estimated;
  cli::Json judged;  // null unless candidates were judged on the structured patterns
  for (const auto& [name, value] : r.pattern_estimates) judged[name] = value;
  report["estimated_patterns"] = judged;
  cli::Json candidates_judged;  // null unless judged: every candidate's estimates
  for (const RoutingResult::CandidateEstimate& e : r.estimates)
    for (std::size_t p = 0; p < e.patterns.size() && p < r.pattern_estimates.size(); ++p)
      candidates_judged[candidate_key(e.candidate)][r.pattern_estimates[p].first] = e.patterns[p];
  report["estimated_candidate_patterns"] = candidates_judged;
  report["passed_over_bisect_choice"] = r.passed_over_bisect_choice;
  cli::Json layers;  // null without --vls
  if (o.engine.vls)
    layers = {{"needed", run.layers.layers_needed},
              {"used", run.layers.layers_used},
              {"seconds", run.layers.seconds},
              {"output", o.layers_out},
              {"fallback", run.layers_fallback}};
  report["layers"] = layers;
  cli::write_json(std::cout, report);
}

// The layer table and ibdmchk's files, where asked for.
void write_layer_files(const RouteOptions& o, cli::OutputFiles& outputs, const Fabric& fabric,
                       const engine::EngineRun& run) {
  if (!o.layers_out.empty())
    write_layer_table(outputs.open(o.layers_out, "--layers-out"), fabric, run.layers.table);
  if (o.ibdmchk_out.empty()) return;
  write_ibdmchk_path_sls(outputs.open(o.ibdmchk_out + "path-sl.ibdmchk", "--ibdmchk-out"), fabric,
                         run.layers.table);
  write_ibdmchk_sl2vl(outputs.open(o.ibdmchk_out + "sl2vl.ibdmchk", "--ibdmchk-out"), fabric,
                      o.engine.vls);
  write_ibdmchk_fdbs(outputs.open(o.ibdmchk_out + "fdbs.ibdmchk", "--ibdmchk-out"), fabric,
                     run.routing.lfts);
}

int route(RouteOptions& o) {
  cli::OutputFiles outputs;
  if (o.json) outputs.claim_stdout("--json");
  std::ostream& out = outputs.open(o.output, "-o");
  // Route in node-GUID order, as the OpenSM plugin does, so both give the same tables.
  const Fabric fabric = sorted_by_guid(load_fabric(o.input));
  // As the plugin on a re-sweep: the switches' current tables, and
  // optionally the last full routing that moved entries return to.
  ForwardingTables previous, reference;
  engine::RouteInputs inputs;
  if (!o.previous.empty()) {
    previous = read_lfts(o.previous, fabric);
    inputs.previous = &previous;
  }
  if (!o.reference.empty()) {
    reference = read_lfts(o.reference, fabric);
    inputs.reference = &reference;
  }
  const engine::EngineRun run = engine::run_engine(fabric, o.engine, inputs);
  if (o.engine.vls) write_layer_files(o, outputs, fabric, run);
  write_lfts(out, fabric, run.routing.lfts);
  if (o.json) {
    print_json(o, fabric, run);
    outputs.commit();
  } else {
    outputs.commit();
    print_summary(fabric, run, o.output);  // "wrote FILE" once it is written
    if (o.engine.vls) {
      if (!run.layers_fallback.empty()) std::fprintf(stderr, "  %s\n", run.layers_fallback.c_str());
      std::fprintf(stderr, "  routes need %u virtual layers, spread over %u, in %.3f s%s%s\n",
                   run.layers.layers_needed, run.layers.layers_used, run.layers.seconds,
                   o.layers_out.empty() ? "" : "; table in ", o.layers_out.c_str());
    }
  }
  return cli::kExitOk;
}

void define_options(CLI::App& cmd, RouteOptions& o) {
  cmd.footer(kRouteDescription);
  add_fabric_input(cmd, o.input);
  cmd.add_option("-o,--output", o.output,
                 "where to write the tables (opensm-lfts.dump format, loads\n"
                 "with opensm -R file -U LFTS); - is standard output")
      ->required()
      ->type_name("LFTS");
  cmd.add_flag("--json", o.json, "the summary as one JSON object on standard output");
  add_engine_flags(cmd, o.engine);
  CLI::Option* vls = cmd.get_option("--vls");
  cmd.get_option("--vls-scope")->needs(vls);
  cmd.get_option("--guid-mode")->needs(cmd.get_option("--guid-file"));
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
  for (const char* flag : {"--rebalance", "--full-reroute-above"})
    cmd.get_option(flag)->needs(previous);
}

}  // namespace

Command add_route(CLI::App& app) {
  auto o = std::make_shared<RouteOptions>();
  CLI::App* cmd = cli::add_subcommand(app, "route", "compute P-SSSP forwarding tables",
                                      [o](CLI::App& c) { define_options(c, *o); });
  return {cmd, [o] { return route(*o); }};
}

}  // namespace psssp::sim
