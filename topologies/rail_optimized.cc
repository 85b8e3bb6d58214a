// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Rail-optimised two-level tree, as GPU clusters are built: HCA r of every
// server of a scalable unit sits on that unit's rail-r leaf, so the ranks
// of one server are spread over the unit's leaves. Switches: the leaves
// su<u>-rail<r> (unit by unit), then spine-0 ...; a leaf's ports are its
// hosts (server order), then its uplinks spine by spine.
#include <stdexcept>
#include <string>

#include "builder.h"
#include "families.h"

namespace psssp::topo {

TopologySpec rail_optimized(unsigned units, unsigned servers, unsigned hcas, unsigned spines,
                            unsigned cables) {
  if (units == 0 || servers == 0 || hcas == 0 || spines == 0 || cables == 0)
    throw std::invalid_argument(
        "rail-optimized: --units, --servers, --hcas, --spines and --cables must be positive");
  if (servers > kMaxSwitchPorts)
    throw std::invalid_argument("rail-optimized: " + std::to_string(servers) +
                                " servers need more ports than a leaf has (" +
                                std::to_string(kMaxSwitchPorts) + ")");
  if (std::size_t{units} * hcas + spines > 100000)
    throw std::invalid_argument("rail-optimized: more than 100000 switches");
  const std::size_t total = std::size_t{units} * servers;
  std::size_t digits = 3;
  for (std::size_t n = total; n >= 1000; n /= 10) ++digits;
  TopologySpec spec;
  spec.family = "rail-optimized";
  for (unsigned u = 0; u < units; ++u)
    for (unsigned r = 0; r < hcas; ++r) {
      spec.switches.push_back({"su" + std::to_string(u) + "-rail" + std::to_string(r), servers, 0});
      std::vector<std::string>& described = spec.host_descriptions.emplace_back();
      for (unsigned i = 0; i < servers; ++i) {
        std::string number = std::to_string(std::size_t{u} * servers + i + 1);
        number.insert(0, digits - number.size(), '0');
        described.push_back("node" + number + " mlx5_" + std::to_string(r));
      }
    }
  const std::size_t first_spine = spec.switches.size();
  for (unsigned s = 0; s < spines; ++s) {
    spec.roots.push_back(spec.switches.size());
    spec.switches.push_back({"spine-" + std::to_string(s), 0, 0});
  }
  for (std::size_t l = 0; l < first_spine; ++l)
    for (unsigned s = 0; s < spines; ++s)
      for (unsigned c = 0; c < cables; ++c) spec.cables.push_back({l, first_spine + s, 0, 0});
  return spec;
}

}  // namespace psssp::topo
