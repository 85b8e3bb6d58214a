// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// psssp-sim convert FABRIC -o NET: a captured fabric as an ibsim net file, so
// that ibsim replays the machine that was captured: the same GUIDs, node
// descriptions and cables, each at its own width and speed. ibsim brings a
// raw capture up at other rates where the two ends of a cable disagree (it
// sets both ends from one end's PortInfo), so replays go through here.
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/command_line.h"
#include "cli/json_report.h"
#include "cli/output_files.h"
#include "commands.h"
#include "dot_writer.h"
#include "fabric/tree_roots.h"
#include "fabric_input.h"
#include "formats/fabric_io.h"
#include "link_table.h"
#include "output_util.h"

namespace psssp::sim {
namespace {

struct ConvertOptions {
  FabricInput input;
  std::string output = "-";
  std::string format = "net";            // net (ibsim) or dot (Graphviz switch graph)
  std::string link_csv, routing, title;  // dot: loads per cable
  std::string roots;                     // root GUID file for OpenSM's ftree/updn; empty: none
  bool json = false;
};

std::size_t total(const NetWriteReport& report) {
  std::size_t n = 0;
  for (const auto& [what, count] : report.substituted) n += count;
  return n;
}

int convert(const ConvertOptions& o) {
  const Fabric fabric = load_fabric(o.input, false);
  cli::OutputFiles outputs;
  if (o.json) outputs.claim_stdout("--json");
  if (o.format != "dot" && !(o.link_csv.empty() && o.routing.empty() && o.title.empty()))
    throw cli::UsageError("--link-csv, --routing and --title need --format dot");
  if (!o.routing.empty() && o.link_csv.empty()) throw cli::UsageError("--routing needs --link-csv");
  LinkLoads loads;
  if (!o.link_csv.empty()) loads = read_link_loads(read_file(o.link_csv), o.link_csv, o.routing);
  std::ostream& net = outputs.open(o.output, "-o");
  std::ostream* roots_out = o.roots.empty() ? nullptr : &outputs.open(o.roots, "--roots");
  NetWriteReport report;
  if (o.format == "dot")
    write_fabric_dot(net, fabric, DotOptions{o.title, o.link_csv.empty() ? nullptr : &loads});
  else
    report = write_ibsim_net(net, fabric);
  const std::vector<NodeId> roots = updown_roots(fabric);
  if (roots_out)
    for (NodeId id : roots) *roots_out << hex_guid(fabric.node(id).guid) << '\n';
  // Never silent: a replay at other rates scores another fabric.
  for (const auto& [what, count] : report.substituted)
    std::fprintf(stderr, "psssp-sim convert: warning: %s: %zu cables %s (ibsim has no such rate)\n",
                 o.input.path.c_str(), count, what.c_str());
  if (o.json) {
    cli::Json json = cli::json_report();
    json["fabric"] = o.input.path;
    json["output"] = o.output;
    json["cables_at_other_rates"] = total(report);
    json["substituted"] = report.substituted;
    json["roots"] = roots.size();
    cli::write_json(std::cout, json);
  }
  outputs.commit();
  return cli::kExitOk;
}

void define_options(CLI::App& cmd, ConvertOptions& o) {
  add_fabric_input(cmd, o.input);
  cmd.add_option("-o,--output", o.output, "the output file (default -, standard output)");
  cmd.add_option("--format", o.format,
                 "net: an ibsim net file (default); dot: the switch graph for\n"
                 "Graphviz, one edge per cable (render: dot -Tpng FILE)")
      ->check(CLI::IsMember({"net", "dot"}))
      ->type_name("F");
  cmd.add_option("--link-csv", o.link_csv,
                 "dot: colour and size cables by load, from a --link-csv of\n"
                 "psssp-sim score (mean_flows) or check (routes)")
      ->type_name("F");
  cmd.add_option("--routing", o.routing,
                 "dot: which routing of a score --link-csv (default: its first)")
      ->type_name("NAME");
  cmd.add_option("--title", o.title, "dot: the graph's label")->type_name("TEXT");
  cmd.add_option("--roots", o.roots,
                 "write the fat-tree root switches' GUIDs to FILE (OpenSM's root_guid_file); "
                 "empty if the fabric is no tree")
      ->type_name("FILE");
  cmd.add_flag("--json", o.json,
               "a JSON summary on standard output (needs -o FILE): cables written at "
               "another rate");
}

}  // namespace

Command add_convert(CLI::App& app) {
  auto o = std::make_shared<ConvertOptions>();
  CLI::App* cmd = cli::add_subcommand(
      app, "convert", "write a fabric as an ibsim net file (rates kept) or a Graphviz graph",
      [o](CLI::App& c) { define_options(c, *o); });
  return {cmd, [o] { return convert(*o); }};
}

}  // namespace psssp::sim
