// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "registry.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "families.h"

namespace psssp::topo {
namespace {

TopologySpec make_kary(Params& p) {
  const unsigned k = p.get_uint("k", 4);
  return kary_ntree(k, p.get_uint("n", 2), p.get_uint("hosts-per-switch", k));
}

TopologySpec make_fattree2(Params& p) {
  const unsigned leaves = p.get_uint("leaves", 4);
  const unsigned hosts = p.get_uint("hosts-per-leaf", p.get_uint("hosts-per-switch", 4));
  return fattree2(leaves, hosts, p.get_uint("spines", 2), p.get_uint("cables", 1),
                  p.get_uint("hosts-per-spine", 0));
}

TopologySpec make_fattree3(Params& p) {
  const unsigned pods = p.get_uint("pods", 2), leaves = p.get_uint("leaves", 2);
  const unsigned hosts = p.get_uint("hosts-per-leaf", p.get_uint("hosts-per-switch", 2));
  const unsigned aggs = p.get_uint("aggs", 2), cores = p.get_uint("cores-per-agg", 2);
  return fattree3(pods, leaves, hosts, aggs, cores, p.get_uint("cables", 1),
                  p.get_uint("hosts-per-core", 0));
}

TopologySpec make_torus(Params& p) {
  return grid(p.get_dims("dims", {4, 4}), true, p.get_uint("hosts-per-switch", 1));
}
TopologySpec make_mesh(Params& p) {
  return grid(p.get_dims("dims", {4, 4}), false, p.get_uint("hosts-per-switch", 1));
}
TopologySpec make_hypercube(Params& p) {
  return hypercube(p.get_uint("dim", 3), p.get_uint("hosts-per-switch", 1));
}

TopologySpec make_dragonfly(Params& p) {
  const unsigned a = p.get_uint("a", 4), h = p.get_uint("h", 2);
  return dragonfly(a, p.get_uint("p", p.get_uint("hosts-per-switch", 2)), h);
}

TopologySpec make_hyperx(Params& p) {
  const std::vector<unsigned> dims = p.get_dims("dims", {4, 4});
  return hyperx(dims, p.get_uint("cables", 1), p.get_uint("hosts-per-switch", 1));
}

TopologySpec make_kautz(Params& p) {
  const unsigned d = p.get_uint("degree", 2);
  return kautz(d, p.get_uint("diameter", 2), p.get_uint("hosts-per-switch", 1));
}

TopologySpec make_director(Params& p) {
  DirectorParams d = director_params(p.get_string("model", "isr2012"));
  d.chassis = p.get_uint("chassis", 2);
  d.line_chips = p.get_uint("line-chips", d.line_chips);
  d.fabric_chips = p.get_uint("fabric-chips", d.fabric_chips);
  d.chip_ports = p.get_uint("chip-ports", d.chip_ports);
  d.external_ports = p.get_uint("external-ports", d.external_ports);
  d.join = director_join(p.get_string("join", "chain"));
  d.bundle = p.get_uint("bundle", 12);
  d.hosts_per_line = p.get_uint("hosts-per-line", DirectorParams::kAllFree);
  return director(d);
}

TopologySpec make_tapered_tree(Params& p) {
  const unsigned k = p.get_uint("k", 4);
  const unsigned hosts = p.get_uint("hosts-per-leaf", k);
  return tapered_tree(k, p.get_uint("n", 3), hosts, p.get_uint("uplinks", k / 2 ? k / 2 : 1));
}

TopologySpec make_grown_tree(Params& p) {
  GrownTreeParams g;
  g.leaves = p.get_uint("leaves", g.leaves);
  g.spines = p.get_uint("spines", g.spines);
  g.old_radix = p.get_uint("old-radix", g.old_radix);
  g.new_radix = p.get_uint("new-radix", g.new_radix);
  g.min_hosts = p.get_uint("min-hosts", g.min_hosts);
  g.max_hosts = p.get_uint("max-hosts", g.max_hosts);
  g.uplinks = p.get_uint("uplinks", g.spines);
  g.short_leaves = p.get_uint("short-leaves", g.short_leaves);
  g.short_uplinks = p.get_uint("short-uplinks", g.short_uplinks);
  g.spine_hosts = p.get_uint("spine-hosts", g.spine_hosts);
  g.seed = p.get_u64("seed", 1);
  return grown_tree(g);
}

TopologySpec make_dragonfly_plus(Params& p) {
  const unsigned leaves = p.get_uint("leaves", 4), spines = p.get_uint("spines", 4);
  const unsigned global = p.get_uint("global-links", leaves);
  const unsigned hosts = p.get_uint("hosts-per-leaf", spines);
  const std::uint64_t most_groups = std::uint64_t{spines} * global + 1;
  const unsigned groups =
      p.get_uint("groups", static_cast<unsigned>(std::min<std::uint64_t>(most_groups, 1000000)));
  return dragonfly_plus(groups, leaves, spines, hosts, global);
}

TopologySpec make_rail_optimized(Params& p) {
  const unsigned servers = p.get_uint("servers", 8), cables = p.get_uint("cables", 1);
  const unsigned spines = p.get_uint("spines", cables ? (servers + cables - 1) / cables : 1);
  return rail_optimized(p.get_uint("units", 2), servers, p.get_uint("hcas", 8), spines, cables);
}

TopologySpec make_random_regular(Params& p) {
  const unsigned n = p.get_uint("switches", 16), d = p.get_uint("degree", 4);
  return random_regular(n, d, p.get_uint("hosts-per-switch", 1), p.get_u64("seed", 1));
}

}  // namespace

const std::vector<FamilyInfo>& families() {
  static const std::vector<FamilyInfo> list = {
      {"kary-ntree",
       "--k 4 --n 2 [--hosts-per-switch k]",
       {"k", "n", "hosts-per-switch"},
       make_kary},
      {"fattree2",
       "--leaves 4 --hosts-per-leaf 4 --spines 2 --cables 1 --hosts-per-spine 0",
       {"leaves", "hosts-per-leaf", "hosts-per-switch", "spines", "cables", "hosts-per-spine"},
       make_fattree2},
      {"fattree3",
       "--pods 2 --leaves 2 --hosts-per-leaf 2 --aggs 2 --cores-per-agg 2 --cables 1 "
       "--hosts-per-core 0",
       {"pods", "leaves", "hosts-per-leaf", "hosts-per-switch", "aggs", "cores-per-agg", "cables",
        "hosts-per-core"},
       make_fattree3},
      {"torus", "--dims 4x4 --hosts-per-switch 1", {"dims", "hosts-per-switch"}, make_torus},
      {"mesh", "--dims 4x4 --hosts-per-switch 1", {"dims", "hosts-per-switch"}, make_mesh},
      {"hypercube", "--dim 3 --hosts-per-switch 1", {"dim", "hosts-per-switch"}, make_hypercube},
      {"dragonfly", "--a 4 --p 2 --h 2", {"a", "p", "h", "hosts-per-switch"}, make_dragonfly},
      {"hyperx",
       "--dims 4x4 --cables 1 --hosts-per-switch 1",
       {"dims", "cables", "hosts-per-switch"},
       make_hyperx},
      {"kautz",
       "--degree 2 --diameter 2 --hosts-per-switch 1",
       {"degree", "diameter", "hosts-per-switch"},
       make_kautz},
      {"director",
       "--model isr2012 --chassis 2 --join chain --bundle 12 [--hosts-per-line N (default: all "
       "free ports)] [--line-chips N --fabric-chips N --chip-ports N --external-ports N (default: "
       "the model's)]",
       {"model", "chassis", "line-chips", "fabric-chips", "chip-ports", "external-ports", "join",
        "bundle", "hosts-per-line"},
       make_director},
      {"tapered-tree",
       "--k 4 --n 3 --hosts-per-leaf k --uplinks k/2",
       {"k", "n", "hosts-per-leaf", "uplinks"},
       make_tapered_tree},
      {"grown-tree",
       "--leaves 16 --spines 8 --old-radix 36 --new-radix 40 --min-hosts 4 --max-hosts 18 "
       "--uplinks spines --short-leaves 2 --short-uplinks 2 --spine-hosts 4 --seed 1",
       {"leaves", "spines", "old-radix", "new-radix", "min-hosts", "max-hosts", "uplinks",
        "short-leaves", "short-uplinks", "spine-hosts"},
       make_grown_tree},
      {"dragonfly-plus",
       "--leaves 4 --spines 4 --hosts-per-leaf spines --global-links leaves --groups "
       "spines*global-links+1",
       {"groups", "leaves", "spines", "hosts-per-leaf", "global-links"},
       make_dragonfly_plus},
      {"rail-optimized",
       "--units 2 --servers 8 --hcas 8 --cables 1 --spines servers/cables",
       {"units", "servers", "hcas", "spines", "cables"},
       make_rail_optimized},
      {"random-regular",
       "--switches 16 --degree 4 --hosts-per-switch 1 --seed 1",
       {"switches", "degree", "hosts-per-switch"},
       make_random_regular},
  };
  return list;
}

TopologySpec generate(const std::string& family, Params& params) {
  for (const FamilyInfo& f : families())
    if (family == f.name) {
      TopologySpec spec = f.make(params);
      params.check_all_used(family);
      return spec;
    }
  throw std::invalid_argument("unknown topology family \"" + family + "\"");
}

}  // namespace psssp::topo
