// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// psssp-topo: generates a topology family and writes it as an ibsim net file.
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include "cli.h"
#include "cli/conventions.h"
#include "cli/json_report.h"
#include "cli/output_files.h"
#include "formats/fabric_io.h"
#include "side_files.h"

namespace {

using namespace psssp;
using namespace psssp::topo;

int generate(CliOptions& options) {
  cli::OutputFiles outputs;
  if (options.json) outputs.claim_stdout("--json");
  std::ostream& net = outputs.open(options.output, "-o");
  std::ostream* roots = options.roots.empty() ? nullptr : &outputs.open(options.roots, "--roots");
  std::ostream* torus =
      options.torus_conf.empty() ? nullptr : &outputs.open(options.torus_conf, "--torus-conf");

  const Generated g = generate_fabric(options);
  // Side files first: they reject families they do not fit before anything is written.
  if (roots) write_root_guids(*roots, g.fabric, g.spec);
  if (torus) write_torus_conf(*torus, g.fabric, g.spec);
  const NetWriteReport written = write_ibsim_net(net, g.fabric);
  for (const auto& [what, count] : written.substituted)
    std::fprintf(stderr, "psssp-topo: warning: %zu cables %s (ibsim has no such rate)\n", count,
                 what.c_str());
  const std::size_t switches = g.fabric.switches().size();
  const std::size_t hosts = g.fabric.node_count() - switches;
  if (options.json) {
    cli::Json report = cli::json_report();
    report["family"] = options.family;
    report["output"] = options.output;
    report["switches"] = switches;
    report["hosts"] = hosts;
    report["removed_cables"] = g.removed;
    report["degraded_cables"] = g.degraded;
    cli::write_json(std::cout, report);
  }
  outputs.commit();
  if (!options.json) {
    std::cerr << options.family << ": " << switches << " switches, " << hosts << " hosts";
    if (g.removed) std::cerr << ", " << g.removed << " switch cables removed";
    std::cerr << '\n';
  }
  return cli::kExitOk;
}

}  // namespace

int main(int argc, char** argv) { return run_command_line(argc, argv, generate); }
