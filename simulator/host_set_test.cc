// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "host_set.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "formats/fabric_io.h"
#include "test_fabrics.h"

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

}  // namespace
}  // namespace psssp::sim
