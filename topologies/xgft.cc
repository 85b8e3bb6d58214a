// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <algorithm>
#include <stdexcept>

#include "families.h"

namespace psssp::topo {
namespace {

std::string level_name(std::size_t level, std::size_t height) {
  if (level == 1) return "leaf";
  if (level == height) return height == 2 ? "spine" : "core";
  if (height == 3) return "agg";
  return "l" + std::to_string(level);
}

// A level-i switch is the digit string (a_{i+1}..a_h, b_1..b_i) in mixed
// radix (m_{i+1}..m_h, w_1..w_i), first digit least significant. Its parents
// drop a_{i+1} and append b_{i+1}; its child index is a_{i+1}.
std::vector<unsigned> radices(const XgftParams& p, std::size_t level) {
  std::vector<unsigned> r(p.m.begin() + static_cast<std::ptrdiff_t>(level), p.m.end());
  r.insert(r.end(), p.w.begin(), p.w.begin() + static_cast<std::ptrdiff_t>(level));
  return r;
}

constexpr std::size_t kMaxSwitches = 100000;

// Stops growing above kMaxSwitches, so that no parameters can wrap it around.
std::size_t product(const std::vector<unsigned>& v) {
  std::size_t p = 1;
  for (const unsigned b : v) p = std::min(p * b, kMaxSwitches + 1);
  return p;
}

}  // namespace

TopologySpec xgft(const XgftParams& p) {
  const std::size_t h = p.m.size();
  if (h == 0 || p.w.size() != h || p.cables.size() + 1 != h)
    throw std::invalid_argument(p.family + ": m and w need one entry per level, cables one less");
  if (p.w[0] != 1) throw std::invalid_argument(p.family + ": hosts have a single parent (w1 = 1)");
  for (std::size_t i = 0; i < h; ++i)
    if (p.m[i] == 0 || p.w[i] == 0 || (i + 1 < h && p.cables[i] == 0))
      throw std::invalid_argument(p.family + ": all parameters must be positive");

  TopologySpec spec;
  spec.family = p.family;
  std::vector<std::size_t> first(h + 2, 0);  // first spec index per level
  for (std::size_t level = 1; level <= h; ++level) {
    first[level] = spec.switches.size();
    const std::size_t count = product(radices(p, level));
    if (spec.switches.size() + count > kMaxSwitches)
      throw std::invalid_argument(p.family +
                                  ": the parameter product exceeds what a fabric can hold "
                                  "(more than 100000 switches)");
    for (std::size_t j = 0; j < count; ++j) {
      SwitchSpec s;
      s.name = level_name(level, h) + "-" + std::to_string(j);
      s.hosts = level == 1 ? p.m[0] : level == h ? p.top_hosts : 0;
      spec.switches.push_back(std::move(s));
    }
  }
  if (h == 1) spec.switches[0].hosts += p.top_hosts;

  for (std::size_t level = 1; level < h; ++level) {
    const std::vector<unsigned> r = radices(p, level);
    const std::size_t count = product(r);
    const unsigned children = p.m[level];  // a_{i+1} radix, the lowest digit
    const std::size_t stride = count / children;
    for (std::size_t j = 0; j < count; ++j) {
      const std::size_t rest = j / children;  // digits above a_{i+1}
      for (unsigned b = 0; b < p.w[level]; ++b) {
        const std::size_t parent = first[level + 1] + rest + stride * b;
        for (unsigned c = 0; c < p.cables[level - 1]; ++c)
          spec.cables.push_back({first[level] + j, parent, 0, 0});
      }
    }
  }
  for (std::size_t j = first[h]; j < spec.switches.size(); ++j) spec.roots.push_back(j);
  return spec;
}

TopologySpec kary_ntree(unsigned k, unsigned n, unsigned hosts_per_leaf) {
  if (k < 1 || n < 1) throw std::invalid_argument("kary-ntree: k and n must be positive");
  XgftParams p;
  p.m.assign(n, k);
  p.m[0] = hosts_per_leaf;
  p.w.assign(n, k);
  p.w[0] = 1;
  p.cables.assign(n - 1, 1);
  p.family = "kary-ntree";
  if (hosts_per_leaf == 0)
    throw std::invalid_argument("kary-ntree: hosts per leaf must be positive");
  TopologySpec spec = xgft(p);
  // Every switch has radix 2k; leaves use k of them for uplinks.
  for (SwitchSpec& s : spec.switches) s.min_fabric_ports = s.hosts > 0 ? k : 2 * k;
  return spec;
}

TopologySpec tapered_tree(unsigned k, unsigned n, unsigned hosts_per_leaf, unsigned uplinks) {
  if (k < 1 || n < 2 || hosts_per_leaf == 0 || uplinks == 0)
    throw std::invalid_argument(
        "tapered-tree: k, hosts per leaf and uplinks must be positive and n at least 2");
  XgftParams p;
  p.m.assign(n, k);
  p.m[0] = hosts_per_leaf;
  p.w.assign(n, k);
  p.w[0] = 1;
  p.w[1] = uplinks;
  p.cables.assign(n - 1, 1);
  p.family = "tapered-tree";
  TopologySpec spec = xgft(p);
  // Radix 2k where the ports allow: leaves pad their uplinks, the others to 2k.
  for (SwitchSpec& s : spec.switches)
    s.min_fabric_ports =
        s.hosts > 0 ? (hosts_per_leaf < 2 * k ? 2 * k - hosts_per_leaf : uplinks) : 2 * k;
  return spec;
}

TopologySpec fattree2(unsigned leaves, unsigned hosts_per_leaf, unsigned spines, unsigned cables,
                      unsigned hosts_per_spine) {
  return xgft({{hosts_per_leaf, leaves}, {1, spines}, {cables}, hosts_per_spine, "fattree2"});
}

TopologySpec fattree3(unsigned pods, unsigned leaves_per_pod, unsigned hosts_per_leaf,
                      unsigned aggs_per_pod, unsigned cores_per_agg, unsigned cables,
                      unsigned hosts_per_core) {
  return xgft({{hosts_per_leaf, leaves_per_pod, pods},
               {1, aggs_per_pod, cores_per_agg},
               {cables, cables},
               hosts_per_core,
               "fattree3"});
}

}  // namespace psssp::topo
