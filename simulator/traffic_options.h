// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The flows psssp-sim score and bound draw: which hosts, which pattern, the
// ranks' mapping, the LMC destination and the seed. Both commands take them
// with the same flags, so a bound is always on the flows score scored.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace psssp::sim {

struct TrafficOptions {
  std::string pattern = "bisect", grid, mapping, lmc_path = "first";
  std::string hosts_regex, hosts_file;
  std::uint64_t seed = 1;
};

// --pattern, --seed, --hosts-regex, --hosts-file, --lmc-path, --mapping and
// --grid (not --runs: the commands' defaults differ).
void add_traffic_options(CLI::App& cmd, TrafficOptions& o);

}  // namespace psssp::sim
