// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// psssp-sim check FABRIC --routes DUMP: trace every host-to-host route.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "cli/command_line.h"
#include "cli/json_report.h"
#include "cli/output_files.h"
#include "commands.h"
#include "deadlock_option.h"
#include "dump_fts_gaps.h"
#include "fabric_input.h"
#include "formats/fabric_io.h"
#include "formats/lft_io.h"
#include "link_table.h"
#include "output_util.h"
#include "route_checker.h"

namespace psssp::sim {
namespace {

constexpr const char* kCheckDescription =
    "Traces every ordered pair of host ports (every LID of an LMC range) through the\n"
    "LFTs and reports black holes, loops, wrong deliveries, routes over down links or\n"
    "unconnected ports, path lengths and the edge forwarding index. Exit status 1 if\n"
    "any pair fails.";

struct CheckOptions {
  FabricInput input;
  std::string routes, same_as, link_csv;
  bool json = false, deadlock = false;
  std::size_t max_faults = 20;
  unsigned threads = 0;
  DeadlockInputs deadlock_inputs;
};

std::string channel_label(const Fabric& f, ChannelId c) {
  const PortRef p = f.channel_port(c);
  const PortRef r = f.port(p).remote;
  return describe_node(f, p.node) + " port " + std::to_string(p.port) + " -> " +
         describe_node(f, r.node) + " port " + std::to_string(r.port);
}

// One end of a directed link, as in the --link-csv of score.
cli::Json link_end(const Fabric& f, PortRef p) {
  const Node& n = f.node(p.node);
  return {{"node_guid", hex_guid(n.guid)},
          {"node", n.description.empty() ? n.name : n.description},
          {"port", p.port}};
}

void print_json(const CheckOptions& o, const Fabric& f, const CheckReport& r,
                const DumpFtsGaps& gaps, const DeadlockOutcome& loops, double seconds) {
  cli::Json report = cli::json_report();
  report["fabric"] = o.input.path;
  report["routes"] = o.routes;
  report["hosts"] = f.host_ports().size();
  report["pairs"] = r.pairs;
  report["delivered"] = r.delivered;
  report["ok"] = r.ok();
  cli::Json& failed = report["failed_pairs"] = cli::Json::object();
  for (int k = 1; k < kTraceStatusCount; ++k)
    failed[trace_status_key(static_cast<TraceStatus>(k))] = r.pairs_by_kind[k];
  report["fault_count"] = r.fault_count;
  cli::Json& faults = report["faults"] = cli::Json::array();
  for (const CheckFault& x : r.faults) {
    cli::Json fault = {{"kind", trace_status_key(x.kind)}, {"pairs", x.pairs}, {"dlid", x.dlid}};
    if (x.source_switch != kNoNode) {
      fault["source_switch_guid"] = hex_guid(f.node(x.source_switch).guid);
      fault["source_switch_lid"] = f.node(x.source_switch).ports[0].lid;
    }
    fault["source_port_guid"] = hex_guid(f.port(x.source).guid);
    fault["message"] = x.message;
    faults.push_back(std::move(fault));
  }
  if (!gaps.message.empty())
    report["dump_fts_dropped"] = {{"top_lid_entries", gaps.top_lid_entries},
                                  {"wide_switch_entries", gaps.wide_port_entries},
                                  {"pairs", gaps.pairs},
                                  {"message", gaps.message}};
  report["hops"] = {{"mean", r.mean_hops}, {"max", r.max_hops}, {"minimal_share", r.minimal_share}};
  cli::Json efi = {{"max", r.efi_max}, {"mean", r.efi_mean}, {"links", r.switch_channels}};
  // No busiest link when no host route crosses a switch cable (every host on
  // one switch): efi_max_channel names none then.
  if (r.switch_channels && r.efi_max) {
    const PortRef from = f.channel_port(r.efi_max_channel);
    efi["max_link"] = {{"from", link_end(f, from)}, {"to", link_end(f, f.port(from).remote)}};
  }
  report["edge_forwarding_index"] = std::move(efi);
  if (o.deadlock) report["deadlock"] = loops.json;
  report["seconds"] = seconds;
  cli::write_json(std::cout, report);
}

void print_text(const Fabric& f, const CheckReport& r, const DumpFtsGaps& gaps, double seconds) {
  std::printf("hosts: %zu   host pairs (per destination LID): %llu   traced in %.2f s\n",
              f.host_ports().size(), static_cast<unsigned long long>(r.pairs), seconds);
  if (r.ok()) {
    std::printf("all routes deliver\n");
  } else {
    std::printf("FAILED: %llu of %llu pairs do not deliver (%llu faulty traces)\n",
                static_cast<unsigned long long>(r.pairs - r.delivered),
                static_cast<unsigned long long>(r.pairs),
                static_cast<unsigned long long>(r.fault_count));
    for (int k = 1; k < kTraceStatusCount; ++k)
      if (r.pairs_by_kind[k])
        std::printf("  %-17s %llu pairs\n", trace_status_name(static_cast<TraceStatus>(k)),
                    static_cast<unsigned long long>(r.pairs_by_kind[k]));
    std::printf("first %zu faults:\n", r.faults.size());
    for (const CheckFault& x : r.faults)
      std::printf("  [%s] %s (%llu pairs)\n", trace_status_name(x.kind), x.message.c_str(),
                  static_cast<unsigned long long>(x.pairs));
    if (!gaps.message.empty()) std::printf("%s\n", gaps.message.c_str());
  }
  std::printf("switch hops: mean %.3f, max %u; shortest-path share %.4f\n", r.mean_hops, r.max_hops,
              r.minimal_share);
  std::printf(
      "edge forwarding index (routes per directed switch link, %zu links): max %llu, mean %.2f\n",
      r.switch_channels, static_cast<unsigned long long>(r.efi_max), r.efi_mean);
  if (r.switch_channels && r.efi_max)
    std::printf("  busiest: %s\n", channel_label(f, r.efi_max_channel).c_str());
}

// Empty when both tables agree on every switch and LID; else the first
// differences, one per line.
std::string table_differences(const Fabric& f, const ForwardingTables& a, const ForwardingTables& b,
                              const std::string& name_a, const std::string& name_b) {
  std::string out;
  std::size_t count = 0;
  const std::size_t lids = std::max(a.lid_count(), b.lid_count());
  for (const NodeId sw : f.switches()) {
    for (std::size_t lid = 1; lid < lids; ++lid) {
      const PortNum pa = lid < a.lid_count() ? a.get(sw, static_cast<Lid>(lid)) : kNoPath;
      const PortNum pb = lid < b.lid_count() ? b.get(sw, static_cast<Lid>(lid)) : kNoPath;
      if (pa == pb) continue;
      if (++count <= 10)
        out += "differs: " + describe_node(f, sw) + " LID " + std::to_string(lid) + ": port " +
               (pa == kNoPath ? std::string("none") : std::to_string(pa)) + " in " + name_a + ", " +
               (pb == kNoPath ? std::string("none") : std::to_string(pb)) + " in " + name_b + "\n";
    }
  }
  if (count > 10) out += "differs: " + std::to_string(count) + " entries in all\n";
  return out;
}

// Per directed cable the delivered routes over it (static: every host pair once).
void write_link_csv(std::ostream& out, const Fabric& f, const CheckReport& r) {
  out << "node_guid,node,port,remote_guid,remote,remote_port,gbps,routes,kind\n";
  for (ChannelId c = 0; c < f.channel_count(); ++c) {
    const PortRef p = f.channel_port(c);
    if (p.port == 0 || !f.port(p).connected()) continue;
    out << link_csv_ends(f, p) << ',' << r.channel_routes[c] << ',' << link_kind(f, p) << '\n';
  }
}

int check(const CheckOptions& o) {
  cli::OutputFiles outputs;
  outputs.claim_stdout(o.json ? "--json" : "the check report");
  std::ostream* link_csv_out =
      o.link_csv.empty() ? nullptr : &outputs.open(o.link_csv, "--link-csv");
  const auto t0 = std::chrono::steady_clock::now();
  const Fabric fabric = load_fabric(o.input);
  const ForwardingTables lfts = read_lfts(o.routes, fabric);
  const CheckReport report =
      check_routes(fabric, lfts, cli::resolve_threads(o.threads), o.max_faults);
  const DumpFtsGaps gaps = find_dump_fts_gaps(fabric, report, o.routes);
  std::string differences;
  if (!o.same_as.empty())
    differences =
        table_differences(fabric, lfts, read_lfts(o.same_as, fabric), o.routes, o.same_as);
  DeadlockOutcome loops;
  if (o.deadlock) loops = check_credit_loops(fabric, lfts, o.deadlock_inputs);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (link_csv_out) write_link_csv(*link_csv_out, fabric, report);
  if (o.json) {
    print_json(o, fabric, report, gaps, loops, seconds);
  } else {
    print_text(fabric, report, gaps, seconds);
    std::fputs(loops.text.c_str(), stdout);
  }
  if (!o.same_as.empty())
    std::fputs(differences.empty() ? "tables identical\n" : differences.c_str(),
               o.json ? stderr : stdout);
  outputs.commit();
  return report.ok() && loops.deadlock_free && differences.empty() ? cli::kExitOk
                                                                   : cli::kExitCheckFailed;
}

void define_options(CLI::App& cmd, CheckOptions& o) {
  cmd.footer(kCheckDescription);
  add_fabric_input(cmd, o.input);
  cmd.add_option("--routes", o.routes,
                 "LFT dump (opensm-lfts.dump, dump_fts or ibroute output, opensm.fdbs)")
      ->required()
      ->type_name("DUMP");
  cmd.add_flag("--json", o.json, "one JSON object instead of text");
  cli::add_uint(cmd, "--max-faults", o.max_faults,
                "faults listed in full (default 20; counts cover all)", 0, 1000000);
  cli::add_threads(cmd, o.threads, "worker threads");
  CLI::Option* deadlock =
      cmd.add_flag("--deadlock", o.deadlock,
                   "also check for credit loops (cyclic channel dependencies per VL);\n"
                   "exit status 1 and one concrete cycle if there is one");
  cmd.add_option_function<std::string>(
         "--deadlock-scope",
         [&o](const std::string& v) { o.deadlock_inputs.hosts_scope = v == "hosts"; },
         "which credit-loop verdict sets the exit status: all (switch LIDs\n"
         "too; the default) or hosts (host-to-host routes). Both are reported")
      ->check(CLI::IsMember({"hosts", "all"}))
      ->type_name("hosts|all")
      ->needs(deadlock);
  CLI::Option* sl_file =
      cmd.add_option("--sl-file", o.deadlock_inputs.sl_file,
                     "SL per route: \"SLID DLID SL\" lines (default: SL 0 everywhere)")
          ->type_name("F")
          ->needs(deadlock);
  cmd.add_option(
         "--layers", o.deadlock_inputs.layer_table,
         "SL per route from the psssp engine's layer table (psssp-layers[.0xPORTGUID].dump)")
      ->type_name("F")
      ->needs(deadlock)
      ->excludes(sl_file);
  cmd.add_option("--sl2vl", o.deadlock_inputs.sl2vl_dump,
                 "SL-to-VL maps from opensm-sl2vl.dump (default: identity)")
      ->type_name("F")
      ->needs(deadlock);
  cmd.add_option("--link-csv", o.link_csv,
                 "per directed cable (host cables too): the delivered routes over it")
      ->type_name("F");
  cmd.add_option("--same-as", o.same_as,
                 "also require DUMP2 (any LFT dump format) to hold the same\n"
                 "port for every switch and LID; lists the first differences")
      ->type_name("DUMP2");
}

}  // namespace

Command add_check(CLI::App& app) {
  auto o = std::make_shared<CheckOptions>();
  CLI::App* cmd = cli::add_subcommand(app, "check", "trace every host-to-host route through LFTs",
                                      [o](CLI::App& c) { define_options(c, *o); });
  return {cmd, [o] { return check(*o); }};
}

}  // namespace psssp::sim
