// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "host_set.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "formats/fabric_io.h"
#include "testing/chain.h"

namespace psssp::sim {
namespace {

std::string write_temp(const std::string& text) {
  char path[] = "/tmp/psssp-hosts-XXXXXX";
  const int fd = mkstemp(path);
  EXPECT_GE(fd, 0);
  std::ofstream(path) << text;
  return path;
}

TEST(HostSet, GuidFileInOpenSmFormatSelectsPortsAndNodes) {
  // Hosts 0x5053480000000000, ...10, ...20, ...30; port GUID = node GUID + 1.
  const auto chain = testing::make_chain(2, 2);
  // Plain hex port GUID (as cn_guid_file has it), and a node GUID with 0x.
  const std::string file = write_temp("# two hosts\n5053480000000001\n0x5053480000000030\n");
  const std::vector<Host> hosts = select_hosts(chain.fabric, HostFilter{"", file});
  std::remove(file.c_str());
  ASSERT_EQ(hosts.size(), 2u);
  EXPECT_EQ(chain.fabric.port(hosts[0].port).guid, 0x5053480000000001u);
  EXPECT_EQ(chain.fabric.node(hosts[1].port.node).guid, 0x5053480000000030u);
}

TEST(HostSet, UnknownOrMalformedGuidsAreErrors) {
  const auto chain = testing::make_chain(2, 2);
  const std::string unknown = write_temp("0x9999\n");
  EXPECT_THROW(select_hosts(chain.fabric, HostFilter{"", unknown}), std::runtime_error);
  std::remove(unknown.c_str());
  const std::string bad = write_temp("0x5053480000000001\nhost-3\n");
  try {
    select_hosts(chain.fabric, HostFilter{"", bad});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(":2: not a GUID: 'host-3'"), std::string::npos);
  }
  std::remove(bad.c_str());
}

TEST(HostSet, NaturalOrderComparesDigitRunsByValue) {
  const std::vector<std::string> sorted = {"",
                                           "dgx2 mlx5_0",
                                           "dgx017 mlx5_2",
                                           "dgx017 mlx5_3",
                                           "dgx017 mlx5_10",
                                           "dgx18",
                                           "dgx18 mlx5_0",
                                           "node2",
                                           "node002",
                                           "node010",
                                           "node10a",
                                           "node10b",
                                           "node011",
                                           "node100",
                                           "nodeA",
                                           "x0",
                                           "x00",
                                           "x1"};
  for (std::size_t i = 0; i < sorted.size(); ++i)
    for (std::size_t j = 0; j < sorted.size(); ++j)
      EXPECT_EQ(natural_less(sorted[i], sorted[j]), i < j) << sorted[i] << " / " << sorted[j];
  // Longer numbers than any integer type.
  EXPECT_TRUE(natural_less("n99999999999999999999999", "n100000000000000000000000"));
}

TEST(HostSet, HostnameOrderIsServerByServerOnARailOptimisedTree) {
  // Fabric order: leaf su0-rail0 (node001..node003 mlx5_0), su0-rail1 ...
  Fabric fabric = topo::build_fabric(topo::rail_optimized(1, 3, 2, 1, 1));
  psssp::testing::assign_lids(fabric);
  const std::vector<Host> hosts = select_hosts(fabric, {});
  ASSERT_EQ(hosts.size(), 6u);
  std::vector<std::string> got;
  for (const std::uint32_t i : hostname_order(fabric, hosts))
    got.push_back(fabric.node(hosts[i].port.node).description);
  EXPECT_EQ(got, (std::vector<std::string>{"node001 mlx5_0", "node001 mlx5_1", "node002 mlx5_0",
                                           "node002 mlx5_1", "node003 mlx5_0", "node003 mlx5_1"}));
}

TEST(HostSet, HostnameOrderTiesByPortThenFabricOrder) {
  // Dual-port hosts: port 1 before port 2 of the same node; nodes whose
  // descriptions tie ("h-0" on both renamed nodes) keep the fabric order.
  topo::BuildOptions dual;
  dual.dual_port = true;
  Fabric fabric = topo::build_fabric(topo::grid({2}, false, 2), dual);
  psssp::testing::assign_lids(fabric);
  fabric.node(*fabric.find_by_name("h-3")).description = "h-10";
  fabric.node(*fabric.find_by_name("h-2")).description = "h-10";
  const std::vector<Host> hosts = select_hosts(fabric, {});
  ASSERT_EQ(hosts.size(), 8u);
  std::vector<std::pair<std::string, unsigned>> got;
  for (const std::uint32_t i : hostname_order(fabric, hosts))
    got.emplace_back(fabric.node(hosts[i].port.node).name, hosts[i].port.port);
  const std::vector<std::pair<std::string, unsigned>> want = {{"h-0", 1}, {"h-0", 2}, {"h-1", 1},
                                                              {"h-1", 2}, {"h-2", 1}, {"h-3", 1},
                                                              {"h-2", 2}, {"h-3", 2}};
  EXPECT_EQ(got, want);
}

}  // namespace
}  // namespace psssp::sim
