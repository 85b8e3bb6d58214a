// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <gtest/gtest.h>

#include "formats/fabric_io.h"
#include "test_support.h"

namespace psssp {
namespace {

using testing::input_error;
using testing::replaced;
using testing::testdata;

TEST(Ibnetdiscover, ManPageSample) {
  const Fabric f = read_fabric(testdata("public-1.topo"));
  EXPECT_EQ(f.switches().size(), 2u);
  EXPECT_EQ(f.node_count(), 6u);
  const NodeId sw = *f.find_by_name("S-005442ba00003080");
  const Node& n = f.node(sw);
  EXPECT_EQ(n.description, "ISR9024 Voltaire");
  EXPECT_EQ(n.guid, 0x5442ba00003080u);
  EXPECT_EQ(n.system_image_guid, 0x5442ba00003000u);
  EXPECT_EQ(n.num_ports(), 24);
  EXPECT_EQ(n.ports[0].lid, 6);
  // [10] "S-0008f10400410015"[1] # ... 1xSDR
  const PortRef other = n.ports[10].remote;
  EXPECT_EQ(f.node(other.node).name, "S-0008f10400410015");
  EXPECT_EQ(other.port, 1);
  EXPECT_EQ(n.ports[10].rate, (LinkRate{LinkWidth::x1, LinkSpeed::sdr}));
  // CA port: GUID and LID from its own line, LMC 1.
  const NodeId ca = *f.find_by_name("H-0008f10403960558");
  EXPECT_EQ(f.node(ca).ports[2].guid, 0x8f1040396055au);
  EXPECT_EQ(f.node(ca).ports[2].lid, 14);
  EXPECT_EQ(f.node(ca).ports[2].lmc, 1);
  EXPECT_EQ(f.port_of_lid(15), (PortRef{ca, 2}));
  EXPECT_EQ(f.find_port_by_guid(0x8f10403960559u), (PortRef{ca, 1}));
  EXPECT_EQ(f.host_ports().size(), 5u);
  // Both ends of H-..0558[1] / S-..3080[12] disagree on the width: a warning.
  bool warned = false;
  for (const auto& w : f.warnings) warned |= w.find("disagree on its rate") != std::string::npos;
  EXPECT_TRUE(warned);
}

TEST(Ibnetdiscover, MixedFabric) {
  const Fabric f = read_fabric(testdata("public-2.topo"));
  EXPECT_EQ(f.switches().size(), 1u);
  EXPECT_EQ(f.host_ports().size(), 2u);
  const NodeId ca = *f.find_by_name("H-0002c9030002847c");
  EXPECT_EQ(f.node(ca).description, "compute-00-00 HCA-1");
  EXPECT_EQ(f.node(ca).ports[2].lid, 2);
  EXPECT_FALSE(f.node(ca).ports[1].connected());
}

TEST(Ibnetdiscover, StderrBeforeHeaderSelfLoopsAndSpeeds) {
  const Fabric f = read_fabric(testdata("public-3.topo"));
  EXPECT_EQ(f.switches().size(), 2u);
  EXPECT_EQ(f.node_count(), 8u);
  const NodeId sw = *f.find_by_guid(0xe41d2d030003e470u);
  const Node& n = f.node(sw);
  EXPECT_EQ(n.ports[1].remote, (PortRef{sw, 2}));
  EXPECT_EQ(n.ports[3].rate.speed, LinkSpeed::fdr);
  EXPECT_EQ(n.ports[34].rate.speed, LinkSpeed::edr);
  EXPECT_EQ(f.node(*f.find_by_guid(0xf4521403005764b0u)).ports[2].rate.speed, LinkSpeed::qdr);
  EXPECT_EQ(f.node(*f.find_by_guid(0xf4521403005764b0u)).description,
            "MF0;switch-de779e:SX6012/U1");
  // index() reports the self-cabled switch ports.
  std::size_t self = 0;
  for (const auto& w : f.warnings) self += w.find("cabled to the same node") != std::string::npos;
  EXPECT_EQ(self, 3u);
  // A CA whose port GUID equals its node GUID.
  EXPECT_EQ(f.find_port_by_guid(0xe41d2d030061f957u)->port, 1);
}

TEST(Ibnetdiscover, OldCapture) {
  const Fabric f = read_fabric(testdata("public-4.topo"));
  EXPECT_EQ(f.node_count(), 2u);
  EXPECT_EQ(f.node(*f.find_by_guid(0x21283a8389a0a0u)).ports[23].rate,
            (LinkRate{LinkWidth::x4, LinkSpeed::qdr}));
  EXPECT_EQ(f.max_lid(), 15);
}

TEST(Ibnetdiscover, IbsimCaptureWithGrouping) {
  for (const char* name : {"2sw2path4hca.ibnetdiscover", "2sw2path4hca.ibnetdiscover-g"}) {
    const Fabric f = read_fabric(testdata(name));
    EXPECT_EQ(f.switches().size(), 2u) << name;
    EXPECT_EQ(f.host_ports().size(), 4u) << name;
    EXPECT_EQ(f.node(*f.find_by_guid(0x200000)).description, "Switch1");
    EXPECT_EQ(f.port_of_lid(6), (PortRef{*f.find_by_guid(0x100009), 1}));
    EXPECT_TRUE(f.warnings.empty()) << f.warnings.front();
  }
}

TEST(Ibnetdiscover, ChassisAnnotationsAndUnknownSpeed) {
  const std::string text =
      "Chassis 1 (guid 0x8f104004121d4)\n\n# Spine Nodes\n"
      "vendid=0x8f1\ndevid=0x5a31\nsysimgguid=0x8f104004121d4\t\t# Chassis 1 (ISR9288)\n"
      "switchguid=0x8f104004121d4(8f104004121d4)\t# ISR9288/ISR9096 Voltaire sFB-12D Spine 1\n"
      "Switch\t24 \"S-0008f104004121d4\"\t\t# \"ISR9288 \"spine\" 1\" base port 0 lid 1 lmc 0\n"
      "[1][ext 3]\t\"H-0000000000100000\"[1](100001) \t\t# \"h\" lid 2 4x???\n"
      "\nNon-Chassis Nodes\n\n"
      "caguid=0x100000\nCa\t1 \"H-0000000000100000\"\t\t# \"h\"\n"
      "[1](100001) \t\"S-0008f104004121d4\"[1][ext 3]\t\t# lid 2 lmc 0 \"x\" lid 1 ??\n";
  const Fabric f = parse_fabric(text, "chassis");
  const Node& sw = f.node(*f.find_by_name("S-0008f104004121d4"));
  EXPECT_EQ(sw.description, "ISR9288 \"spine\" 1");
  // "4x???" on one end and "??" on the other: the known width survives.
  EXPECT_EQ(sw.ports[1].rate, (LinkRate{LinkWidth::x4, LinkSpeed::unknown}));
  EXPECT_TRUE(f.warnings.empty());
  EXPECT_EQ(f.host_ports().size(), 1u);
}

// Malformed variants of a real capture: each error names file:line and the line.
class IbnetdiscoverErrors : public ::testing::Test {
 protected:
  std::string text = read_file(testdata("public-2.topo"));
  std::string error_for(const std::string& changed) {
    return input_error([&] { parse_fabric(changed, "x.topo"); });
  }
};

TEST_F(IbnetdiscoverErrors, TruncatedLinkLine) {
  EXPECT_EQ(error_for(replaced(text,
                               "[1]     \"H-0002c902002789ac\"[1](2c902002789ad)          # "
                               "\"compute-00-01 HCA-1\" lid 1 4xSDR",
                               "[1]     \"H-0002c90")),
            "x.topo:11: missing or unterminated \"remote node id\": [1]     \"H-0002c90");
}

TEST_F(IbnetdiscoverErrors, TruncatedAtEndOfFile) {
  const std::string cut = text.substr(0, text.rfind("[2](2c9030002847e)") + 6);
  EXPECT_EQ(error_for(cut), "x.topo:26: unterminated port GUID: [2](2c");
}

TEST_F(IbnetdiscoverErrors, MissingRemotePort) {
  EXPECT_EQ(error_for(replaced(text, "\"S-000b8cffff0053ee\"[1]", "\"S-000b8cffff0053ee\"")),
            "x.topo:19: missing [remote port]: [1](2c902002789ad)      \"S-000b8cffff0053ee\" "
            "        # lid 1 lmc 0 \"MT43132 Mellanox Technologies\" lid 3 4xSDR");
}

TEST_F(IbnetdiscoverErrors, BadGuid) {
  EXPECT_EQ(error_for(replaced(text, "caguid=0x2c902002789ac", "caguid=0x2c90200278g9ac")),
            "x.topo:17: bad CA GUID: caguid=0x2c90200278g9ac");
  EXPECT_EQ(error_for(replaced(text, "caguid=0x2c902002789ac", "caguid=0x12345678901234567")),
            "x.topo:17: bad CA GUID: caguid=0x12345678901234567");
  EXPECT_EQ(error_for(replaced(text, "[1](2c902002789ad)", "[1](0)")),
            "x.topo:11: zero remote port GUID: [1]     \"H-0002c902002789ac\"[1](0)          # "
            "\"compute-00-01 HCA-1\" lid 1 4xSDR");
  // Both ends state the CA port's GUID; they must agree.
  const std::string other_guid =
      replaced(text, "[1](2c902002789ad)      \"S-", "[1](2c902002789ae)      \"S-");
  EXPECT_EQ(error_for(other_guid),
            "x.topo:11: port GUID 0x0002c902002789ad of \"H-0002c902002789ac\"[1] differs from "
            "0x0002c902002789ae given elsewhere: [1]     \"H-0002c902002789ac\"[1](2c902002789ad)  "
            "        # \"compute-00-01 HCA-1\" lid 1 4xSDR");
}

TEST_F(IbnetdiscoverErrors, PortOutOfRange) {
  EXPECT_EQ(
      error_for(replaced(text, "[2]     \"H-0002c9030002847c\"", "[9]     \"H-0002c9030002847c\"")),
      "x.topo:12: port 9 outside 1..8 of \"S-000b8cffff0053ee\": [9]     "
      "\"H-0002c9030002847c\"[2](2c9030002847e)          # \"compute-00-00 HCA-1\" lid 2 4xSDR");
  EXPECT_EQ(error_for(replaced(text, "\"S-000b8cffff0053ee\"[1]", "\"S-000b8cffff0053ee\"[12]")),
            "x.topo:19: remote port 12 of \"S-000b8cffff0053ee\" outside 1..8: "
            "[1](2c902002789ad)      \"S-000b8cffff0053ee\"[12]         # lid 1 lmc 0 "
            "\"MT43132 Mellanox Technologies\" lid 3 4xSDR");
}

TEST_F(IbnetdiscoverErrors, DuplicateNode) {
  const std::string dup = text + "\ncaguid=0x1234\nCa 1 \"H-0002c902002789ac\" # \"again\"\n";
  EXPECT_EQ(error_for(dup),
            "x.topo:29: duplicate node \"H-0002c902002789ac\" (first defined at line 18): Ca 1 "
            "\"H-0002c902002789ac\" # \"again\"");
  const std::string dup_guid = text + "\ncaguid=0x2c902002789ac\nCa 1 \"H-other\" # \"again\"\n";
  EXPECT_EQ(error_for(dup_guid),
            "x.topo:29: duplicate node GUID 0x0002c902002789ac (also \"H-0002c902002789ac\" at "
            "line 18): Ca 1 \"H-other\" # \"again\"");
}

TEST_F(IbnetdiscoverErrors, DanglingLink) {
  EXPECT_EQ(error_for(replaced(text, "\"H-0002c902002789ac\"[1]", "\"H-0002c902002789ff\"[1]")),
            "x.topo:11: link to \"H-0002c902002789ff\", which is never defined: [1]     "
            "\"H-0002c902002789ff\"[1](2c902002789ad)          # \"compute-00-01 HCA-1\" lid 1 "
            "4xSDR");
}

TEST_F(IbnetdiscoverErrors, InconsistentLinkEnds) {
  EXPECT_EQ(error_for(replaced(text, "\"H-0002c902002789ac\"[1](2c902002789ad)",
                               "\"H-0002c9030002847c\"[1](2c902002789ad)")),
            "x.topo:11: \"H-0002c9030002847c\" (line 25) does not list port 1 as cabled back to "
            "\"S-000b8cffff0053ee\"[1]: [1]     \"H-0002c9030002847c\"[1](2c902002789ad)          "
            "# \"compute-00-01 HCA-1\" lid 1 4xSDR");
  // Both ends exist but point elsewhere.
  const std::string crossed =
      replaced(text, "\"S-000b8cffff0053ee\"[2]", "\"S-000b8cffff0053ee\"[1]");
  EXPECT_EQ(error_for(crossed),
            "x.topo:12: inconsistent link ends: \"S-000b8cffff0053ee\"[2] -> "
            "\"H-0002c9030002847c\"[2], but line 26 has \"H-0002c9030002847c\"[2] -> "
            "\"S-000b8cffff0053ee\"[1]: [2]     \"H-0002c9030002847c\"[2](2c9030002847e)        "
            "  # \"compute-00-00 HCA-1\" lid 2 4xSDR");
}

TEST_F(IbnetdiscoverErrors, BadHeaderAndComment) {
  EXPECT_EQ(error_for(replaced(text, "Switch  8 \"S-000b8cffff0053ee\"", "Switch  8")),
            "x.topo:10: missing or unterminated \"node id\": Switch  8          # \"MT43132 "
            "Mellanox Technologies\" base port 0 lid 3 lmc 0");
  EXPECT_EQ(error_for(replaced(text, "Switch  8 ", "Switch  300 ")),
            "x.topo:10: port count 300 outside 1..254: Switch  300 \"S-000b8cffff0053ee\"       "
            "   # \"MT43132 Mellanox Technologies\" base port 0 lid 3 lmc 0");
  EXPECT_EQ(error_for(replaced(text, "lid 1 4xSDR", "lid 1 5xSDR")),
            "x.topo:11: bad link width/speed \"5xSDR\": [1]     "
            "\"H-0002c902002789ac\"[1](2c902002789ad)          # \"compute-00-01 HCA-1\" lid 1 "
            "5xSDR");
  EXPECT_EQ(error_for(replaced(text, "lid 3 lmc 0", "lid 99999 lmc 0")),
            "x.topo:10: bad switch LID: Switch  8 \"S-000b8cffff0053ee\"          # \"MT43132 "
            "Mellanox Technologies\" base port 0 lid 99999 lmc 0");
}

TEST_F(IbnetdiscoverErrors, EmptyAndJunk) {
  EXPECT_EQ(input_error([] { parse_fabric("", "e"); }),
            "e: not an ibnetdiscover, ibsim net or opensm-subnet.lst file (empty)");
  EXPECT_EQ(input_error([] { parse_fabric("hello\nworld\n", "j"); }),
            "j: not an ibnetdiscover, ibsim net or opensm-subnet.lst file");
}

}  // namespace
}  // namespace psssp
