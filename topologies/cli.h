// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// psssp-topo's command line, parsed, and the fabric it asks for. Shared by
// main.cc and the tests that rebuild a captured fabric from its arguments.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "builder.h"
#include "params.h"
#include "topology_spec.h"

namespace CLI {
class App;  // <CLI/CLI.hpp>: only cli.cc and the tests compile CLI11
}

namespace psssp::topo {

struct CliOptions {
  std::string family;
  Params params;  // family options, and --seed
  std::string output = "-";
  std::string roots, torus_conf;
  double fail = 0.0;
  double degrade = 0.0;                   // fraction of cables at degraded_rate
  std::optional<LinkRate> degraded_rate;  // default: 1x at the speed of build.rate
  bool json = false;
  BuildOptions build;
};

// Registers the global options and one subcommand per family on `app`.
void add_options(CLI::App& app, CliOptions& options);

// Sets options.family from the subcommand `app` parsed.
void finish_parse(const CLI::App& app, CliOptions& options);

// Arguments after the program name; throws CLI::ParseError or
// std::invalid_argument.
CliOptions parse_cli(const std::vector<std::string>& args);

// psssp-topo's main: parses the command line and runs `generate` on the
// options, with cli::run's exit statuses (help, usage errors, failures).
int run_command_line(int argc, char** argv, const std::function<int(CliOptions&)>& generate);

struct Generated {
  TopologySpec spec;
  Fabric fabric;
  std::size_t removed = 0;   // cables taken out by --fail
  std::size_t degraded = 0;  // cables slowed down by --degrade
};

// Generates, builds, applies --fail, then --degrade.
Generated generate_fabric(CliOptions& options);

}  // namespace psssp::topo
