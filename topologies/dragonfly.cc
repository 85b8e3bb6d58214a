// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Dragonfly (Kim et al. 2008) with the canonical "consecutive" global wiring:
// group G's j-th global link (router j/h, global port j%h) goes to group
// (G + j + 1) mod g, so every pair of the g = a*h+1 groups shares one cable.
#include <stdexcept>

#include "families.h"

namespace psssp::topo {

TopologySpec dragonfly(unsigned a, unsigned p, unsigned h) {
  if (a == 0 || h == 0) throw std::invalid_argument("dragonfly: a and h must be positive");
  const std::size_t groups = std::size_t{a} * h + 1;
  if (groups * a > 100000) throw std::invalid_argument("dragonfly: too many switches");
  TopologySpec spec;
  spec.family = "dragonfly";
  // Port slots: 1..a-1 local (to the other routers by rank), a..a+h-1 global.
  for (std::size_t g = 0; g < groups; ++g)
    for (unsigned r = 0; r < a; ++r)
      spec.switches.push_back({"g" + std::to_string(g) + "-r" + std::to_string(r), p, a - 1 + h});
  auto index = [a](std::size_t g, std::size_t r) { return g * a + r; };
  for (std::size_t g = 0; g < groups; ++g)
    for (unsigned r = 0; r < a; ++r)
      for (unsigned q = r + 1; q < a; ++q)
        spec.cables.push_back({index(g, r), index(g, q), q, r + 1});
  const std::size_t links = groups - 1;  // global links per group
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t j = 0; j < links; ++j) {
      const std::size_t t = (g + j + 1) % groups;
      if (t < g) continue;  // created from the other side
      const std::size_t back = groups - 2 - j;
      spec.cables.push_back({index(g, j / h), index(t, back / h), static_cast<unsigned>(a + j % h),
                             static_cast<unsigned>(a + back % h)});
    }
  return spec;
}

}  // namespace psssp::topo
