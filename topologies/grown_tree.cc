// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// A two-level tree as sites grow them: leaves bought in two generations
// (radices), uneven host counts, a few leaves cabled with fewer uplinks, a
// few hosts on spines. Drawn from the seed in a fixed order (hosts per leaf,
// leaf by leaf; then the short leaves; then each spine host's spine), see
// rng.h for why the draws are spelled out.
#include <algorithm>
#include <stdexcept>

#include "families.h"
#include "rng.h"

namespace psssp::topo {
namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::invalid_argument("grown-tree: " + what);
}

}  // namespace

TopologySpec grown_tree(const GrownTreeParams& p) {
  if (p.leaves == 0 || p.spines == 0 || p.uplinks == 0 || p.short_uplinks == 0)
    fail("--leaves, --spines, --uplinks and --short-uplinks must be positive");
  if (p.min_hosts > p.max_hosts) fail("--min-hosts exceeds --max-hosts");
  if (p.short_leaves > p.leaves) fail("--short-leaves exceeds --leaves");
  if (std::size_t{p.leaves} + p.spines > 100000) fail("more than 100000 switches");
  const unsigned most_uplinks = std::max(p.uplinks, p.short_uplinks);
  for (const unsigned radix : {p.old_radix, p.new_radix})
    if (radix <= most_uplinks)
      fail("a leaf of " + std::to_string(radix) + " ports has no room for hosts beside " +
           std::to_string(most_uplinks) + " uplinks");
  Rng rng(p.seed);
  TopologySpec spec;
  spec.family = "grown-tree";
  std::vector<unsigned> uplinks(p.leaves, p.uplinks);
  for (unsigned l = 0; l < p.leaves; ++l) {
    const unsigned radix = l < p.leaves / 2 ? p.old_radix : p.new_radix;
    const unsigned drawn =
        p.min_hosts +
        static_cast<unsigned>(rng.below(std::uint64_t{p.max_hosts} - p.min_hosts + 1));
    // Every leaf keeps room for its full uplinks: the short ones lost cables, not ports.
    const unsigned hosts = std::min(drawn, radix - most_uplinks);
    spec.switches.push_back({"leaf-" + std::to_string(l), hosts, radix - hosts});
  }
  std::vector<unsigned> order(p.leaves);
  for (unsigned l = 0; l < p.leaves; ++l) order[l] = l;
  rng.shuffle(order);
  for (unsigned i = 0; i < p.short_leaves; ++i) uplinks[order[i]] = p.short_uplinks;
  const std::size_t first_spine = spec.switches.size();
  for (unsigned s = 0; s < p.spines; ++s) {
    spec.roots.push_back(spec.switches.size());
    spec.switches.push_back({"spine-" + std::to_string(s), 0, 0});
  }
  for (unsigned h = 0; h < p.spine_hosts; ++h)
    ++spec.switches[first_spine + rng.below(p.spines)].hosts;
  for (unsigned l = 0; l < p.leaves; ++l)
    for (unsigned k = 0; k < uplinks[l]; ++k)
      spec.cables.push_back({l, first_spine + (l + k) % p.spines, 0, 0});
  return spec;
}

}  // namespace psssp::topo
