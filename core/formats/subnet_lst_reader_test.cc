// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <gtest/gtest.h>

#include "formats/fabric_io.h"
#include "test_support.h"

namespace psssp {
namespace {

using testing::expect_same_fabric;
using testing::input_error;
using testing::replaced;
using testing::testdata;

TEST(SubnetLst, MatchesIbnetdiscover) {
  for (const std::string base : {"2sw2path4hca", "tree2"}) {
    const std::string text = read_file(testdata(base + ".opensm-subnet.lst"));
    EXPECT_EQ(detect_fabric_format(text, base), FabricFormat::subnet_lst);
    const Fabric lst = parse_fabric(text, base);
    expect_same_fabric(lst, read_fabric(testdata(base + ".ibnetdiscover")), base);
  }
}

TEST(SubnetLst, NamesDescriptionsAndDownLinks) {
  const std::string text = read_file(testdata("2sw2path4hca.opensm-subnet.lst"));
  const Fabric f = parse_fabric(text, "s.lst");
  const NodeId sw = *f.find_by_name("S-0000000000200000");
  EXPECT_EQ(f.node(sw).description, "Switch1");
  EXPECT_TRUE(f.node(sw).ports[1].healthy);
  // A link OpenSM saw down is cabled but carries no routes.
  std::string down = text;
  for (auto at = down.find("PN:03 } PHY=4x LOG=ACT"); at != std::string::npos;
       at = down.find("PN:03 } PHY=4x LOG=ACT"))
    down.replace(at, 22, "PN:03 } PHY=4x LOG=DWN");
  const Fabric g = parse_fabric(down, "s.lst");
  const Node& sw1 = g.node(*g.find_by_name("S-0000000000200000"));
  EXPECT_TRUE(sw1.ports[3].connected());
  EXPECT_FALSE(sw1.ports[3].usable());
}

TEST(SubnetLst, Errors) {
  const std::string text = read_file(testdata("2sw2path4hca.opensm-subnet.lst"));
  auto error_for = [](const std::string& changed) {
    return input_error([&] { parse_fabric(changed, "s.lst"); });
  };
  const std::string line1 = text.substr(0, text.find('\n'));
  EXPECT_EQ(
      error_for(replaced(text, "NodeGUID:0000000000100000", "NodeGUID:00000000001000z0")),
      "s.lst:1: bad NodeGUID value: " +
          replaced(line1, "NodeGUID:0000000000100000", "NodeGUID:00000000001000z0").substr(0, 160) +
          "...");
  const std::string truncated = text.substr(0, text.find("PHY=4x"));
  EXPECT_EQ(error_for(truncated), "s.lst:1: missing PHY=: " + line1.substr(0, 160) + "...");
  EXPECT_EQ(error_for(replaced(text, "LID:0002 PN:01 }", "LID:0002 PN:03 }")).substr(0, 51),
            "s.lst:1: port number beyond the node's port count: ");
  EXPECT_EQ(error_for(replaced(text, "SPD=2.5", "SPD=3")).substr(0, 25),
            "s.lst:1: bad SPD speed \"3");
  // The switch's port 1 claimed by two different CAs.
  const std::string crossed =
      replaced(text, "{Hca3} LID:0005 PN:01 } { SW-SM", "{Hca3} LID:0005 PN:01 } { SW-SM");
  const std::string bad =
      replaced(crossed, "{Switch1} LID:0001 PN:02 } { CA", "{Switch1} LID:0001 PN:01 } { CA");
  EXPECT_NE(error_for(bad).find("s.lst:3: inconsistent link ends: port 1 of"), std::string::npos)
      << error_for(bad);
}

TEST(LidFile, SubnetLstAndGuid2lid) {
  // LIDs of an ibsim fabric from OpenSM's two files agree with ibnetdiscover.
  const Fabric seen = read_fabric(testdata("2sw2path4hca.ibnetdiscover"));
  for (const char* file : {"2sw2path4hca.opensm-subnet.lst", "2sw2path4hca.guid2lid"}) {
    Fabric sim = read_fabric(testdata("net.2sw2path4hca"));
    apply_lid_file(sim, testdata(file));
    expect_same_fabric(sim, seen, file);
  }
}

TEST(LidFile, Errors) {
  Fabric f = read_fabric(testdata("net.2sw2path4hca"));
  const std::string dir = ::testing::TempDir();
  auto write = [&](const std::string& text) {
    const std::string path = dir + "/lids";
    std::FILE* out = std::fopen(path.c_str(), "w");
    std::fputs(text.c_str(), out);
    std::fclose(out);
    return path;
  };
  std::string path = write("0x0000000000100001 0x0002 0x0002\n0x0000000000100001 3\n");
  EXPECT_EQ(input_error([&] { apply_lid_file(f, path); }),
            path + ":2: expected \"0xGUID LID LID\": 0x0000000000100001 3");
  path = write("0x0000000000100001 0x0004 0x0006\n");
  EXPECT_EQ(input_error([&] { apply_lid_file(f, path); }),
            path + ":1: LID range is not an aligned LMC block: 0x0000000000100001 0x0004 0x0006");
  path = write("0x0000000000100001 0x0002 0x0002\n0x0000000000100004 0x0002 0x0002\n");
  EXPECT_NE(input_error([&] { apply_lid_file(f, path); }).find("LID 2 is assigned to both"),
            std::string::npos);
  // Unknown GUIDs and unlisted ports are warnings.
  Fabric g = read_fabric(testdata("net.2sw2path4hca"));
  path = write("0x0000000000100001 0x0004 0x0007\n0x0000000000abcdef 0x0010 0x0010\n");
  apply_lid_file(g, path);
  EXPECT_EQ(g.node(*g.find_by_name("Hca1")).ports[1].lmc, 2);
  ASSERT_EQ(g.warnings.size(), 2u);
  EXPECT_EQ(g.warnings[0], path + ": 1 port GUIDs are not in the fabric");
  EXPECT_EQ(g.warnings[1], path + ": 3 cabled CA ports have no LID in this file");
  EXPECT_EQ(input_error([&] { apply_lid_file(g, dir + "/nonexistent"); }),
            dir + "/nonexistent: no such file");
}

}  // namespace
}  // namespace psssp
