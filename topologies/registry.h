// The families psssp-topo knows, by name, with their options.
#pragma once

#include <string>
#include <vector>

#include "params.h"
#include "topology_spec.h"

namespace psssp::topo {

struct FamilyInfo {
  const char* name;
  const char* options;  // for --help
  TopologySpec (*make)(Params&);
};

const std::vector<FamilyInfo>& families();

// Generates `family` from its options; throws std::invalid_argument on an
// unknown family, unknown option or bad value.
TopologySpec generate(const std::string& family, Params& params);

}  // namespace psssp::topo
