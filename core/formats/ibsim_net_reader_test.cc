// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "formats/fabric_io.h"
#include "test_support.h"

namespace psssp {
namespace {

using testing::expect_same_fabric;
using testing::input_error;
using testing::replaced;
using testing::testdata;

TEST(IbsimNet, DetectedAsIbsim) {
  EXPECT_EQ(detect_fabric_format(read_file(testdata("net.2sw2path4hca")), "n"),
            FabricFormat::ibsim_net);
  EXPECT_EQ(detect_fabric_format(read_file(testdata("tree2.net")), "n"), FabricFormat::ibsim_net);
}

// The GUIDs ibsim hands out, checked against ibnetdiscover run on the same
// simulated fabric; the LIDs OpenSM gave come from its guid2lid cache.
TEST(IbsimNet, MatchesIbnetdiscoverOfTheSimulatedFabric) {
  for (const std::string base : {"2sw2path4hca", "tree2", "tree2-lmc2"}) {
    const std::string net = base == "2sw2path4hca" ? "net.2sw2path4hca" : "tree2.net";
    Fabric sim = read_fabric(testdata(net));
    const Fabric seen = read_fabric(testdata(base + ".ibnetdiscover"));
    expect_same_fabric(sim, seen, base + " without LIDs", false);
    apply_lid_file(sim, testdata(base + ".guid2lid"));
    expect_same_fabric(sim, seen, base);
    EXPECT_TRUE(sim.warnings.empty()) << sim.warnings.front();
  }
}

TEST(IbsimNet, GuidRule) {
  const Fabric f = read_fabric(testdata("tree2.net"));
  // CAs from 0x100000, each taking ports+1 GUIDs; switches from 0x200000.
  const Node& h1 = f.node(*f.find_by_name("h1"));
  EXPECT_EQ(h1.guid, 0x100000u);
  EXPECT_EQ(h1.ports[2].guid, 0x100002u);
  EXPECT_EQ(f.node(*f.find_by_name("h2")).guid, 0x100003u);
  EXPECT_EQ(f.node(*f.find_by_name("spine2")).guid, 0x200003u);
  EXPECT_EQ(f.node(*f.find_by_name("leaf1")).ports[0].guid, 0x200000u);
  // w=1 on both ends: a 1x cable; the rest 4xSDR.
  const Node& leaf2 = f.node(*f.find_by_name("leaf2"));
  EXPECT_EQ(leaf2.ports[3].rate, (LinkRate{LinkWidth::x1, LinkSpeed::sdr}));
  EXPECT_EQ(leaf2.ports[1].rate, (LinkRate{LinkWidth::x4, LinkSpeed::sdr}));
  EXPECT_EQ(leaf2.description, "leaf2");
}

TEST(IbsimNet, GuidBasesWidthSpeedAndFileLids) {
  const std::string text =
      "switchguid=0x5000\ncaguid=0x9000\nspeed=7\n"
      "Hca 2 \"a\" # \"host a\"\n[1] \"s\"[1] # lid 8 lmc 1\n[2] \"s\"[2] w=8 s=2\n\n"
      "switchguid+0x10\n"
      "Switch 4 \"s\" # \"the switch\" enhanced port 0 lid 3 lmc 0\n"
      "[1] \"a\"[1]\n[2] \"a\"[2] w=15 s=7\n[4] \"r\"\n\n"
      "Rt 1 \"r\"\n[1] \"s\"[4]\n";
  const Fabric f = parse_fabric(text, "g.net");
  const Node& a = f.node(*f.find_by_name("a"));
  EXPECT_EQ(a.guid, 0x9000u);
  EXPECT_EQ(a.description, "host a");
  EXPECT_EQ(a.ports[1].lid, 8);
  EXPECT_EQ(a.ports[1].lmc, 1);
  EXPECT_EQ(a.ports[1].rate, (LinkRate{LinkWidth::x4, LinkSpeed::qdr}));  // speed=7 both ends
  EXPECT_EQ(a.ports[2].rate, (LinkRate{LinkWidth::x12, LinkSpeed::ddr}));
  const Node& s = f.node(*f.find_by_name("s"));
  EXPECT_EQ(s.guid, 0x5010u);  // relative to the last absolute base
  EXPECT_EQ(s.ports[0].lid, 3);
  // Ports without a LID in the file: in file order after the highest given
  // (8 with LMC 1 -> 9). Router GUIDs start at 0 in ibsim.
  EXPECT_EQ(a.ports[2].lid, 10);
  const Node& r = f.node(*f.find_by_name("r"));
  EXPECT_EQ(r.ports[1].guid, 1u);
  EXPECT_EQ(r.ports[1].lid, 11);
}

// Extended speeds, 2x, and the "lid N 4xQDR" rate at the end of a port line
// (ibnetdiscover syntax, which ibsim also reads): the highest width and
// speed both ends enable, as ibsim's get_active_link* pick them.
TEST(IbsimNet, ExtendedSpeedsAndIbnetdiscoverRates) {
  const std::string text =
      "Switch 8 \"s\"\n"
      "[1] \"a\"[1] w=2 s=4 e=2\n"
      "[2] \"b\"[1] w=16 s=4\n"
      "[3] \"c\"[1] # \"host c\" lid 7 12xHDR\n"
      "[4] \"d\"[1] # \"host d\" lid 9 4xEDR\n"
      "[5] \"e\"[1] w=2 s=4 e=1\n\n"
      "extspeed=3\n"
      "Hca 1 \"a\"\n[1] \"s\"[1] w=3 s=7\n\n"
      "Hca 1 \"b\"\n[1] \"s\"[2] w=31 s=7\n\n"
      "Hca 1 \"c\"\n[1] \"s\"[3] # lid 4 lmc 0 \"s\" lid 1 4xHDR\n\n"
      "Hca 1 \"d\"\n[1] \"s\"[4] # lid 5 lmc 0 \"s\" lid 1 4xFDR\n\n"
      "Hca 1 \"e\"\n[1] \"s\"[5] w=2 s=4 e=2\n";
  const Fabric f = parse_fabric(text, "x.net");
  const Node& s = f.node(*f.find_by_name("s"));
  EXPECT_EQ(s.ports[1].rate, (LinkRate{LinkWidth::x4, LinkSpeed::edr}));
  EXPECT_EQ(s.ports[2].rate, (LinkRate{LinkWidth::x2, LinkSpeed::qdr}));
  EXPECT_EQ(s.ports[3].rate, (LinkRate{LinkWidth::x4, LinkSpeed::hdr}));  // 12x end meets 4x
  EXPECT_EQ(s.ports[4].rate, (LinkRate{LinkWidth::x4, LinkSpeed::fdr}));  // EDR end meets FDR
  EXPECT_EQ(s.ports[5].rate, (LinkRate{LinkWidth::x4, LinkSpeed::qdr}));  // no common ext speed
}

// The number reader let a single digit above its limit through when the
// limit was below 9 (lmc 8 and lmc 9 passed a limit of 7; lmc 99 then
// shifted 1u by 99). Every bound is checked at its edge.
TEST(IbsimNet, LmcBoundsAtTheEdge) {
  const std::string text =
      "Hca 1 \"a\"\n[1] \"s\"[1] # lid 128 lmc LMC\n\n"
      "Switch 2 \"s\" # \"s\" enhanced port 0 lid 3 lmc 0\n[1] \"a\"[1]\n";
  EXPECT_EQ(parse_fabric(replaced(text, "LMC", "7"), "l.net").node(0).ports[1].lmc, 7);
  for (const char* bad : {"8", "9", "99", "18446744073709551616"}) {
    const std::string message =
        input_error([&] { parse_fabric(replaced(text, "LMC", bad), "l.net"); });
    EXPECT_NE(message.find("l.net:2"), std::string::npos) << bad << ": " << message;
  }
}

TEST(IbsimNet, BaseLidAlignedToLmc) {
  const std::string text =
      "Hca 1 \"a\"\n[1] \"s\"[1] # lid BASE lmc 2\n\n"
      "Switch 2 \"s\" # \"s\" enhanced port 0 lid 3 lmc 0\n[1] \"a\"[1]\n";
  EXPECT_EQ(parse_fabric(replaced(text, "BASE", "8"), "l.net").node(0).ports[1].lid, 8);
  const std::string message =
      input_error([&] { parse_fabric(replaced(text, "BASE", "6"), "l.net"); });
  EXPECT_NE(message.find("l.net: base LID 6"), std::string::npos) << message;
  EXPECT_NE(message.find("not a multiple of 2^LMC = 4"), std::string::npos) << message;
}

TEST(IbsimNet, IncludeAndDo) {
  std::string dir = ::testing::TempDir();
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  { std::ofstream(dir + "/part.net") << "Switch 2 \"sw\"\n[1] \"h\"[1]\n"; }
  const std::string text = "do link sw 1\ninclude \"part.net\"\n\nHca 1 \"h\"\n[1] \"sw\"[1]\n";
  const Fabric f = parse_fabric(text, dir + "/main.net");
  EXPECT_EQ(f.node_count(), 2u);
  ASSERT_EQ(f.warnings.size(), 1u);
  EXPECT_NE(f.warnings[0].find("console command not simulated"), std::string::npos);
  EXPECT_EQ(
      input_error([&] { parse_fabric("include \"missing.net\"\nHca 1 \"h\"\n", dir + "/m.net"); }),
      dir + "/m.net:1: " + dir + "/missing.net: no such file: include \"missing.net\"");
  // An error inside an included file names that file.
  { std::ofstream(dir + "/bad.net") << "Switch 2 \"sw\"\n[3] \"h\"[1]\n"; }
  EXPECT_EQ(input_error([&] { parse_fabric("include \"bad.net\"\n", dir + "/main.net"); }),
            dir + "/bad.net:2: port 3 outside 1..2 of \"sw\": [3] \"h\"[1]");
  // Self-inclusion stops at ibsim's depth limit.
  { std::ofstream(dir + "/loop.net") << "include \"loop.net\"\n"; }
  EXPECT_NE(input_error([&] {
              parse_fabric("include \"loop.net\"\n", dir + "/main.net");
            }).find("includes nested too deeply"),
            std::string::npos);
}

class IbsimNetErrors : public ::testing::Test {
 protected:
  std::string text = read_file(testdata("net.2sw2path4hca"));
  std::string error_for(const std::string& changed) {
    return input_error([&] { parse_fabric(changed, "n.net"); });
  }
};

TEST_F(IbsimNetErrors, Records) {
  EXPECT_EQ(error_for(replaced(text, "Switch\t8 \"Switch1\"", "Switch\t8 \"Switch1")),
            "n.net:21: missing or unterminated \"node id\": Switch\t8 \"Switch1");
  EXPECT_EQ(error_for(replaced(text, "Hca\t2 \"Hca2\"", "Hca\t2 \"Hca1\"")),
            "n.net:36: duplicate node \"Hca1\" (first defined at line 33): Hca\t2 \"Hca1\"");
  EXPECT_EQ(error_for(replaced(text, "Hca\t2 \"Hca1\"", "Hca\t0 \"Hca1\"")),
            "n.net:33: bad port count (1..254): Hca\t0 \"Hca1\"");
  EXPECT_EQ(error_for(replaced(text, "[1]\t\"Hca1\"[1]", "[9]\t\"Hca1\"[1]")),
            "n.net:22: port 9 outside 1..8 of \"Switch1\": [9]\t\"Hca1\"[1]");
  EXPECT_EQ(error_for(replaced(text, "[1]\t\"Hca1\"[1]", "[1]\t\"Hca9\"[1]")),
            "n.net:22: link to \"Hca9\", which is never defined: [1]\t\"Hca9\"[1]");
  EXPECT_EQ(error_for(replaced(text, "[1]\t\"Hca1\"[1]", "[1]\t\"Hca1\"[2]")),
            "n.net:22: \"Hca1\" (line 33) does not list port 2 as cabled back to \"Switch1\"[1]: "
            "[1]\t\"Hca1\"[2]");
  EXPECT_EQ(error_for(replaced(text, "[1]\t\"Hca1\"[1]", "[1]\t\"Hca1\"[1] w=1")),
            "n.net:22: the two ends enable no common link width (ibsim refuses this): "
            "[1]\t\"Hca1\"[1] w=1");
  EXPECT_EQ(error_for(replaced(text, "[1]\t\"Hca1\"[1]", "[1]\t\"Hca1\"[1] x=1")),
            "n.net:22: bad port option (w=1..31, s=1..7 or e=0..15): [1]\t\"Hca1\"[1] x=1");
  EXPECT_EQ(error_for(text + "\nmodule=\"m\"\n"),
            "n.net:45: ibsim module prefixes are not supported: module=\"m\"");
}

}  // namespace
}  // namespace psssp
