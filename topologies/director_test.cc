// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <gtest/gtest.h>

#include <map>

#include "builder.h"
#include "failures.h"
#include "families.h"
#include "registry.h"
#include "testing/topology_checks.h"

namespace psssp::topo {
namespace {

using test::count;
using test::host_ports;
using test::switch_degree;
using Map = std::map<std::string, std::string>;

TopologySpec make(Map options) {
  Params p(std::move(options));
  return generate("director", p);
}

bool is_line(const Node& n) { return n.description.find("/L") != std::string::npos; }

// "MF0;dir3:..." -> 3
unsigned chassis_of(const Node& n) {
  return static_cast<unsigned>(std::stoul(n.description.substr(n.description.find("dir") + 3)));
}

// Bundle cables per chassis pair (lower number first).
std::map<std::pair<unsigned, unsigned>, unsigned> bundles(const Fabric& f) {
  std::map<std::pair<unsigned, unsigned>, unsigned> pairs;
  for (NodeId s : f.switches())
    for (const Port& p : f.node(s).ports) {
      if (!p.connected() || !f.node(p.remote.node).is_switch()) continue;
      const unsigned a = chassis_of(f.node(s)), b = chassis_of(f.node(p.remote.node));
      if (a < b) ++pairs[{a, b}];
    }
  return pairs;
}

// Every chip has chip_ports ports; a line chip's hosts and bundle cables sit
// on its external ports, its internal cables above them on fabric chips of
// its own chassis; fabric chips reach only line chips of their chassis.
void expect_port_budget(const Fabric& f, unsigned chip_ports, unsigned external) {
  for (NodeId s : f.switches()) {
    const Node& n = f.node(s);
    ASSERT_EQ(n.num_ports(), chip_ports) << n.description;
    for (PortNum port = 1; port <= n.num_ports(); ++port) {
      const PortRef r = n.ports[port].remote;
      if (!r.valid()) continue;
      const Node& peer = f.node(r.node);
      const bool internal = peer.is_switch() && chassis_of(peer) == chassis_of(n);
      if (!is_line(n)) {
        EXPECT_TRUE(internal && is_line(peer)) << n.description << " port " << int{port};
      } else if (port > external) {
        EXPECT_TRUE(internal && !is_line(peer)) << n.description << " port " << int{port};
      } else {
        EXPECT_FALSE(internal) << n.description << " port " << int{port};
      }
    }
  }
}

TEST(Director, Isr2012ThreeChassisChain) {
  const TopologySpec spec = make({{"chassis", "3"}});
  const Fabric f = build_fabric(spec);
  const auto c = count(f);
  EXPECT_EQ(c.switches, 3u * 36);
  EXPECT_EQ(c.switch_cables, 3u * 24 * 12 + 2 * 12);
  EXPECT_EQ(c.hosts, 3u * 288 - 2 * 2 * 12);
  // Roots: the fabric chips of the middle chassis.
  ASSERT_EQ(spec.roots.size(), 12u);
  for (std::size_t r : spec.roots) {
    const Node& root = f.node(static_cast<NodeId>(r));
    EXPECT_FALSE(is_line(root)) << root.description;
    EXPECT_EQ(chassis_of(root), 2u) << root.description;
  }
  expect_port_budget(f, 24, 12);
  EXPECT_EQ((bundles(f)),
            (std::map<std::pair<unsigned, unsigned>, unsigned>{{{1, 2}, 12}, {{2, 3}, 12}}));
  // The middle chassis spreads its 24 bundle cables over its 24 line chips.
  for (NodeId s : f.switches())
    if (is_line(f.node(s)) && chassis_of(f.node(s)) == 2) {
      EXPECT_EQ(host_ports(f, s), 11u) << f.node(s).description;
    }
  EXPECT_TRUE(is_connected(f));
}

TEST(Director, ChipsDescribeThemselvesLikeRealDirectors) {
  const Fabric f = build_fabric(make({{"chassis", "2"}}));
  EXPECT_EQ(f.node(0).description, "MF0;dir1:ISR2012/L01/U1");
  ASSERT_TRUE(f.find_by_name("MF0;dir1:ISR2012/L05/U1"));
  ASSERT_TRUE(f.find_by_name("MF0;dir2:ISR2012/S03/U1"));
  const Node& spine = f.node(*f.find_by_name("MF0;dir2:ISR2012/S03/U1"));
  EXPECT_EQ(f.node(spine.ports[5].remote.node).description, "MF0;dir2:ISR2012/L05/U1");
  for (NodeId id = 0; id < f.node_count(); ++id) {
    const std::string& d = f.node(id).description;
    EXPECT_LE(d.size(), 64u) << d;  // ibsim's node description
    EXPECT_EQ(d.find('"'), std::string::npos) << d;
  }
  const Fabric big = build_fabric(make({{"model", "is5600"}, {"chassis", "1"}}));
  ASSERT_TRUE(big.find_by_name("MF0;dir1:IS5600/L36/U1"));
  ASSERT_TRUE(big.find_by_name("MF0;dir1:IS5600/S18/U1"));
}

TEST(Director, Presets) {
  struct Want {
    const char* model;
    unsigned line, fabric, ports, external;
  };
  for (const Want& w : {Want{"isr2012", 24, 12, 24, 12}, Want{"is5100", 6, 3, 36, 18},
                        Want{"is5300", 18, 9, 36, 18}, Want{"is5600", 36, 18, 36, 18}}) {
    const Fabric f = build_fabric(make({{"model", w.model}, {"chassis", "1"}}));
    const auto c = count(f);
    EXPECT_EQ(c.switches, w.line + w.fabric) << w.model;
    EXPECT_EQ(c.hosts, std::size_t{w.line} * w.external) << w.model;
    EXPECT_EQ(c.switch_cables, std::size_t{w.line} * (w.ports - w.external)) << w.model;
    expect_port_budget(f, w.ports, w.external);
    for (NodeId s : f.switches())  // a full chassis: every port cabled
      EXPECT_EQ(switch_degree(f, s) + host_ports(f, s), w.ports) << f.node(s).description;
  }
}

TEST(Director, JoinVariants) {
  using Pairs = std::map<std::pair<unsigned, unsigned>, unsigned>;
  const Map base{{"model", "is5100"}, {"chassis", "4"}, {"bundle", "5"}};
  auto with = [&](const char* join) {
    Map m = base;
    m["join"] = join;
    return build_fabric(make(m));
  };
  EXPECT_EQ(bundles(with("chain")), (Pairs{{{1, 2}, 5}, {{2, 3}, 5}, {{3, 4}, 5}}));
  EXPECT_EQ(bundles(with("ring")), (Pairs{{{1, 2}, 5}, {{2, 3}, 5}, {{3, 4}, 5}, {{1, 4}, 5}}));
  const Fabric mesh = with("mesh");
  EXPECT_EQ(bundles(mesh).size(), 6u);
  for (const auto& [pair, n] : bundles(mesh)) EXPECT_EQ(n, 5u);
  // 15 bundle cables over 6 line chips of 18 external ports: 2 or 3 each.
  EXPECT_EQ(count(mesh).hosts, 4u * (108 - 15));
  expect_port_budget(mesh, 36, 18);
  // Two chassis: ring and mesh are the chain.
  EXPECT_EQ(bundles(build_fabric(make({{"chassis", "2"}, {"join", "ring"}, {"bundle", "3"}}))),
            (Pairs{{{1, 2}, 3}}));
}

// All fabric chips where every line chip with hosts has a cable to every
// other chassis, else those of the middle chassis.
TEST(Director, RootsReachEveryPairUpAndDown) {
  auto root_chassis = [](Map options) {
    const TopologySpec spec = make(std::move(options));
    const Fabric f = build_fabric(spec);
    std::map<unsigned, unsigned> per_chassis;
    for (std::size_t r : spec.roots) {
      const Node& root = f.node(static_cast<NodeId>(r));
      EXPECT_FALSE(is_line(root)) << root.description;
      ++per_chassis[chassis_of(root)];
    }
    return per_chassis;
  };
  using Roots = std::map<unsigned, unsigned>;
  EXPECT_EQ(root_chassis({{"model", "is5100"}, {"chassis", "1"}}), (Roots{{1, 3}}));
  EXPECT_EQ(root_chassis({{"model", "is5100"}, {"chassis", "2"}, {"bundle", "6"}}),
            (Roots{{1, 3}, {2, 3}}));
  EXPECT_EQ(root_chassis({{"model", "is5100"}, {"chassis", "2"}, {"bundle", "5"}}),
            (Roots{{1, 3}}));
  EXPECT_EQ(root_chassis({{"model", "is5100"}, {"chassis", "3"}, {"bundle", "6"}}),
            (Roots{{2, 3}}));
  EXPECT_EQ(
      root_chassis({{"model", "is5100"}, {"chassis", "4"}, {"bundle", "6"}, {"join", "mesh"}}),
      (Roots{{1, 3}, {2, 3}, {3, 3}, {4, 3}}));
  EXPECT_EQ(
      root_chassis({{"model", "is5100"}, {"chassis", "4"}, {"bundle", "6"}, {"join", "ring"}}),
      (Roots{{2, 3}}));
  // Five line chips, five cables: every line chip has one.
  EXPECT_EQ(root_chassis({{"model", "is5100"},
                          {"chassis", "2"},
                          {"bundle", "5"},
                          {"line-chips", "5"},
                          {"fabric-chips", "3"}}),
            (Roots{{1, 3}, {2, 3}}));
}

TEST(Director, ExplicitChipsAndHostsPerLine) {
  const Fabric f = build_fabric(make({{"chassis", "2"},
                                      {"line-chips", "4"},
                                      {"fabric-chips", "2"},
                                      {"chip-ports", "8"},
                                      {"external-ports", "4"},
                                      {"bundle", "4"},
                                      {"hosts-per-line", "2"}}));
  const auto c = count(f);
  EXPECT_EQ(c.switches, 2u * 6);
  EXPECT_EQ(c.hosts, 2u * 4 * 2);
  EXPECT_EQ(c.switch_cables, 2u * 4 * 2 * 2 + 4);  // 2 cables per line/fabric pair
  expect_port_budget(f, 8, 4);
  // Line chip: hosts 1-2, bundle 3, port 4 dark, fabric chips on 5-8.
  const Node& l1 = f.node(*f.find_by_name("MF0;dir1:ISR2012/L01/U1"));
  EXPECT_FALSE(l1.ports[4].connected());
  EXPECT_EQ(f.node(l1.ports[3].remote.node).description, "MF0;dir2:ISR2012/L01/U1");
  EXPECT_EQ(f.node(l1.ports[5].remote.node).description, "MF0;dir1:ISR2012/S01/U1");
  EXPECT_EQ(f.node(l1.ports[8].remote.node).description, "MF0;dir1:ISR2012/S02/U1");
}

void expect_refused(Map options, const std::string& message) {
  try {
    make(std::move(options));
    ADD_FAILURE() << "accepted; wanted: " << message;
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_NE(what.find(message), std::string::npos) << what;
  }
}

TEST(Director, BadOptionsAreRefused) {
  expect_refused({{"model", "isr9999"}}, "unknown --model \"isr9999\" (known: isr2012,");
  expect_refused({{"join", "star"}}, "--join must be chain, ring or mesh");
  expect_refused({{"chassis", "0"}}, "must be positive");
  expect_refused({{"chip-ports", "300"}}, "--chip-ports 300 exceeds the 254 ports");
  expect_refused({{"external-ports", "24"}}, "leaves no internal port on a 24-port chip");
  expect_refused({{"fabric-chips", "5"}}, "do not split evenly over 5 fabric chips");
  expect_refused({{"external-ports", "0"}}, "must be positive");
  expect_refused({{"line-chips", "30"}}, "a fabric chip needs 30 ports");
  expect_refused({{"bundle", "0"}}, "--bundle must be positive");
  expect_refused({{"chassis", "3"}, {"bundle", "145"}},
                 "chassis dir2 needs 290 external ports for its bundles");
  expect_refused({{"chassis", "3"}, {"hosts-per-line", "12"}},
                 "--hosts-per-line 12 does not fit: line chip MF0;dir1:ISR2012/L01/U1 has 11");
  expect_refused({{"chassis", "100000"}}, "more than 100000 switches");
  expect_refused({{"spines", "2"}}, "unknown option(s) --spines");
  // One chassis needs no bundle; the ports then all carry hosts.
  EXPECT_EQ(count(build_fabric(make({{"chassis", "1"}, {"bundle", "0"}}))).hosts, 288u);
}

}  // namespace
}  // namespace psssp::topo
