// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Topology families. Each returns a TopologySpec; build_fabric() makes the
// Fabric. Arguments are checked; bad ones throw std::invalid_argument.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "topology_spec.h"

namespace psssp::topo {

// Extended generalized fat tree XGFT(h; m1..mh; w1..wh) with w1 = 1: level-i
// switches have m_i children and w_{i+1} parents; leaves carry m1 hosts.
// cables[i-1] parallel cables join each level-i switch to each of its parents.
struct XgftParams {
  std::vector<unsigned> m;
  std::vector<unsigned> w;
  std::vector<unsigned> cables;  // h-1 entries
  unsigned top_hosts = 0;        // hosts on each top-level switch
  std::string family = "xgft";   // in messages and the spec
};
TopologySpec xgft(const XgftParams& p);

// Petrini's k-ary n-tree: k^n hosts, n levels of k^(n-1) switches with 2k ports.
TopologySpec kary_ntree(unsigned k, unsigned n, unsigned hosts_per_leaf);
// Two-level fat tree: every leaf reaches every spine over `cables` cables.
TopologySpec fattree2(unsigned leaves, unsigned hosts_per_leaf, unsigned spines, unsigned cables,
                      unsigned hosts_per_spine);
// Three-level fat tree: `pods` pods of leaves and aggregation switches (full
// bipartite inside a pod); agg a of every pod reaches cores a*K .. a*K+K-1.
TopologySpec fattree3(unsigned pods, unsigned leaves_per_pod, unsigned hosts_per_leaf,
                      unsigned aggs_per_pod, unsigned cores_per_agg, unsigned cables,
                      unsigned hosts_per_core);

// k-ary n-tree tapered at the leaves: k^(n-1) leaves with hosts_per_leaf
// hosts and `uplinks` cables each (oversubscription hosts_per_leaf : uplinks);
// above them switches of radix 2k with k children and k parents, as in the
// k-ary n-tree (XGFT(n; h,k,..,k; 1,u,k,..,k)).
TopologySpec tapered_tree(unsigned k, unsigned n, unsigned hosts_per_leaf, unsigned uplinks);

// Two-level tree grown over the years, drawn from a seed: `leaves` leaves,
// the first half with old_radix ports, the rest with new_radix; each leaf
// has between min_hosts and max_hosts hosts (at most its radix less its
// uplinks) and `uplinks` cables to the spines (its k-th to spine
// (leaf + k) mod spines), except `short_leaves` leaves drawn at random with
// only short_uplinks; `spine_hosts` hosts sit on spines drawn at random.
struct GrownTreeParams {
  unsigned leaves = 16, spines = 8;
  unsigned old_radix = 36, new_radix = 40;
  unsigned min_hosts = 4, max_hosts = 18;
  unsigned uplinks = 8;  // per leaf
  unsigned short_leaves = 2, short_uplinks = 2;
  unsigned spine_hosts = 4;
  std::uint64_t seed = 1;
};
TopologySpec grown_tree(const GrownTreeParams& p);

// Dragonfly+ (Shpiner et al. 2017): `groups` groups, each a complete
// bipartite two-level tree of `leaves` leaves (hosts_per_leaf hosts each)
// and `spines` spines; every spine has global_links global cables. Group g's
// global port j (spine j / global_links) goes to group
// (g + j mod (groups-1) + 1) mod groups, so each pair of groups shares
// floor(spines*global_links / (groups-1)) cables (ports beyond stay dark).
// Tapered globally where global_links < leaves.
TopologySpec dragonfly_plus(unsigned groups, unsigned leaves, unsigned spines,
                            unsigned hosts_per_leaf, unsigned global_links);

// Rail-optimised two-level tree: `units` scalable units of `servers` servers
// with `hcas` HCAs each, every HCA its own CA described "nodeNNN mlx5_R"
// (servers numbered from 001 across units). HCA r of every server of unit u
// sits on leaf "su<u>-rail<r>"; every leaf reaches every one of `spines`
// spines over `cables` cables.
TopologySpec rail_optimized(unsigned units, unsigned servers, unsigned hcas, unsigned spines,
                            unsigned cables);

// Torus (wrap = true) or mesh of any dimensions; port slots 2i+1 / 2i+2 are
// the +/- directions of the i-th dimension larger than 1.
TopologySpec grid(const std::vector<unsigned>& dims, bool wrap, unsigned hosts_per_switch);
TopologySpec hypercube(unsigned dim, unsigned hosts_per_switch);
// Dragonfly with a routers per group, p hosts per router, h global links per
// router and a*h+1 groups, every group pair joined by one global cable.
TopologySpec dragonfly(unsigned a, unsigned p, unsigned h);
// HyperX: every dimension is a complete graph, `cables` cables per pair.
TopologySpec hyperx(const std::vector<unsigned>& dims, unsigned cables, unsigned hosts_per_switch);
// Kautz graph K(d, n): (d+1)d^n switches, one cable per arc, so 2d switch ports.
TopologySpec kautz(unsigned degree, unsigned diameter, unsigned hosts_per_switch);
// Director (chassis) switches as ibnetdiscover sees them: every chassis is a
// two-level Clos of line chips (external ports 1..external_ports, internal
// ports above them) and fabric chips; each line chip reaches each fabric chip
// over (chip_ports - external_ports) / fabric_chips internal cables. Chassis
// are joined (chain, ring or full mesh) by bundles of `bundle` cables between
// line chips' external ports, spread round-robin over a chassis' line chips;
// hosts take the external ports left. Roots (for updn): all fabric chips if
// every line chip with hosts has a cable to every other chassis, else those
// of the middle chassis ((chassis - 1) / 2).
enum class DirectorJoin { chain, ring, mesh };
struct DirectorParams {
  std::string model = "ISR2012";  // in the node descriptions
  unsigned chassis = 2;
  unsigned line_chips = 24;
  unsigned fabric_chips = 12;
  unsigned chip_ports = 24;
  unsigned external_ports = 12;
  DirectorJoin join = DirectorJoin::chain;
  unsigned bundle = 12;
  static constexpr unsigned kAllFree = ~0u;
  unsigned hosts_per_line = kAllFree;  // kAllFree: every external port left
};
TopologySpec director(const DirectorParams& p);

// Chip layouts of common director products, by lower-case model name.
struct DirectorModel {
  const char* name;         // for --model, e.g. "is5600"
  const char* description;  // in node descriptions, e.g. "IS5600"
  unsigned line_chips, fabric_chips, chip_ports, external_ports;
};
const std::vector<DirectorModel>& director_models();
// Throws std::invalid_argument naming the known models.
const DirectorModel& director_model(const std::string& name);
// DirectorParams with the chip layout of a known model (throws as above),
// the other fields as their defaults.
DirectorParams director_params(const std::string& model);
// "chain", "ring", "mesh"; throws std::invalid_argument otherwise.
DirectorJoin director_join(const std::string& name);

// Connected simple random d-regular switch graph.
TopologySpec random_regular(unsigned switches, unsigned degree, unsigned hosts_per_switch,
                            std::uint64_t seed);

}  // namespace psssp::topo
