// psssp-topo's command line, parsed, and the fabric it asks for. Shared by
// main.cc and the tests that rebuild a captured fabric from its arguments.
#pragma once

#include <string>
#include <vector>

#include "builder.h"
#include "params.h"
#include "topology_spec.h"

namespace psssp::topo {

struct CliOptions {
  std::string family;
  Params params;  // family options, and --seed
  std::string output = "-";
  std::string roots, torus_conf;
  double fail = 0.0;
  BuildOptions build;
};

// Arguments after the program name; throws std::invalid_argument.
CliOptions parse_cli(const std::vector<std::string>& args);

struct Generated {
  TopologySpec spec;
  Fabric fabric;
  std::size_t removed = 0;  // cables taken out by --fail
};

// Generates, builds and applies --fail.
Generated generate_fabric(CliOptions& options);

}  // namespace psssp::topo
