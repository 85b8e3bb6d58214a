// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Dragonfly+ (Shpiner et al., 2017): groups of leaf/spine two-level trees,
// spines joined to the other groups by global cables.
//
// Ports (fixed slots after the hosts): a leaf's slot s+1 goes to spine s; a
// spine's slot l+1 to leaf l, slots leaves+1 .. leaves+global_links are its
// global ports. Global port j of a group is spine j / global_links, slot
// leaves + 1 + j % global_links; the m-th cable of the group pair at offset
// o (1 .. groups-1) is port o-1 + m*(groups-1) on the lower group's side and
// port groups-o-1 + m*(groups-1) on the other's.
#include <stdexcept>

#include "families.h"

namespace psssp::topo {

TopologySpec dragonfly_plus(unsigned groups, unsigned leaves, unsigned spines,
                            unsigned hosts_per_leaf, unsigned global_links) {
  if (groups == 0 || leaves == 0 || spines == 0 || global_links == 0)
    throw std::invalid_argument(
        "dragonfly-plus: --groups, --leaves, --spines and --global-links must be positive");
  const std::size_t ports = std::size_t{spines} * global_links;  // global ports per group
  if (groups > ports + 1)
    throw std::invalid_argument("dragonfly-plus: " + std::to_string(groups) + " groups need " +
                                std::to_string(groups - 1) +
                                " global ports per group, more than the " + std::to_string(ports) +
                                " of --spines x --global-links");
  if (std::size_t{groups} * (leaves + spines) > 100000)
    throw std::invalid_argument("dragonfly-plus: more than 100000 switches");
  TopologySpec spec;
  spec.family = "dragonfly-plus";
  const std::size_t per_group = std::size_t{leaves} + spines;
  auto leaf = [&](std::size_t g, std::size_t l) { return g * per_group + l; };
  auto spine = [&](std::size_t g, std::size_t s) { return g * per_group + leaves + s; };
  for (std::size_t g = 0; g < groups; ++g) {
    const std::string prefix = "g" + std::to_string(g) + "-";
    for (unsigned l = 0; l < leaves; ++l)
      spec.switches.push_back({prefix + "leaf" + std::to_string(l), hosts_per_leaf, spines});
    for (unsigned s = 0; s < spines; ++s) {
      spec.switches.push_back({prefix + "spine" + std::to_string(s), 0, leaves + global_links});
      spec.roots.push_back(spine(g, s));
    }
  }
  for (std::size_t g = 0; g < groups; ++g)
    for (unsigned l = 0; l < leaves; ++l)
      for (unsigned s = 0; s < spines; ++s)
        spec.cables.push_back({leaf(g, l), spine(g, s), s + 1, l + 1});
  if (groups < 2) return spec;
  const std::size_t others = groups - 1, per_pair = ports / others;
  auto end = [&](std::size_t g, std::size_t j) {
    return std::make_pair(spine(g, j / global_links),
                          static_cast<unsigned>(leaves + 1 + j % global_links));
  };
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t o = 1; o < groups; ++o) {
      const std::size_t t = (g + o) % groups;
      if (t < g) continue;  // created from the other side
      for (std::size_t m = 0; m < per_pair; ++m) {
        const auto [a, a_slot] = end(g, o - 1 + m * others);
        const auto [b, b_slot] = end(t, groups - o - 1 + m * others);
        spec.cables.push_back({a, b, a_slot, b_slot});
      }
    }
  return spec;
}

}  // namespace psssp::topo
