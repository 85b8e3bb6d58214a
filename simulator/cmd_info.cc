// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// psssp-sim info FABRIC [--lids FILE] [--json]: what a fabric file holds.
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <string>

#include "cli/command_line.h"
#include "cli/json_report.h"
#include "commands.h"
#include "fabric_input.h"
#include "formats/fabric_io.h"

namespace psssp::sim {
namespace {

struct InfoOptions {
  FabricInput input;
  bool json = false;
};

struct Counts {
  std::size_t cas = 0, routers = 0, cables = 0, unhealthy = 0;
  std::map<std::string, std::size_t> by_rate;
  Lid min_lid = 0;
};

Counts count(const Fabric& fabric) {
  Counts c;
  for (NodeId id = 0; id < fabric.node_count(); ++id) {
    const Node& n = fabric.node(id);
    if (n.type == NodeType::ca) ++c.cas;
    if (n.type == NodeType::router) ++c.routers;
    for (PortNum p = 1; p <= n.num_ports(); ++p) {
      const Port& port = n.ports[p];
      if (!port.connected()) continue;
      // Count each cable once, from its lower end.
      if (port.remote.node < id || (port.remote.node == id && port.remote.port < p)) continue;
      ++c.cables;
      if (!port.healthy) ++c.unhealthy;
      ++c.by_rate[port.rate.to_string()];
    }
  }
  for (Lid lid = 1; lid <= fabric.max_lid() && !c.min_lid; ++lid)
    if (fabric.port_of_lid(lid).valid()) c.min_lid = lid;
  return c;
}

void print_text(const InfoOptions& o, const std::string& format, const Fabric& fabric,
                const Counts& c, const RateTransfer& rates) {
  std::printf("fabric:     %s (%s)\n", o.input.path.c_str(), format.c_str());
  if (!o.input.lids.empty()) std::printf("lids from:  %s\n", o.input.lids.c_str());
  if (!o.input.rates.empty())
    std::printf("rates from: %s (%zu cables matched, %zu at another rate there, %zu not found)\n",
                o.input.rates.c_str(), rates.matched, rates.changed, rates.unmatched);
  std::printf("switches:   %zu\n", fabric.switches().size());
  std::printf("CAs:        %zu\n", c.cas);
  if (c.routers) std::printf("routers:    %zu\n", c.routers);
  std::printf("host ports: %zu\n", fabric.host_ports().size());
  std::printf("cables:     %zu", c.cables);
  if (c.unhealthy) std::printf(" (%zu down)", c.unhealthy);
  std::printf("\n");
  for (const auto& [rate, n] : c.by_rate) std::printf("  %-10s %zu\n", rate.c_str(), n);
  if (c.min_lid)
    std::printf("LIDs:       %u..%u\n", static_cast<unsigned>(c.min_lid),
                static_cast<unsigned>(fabric.max_lid()));
  else
    std::printf("LIDs:       none\n");
  std::printf("warnings:   %zu\n", fabric.warnings.size());
  for (const std::string& w : fabric.warnings) std::printf("  %s\n", w.c_str());
}

void print_json(const InfoOptions& o, const std::string& format, const Fabric& fabric,
                const Counts& c, const RateTransfer& rates) {
  cli::Json report = cli::json_report();
  report["fabric"] = o.input.path;
  report["format"] = format;
  report["lids_from"] = o.input.lids.empty() ? cli::Json() : cli::Json(o.input.lids);
  report["rates_from"] = o.input.rates.empty() ? cli::Json()
                                               : cli::Json{{"file", o.input.rates},
                                                           {"matched", rates.matched},
                                                           {"changed", rates.changed},
                                                           {"unmatched", rates.unmatched}};
  report["switches"] = fabric.switches().size();
  report["cas"] = c.cas;
  report["routers"] = c.routers;
  report["host_ports"] = fabric.host_ports().size();
  report["cables"] = {{"total", c.cables}, {"down", c.unhealthy}, {"by_rate", c.by_rate}};
  report["lids"] =
      c.min_lid ? cli::Json{{"min", c.min_lid}, {"max", fabric.max_lid()}} : cli::Json();
  report["warnings"] = fabric.warnings;
  cli::write_json(std::cout, report);
}

int info(const InfoOptions& o) {
  // info shows what the files hold, so LIDs missing from --lids are a warning here.
  const std::string content = read_fabric_file(o.input.path);
  const std::string format(format_name(detect_fabric_format(content, o.input.path)));
  Fabric fabric = parse_fabric(content, o.input.path);
  if (!o.input.lids.empty()) apply_lid_file(fabric, o.input.lids);
  const RateTransfer rates = apply_rate_file(fabric, o.input);
  apply_names(fabric, o.input);
  const Counts counts = count(fabric);
  if (o.json)
    print_json(o, format, fabric, counts, rates);
  else
    print_text(o, format, fabric, counts, rates);
  return cli::kExitOk;
}

void define_options(CLI::App& cmd, InfoOptions& o) {
  add_fabric_input(cmd, o.input);
  cmd.add_flag("--json", o.json, "one JSON object instead of text");
}

}  // namespace

Command add_info(CLI::App& app) {
  auto o = std::make_shared<InfoOptions>();
  CLI::App* cmd = cli::add_subcommand(app, "info", "print what a fabric file holds",
                                      [o](CLI::App& c) { define_options(c, *o); });
  return {cmd, [o] { return info(*o); }};
}

}  // namespace psssp::sim
