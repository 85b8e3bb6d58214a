// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The families psssp-topo knows, by name, with their options.
#pragma once

#include <string>
#include <vector>

#include "params.h"
#include "topology_spec.h"

namespace psssp::topo {

struct FamilyInfo {
  const char* name;
  const char* options;            // for --help: the options with their defaults
  std::vector<const char*> keys;  // every option make() reads, without "--" (not --seed)
  TopologySpec (*make)(Params&);
};

const std::vector<FamilyInfo>& families();

// Generates `family` from its options; throws std::invalid_argument on an
// unknown family, unknown option or bad value.
TopologySpec generate(const std::string& family, Params& params);

}  // namespace psssp::topo
