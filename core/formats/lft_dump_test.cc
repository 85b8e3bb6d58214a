// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <gtest/gtest.h>

#include <sstream>

#include "formats/lft_io.h"
#include "test_support.h"

namespace psssp {
namespace {

using testing::input_error;
using testing::replaced;
using testing::testdata;

// Every dump of one simulated fabric reads into the same tables: OpenSM's
// own dump, dump_fts (DR-path headers), dump_fts -n, and ibroute for the
// first switch.
TEST(LftDump, AllDumpFormatsAgree) {
  for (const std::string base : {"2sw2path4hca", "tree2", "tree2-lmc2"}) {
    const Fabric f = read_fabric(testdata(base + ".ibnetdiscover"));
    const ForwardingTables opensm = read_lfts(testdata(base + ".opensm-lfts.dump"), f);
    EXPECT_EQ(read_lfts(testdata(base + ".dump_fts"), f), opensm) << base;
    EXPECT_EQ(read_lfts(testdata(base + ".dump_fts-n"), f), opensm) << base;
    const ForwardingTables one = read_lfts(testdata(base + ".ibroute"), f);
    for (std::size_t r = 0; r < one.switch_count(); ++r) {
      const NodeId sw = one.switch_at(r);
      for (Lid lid = 0; lid < one.lid_count(); ++lid)
        EXPECT_EQ(one.get(sw, lid), sw == *f.find_by_guid(0x200000) ? opensm.get(sw, lid) : kNoPath)
            << base << " lid " << lid;
    }
  }
}

TEST(LftDump, ValuesOfTheRealDump) {
  const Fabric f = read_fabric(testdata("tree2-lmc2.ibnetdiscover"));
  const ForwardingTables t = read_lfts(testdata("tree2-lmc2.dump_fts"), f);
  const NodeId leaf2 = *f.find_by_guid(0x200001);
  EXPECT_EQ(t.get(leaf2, 0x0c), 4);  // h1 port 2 is cabled to leaf2 port 4
  EXPECT_EQ(t.get(leaf2, 0x0f), 4);  // "(path #4 out of 4 ...)"
  EXPECT_EQ(t.get(leaf2, 0x09), 0);  // itself
  EXPECT_EQ(t.get(leaf2, 0x0a), kNoPath);
}

// The writer reproduces OpenSM's opensm-lfts.dump byte for byte.
TEST(LftDump, WriterMatchesOpenSMByteForByte) {
  for (const std::string base : {"2sw2path4hca", "tree2", "tree2-lmc2"}) {
    const Fabric f = read_fabric(testdata(base + ".ibnetdiscover"));
    const std::string original = read_file(testdata(base + ".opensm-lfts.dump"));
    const ForwardingTables t = parse_lfts(original, base, f);
    std::ostringstream out;
    write_lfts(out, f, t);
    EXPECT_EQ(out.str(), original) << base;
    EXPECT_EQ(parse_lfts(out.str(), "again", f), t) << base;
  }
}

// Entries with a port GUID follow that port to its LID in the bound fabric,
// as OpenSM's file engine does.
TEST(LftDump, PortGuidsRemapLids) {
  Fabric f = read_fabric(testdata("tree2.ibnetdiscover"));
  const ForwardingTables before = read_lfts(testdata("tree2.opensm-lfts.dump"), f);
  // Same fabric with the LMC-2 LIDs: the LMC-0 dump lands on the new base LIDs.
  const Fabric g = read_fabric(testdata("tree2-lmc2.ibnetdiscover"));
  const ForwardingTables moved = read_lfts(testdata("tree2.opensm-lfts.dump"), g);
  const NodeId leaf1 = *f.find_by_guid(0x200000);
  const Lid h3_old = f.port(*f.find_port_by_guid(0x100006)).lid;
  const Lid h3_new = g.port(*g.find_port_by_guid(0x100006)).lid;
  ASSERT_NE(h3_old, h3_new);
  EXPECT_EQ(moved.get(*g.find_by_guid(0x200000), h3_new), before.get(leaf1, h3_old));
  EXPECT_EQ(moved.get(*g.find_by_guid(0x200000), h3_new + 1), kNoPath);
}

class LftErrors : public ::testing::Test {
 protected:
  Fabric f = read_fabric(testdata("2sw2path4hca.ibnetdiscover"));
  std::string text = read_file(testdata("2sw2path4hca.opensm-lfts.dump"));
  std::string fts = read_file(testdata("2sw2path4hca.dump_fts"));
  std::string error_for(const std::string& changed) {
    return input_error([&] { parse_lfts(changed, "l.dump", f); });
  }
};

TEST_F(LftErrors, UnknownSwitch) {
  EXPECT_EQ(
      error_for(replaced(text, "Lid 3 guid 0x0000000000200001", "Lid 3 guid 0x0000000000200009")),
      "l.dump:9: unknown switch GUID 0x0000000000200009 (not in the fabric): Unicast lids "
      "[0-6] of switch Lid 3 guid 0x0000000000200009 ('Switch2'):");
  EXPECT_EQ(error_for(replaced(fts, "guid 0x0000000000200001", "guid 0x0000000000100000")),
            "l.dump:1: \"Hca1\" (0x0000000000100000) is not a switch: Unicast lids [0x0-0x6] of "
            "switch DR path slid 0; dlid 0; 0,3 guid 0x0000000000100000 (Switch2):");
}

TEST_F(LftErrors, LidHeaderWithoutGuid) {
  // An ibroute header without a GUID is bound by the switch's LID.
  const std::string by_lid = replaced(text, "Lid 3 guid 0x0000000000200001 ('Switch2')", "Lid 3");
  EXPECT_EQ(parse_lfts(by_lid, "l", f), parse_lfts(text, "l", f));
  EXPECT_EQ(error_for(replaced(text, "Lid 3 guid 0x0000000000200001 ('Switch2')", "Lid 2")),
            "l.dump:9: \"Hca1\" (0x0000000000100000) is not a switch: Unicast lids [0-6] of "
            "switch Lid 2:");
  EXPECT_EQ(error_for(replaced(fts, " guid 0x0000000000200001 (Switch2)", "")),
            "l.dump:1: table header names neither a switch GUID nor a LID: Unicast lids "
            "[0x0-0x6] of switch DR path slid 0; dlid 0; 0,3:");
}

TEST_F(LftErrors, Entries) {
  EXPECT_EQ(error_for(replaced(text, "0x0002 001 #", "0x0002 009 #")),
            "l.dump:3: port 9 beyond the 8 ports of \"Switch1\" (0x0000000000200000): 0x0002 009 "
            "# Channel Adapter portguid 0x0000000000100001: 'Hca1'");
  EXPECT_EQ(error_for(replaced(text, "0x0002 001 #", "0x0002 #")),
            "l.dump:3: bad output port: 0x0002 # Channel Adapter portguid 0x0000000000100001: "
            "'Hca1'");
  EXPECT_EQ(error_for(replaced(text, "portguid 0x0000000000100001", "portguid 0x0000000000100002")),
            "l.dump:3: unknown port GUID 0x0000000000100002 (not in the fabric): 0x0002 001 # "
            "Channel Adapter portguid 0x0000000000100002: 'Hca1'");
  EXPECT_EQ(error_for(replaced(text, "6 lids dumped\n", "6 lids dumped\n0x0001 001\n")),
            "l.dump:9: LFT entry outside a switch table: 0x0001 001");
  EXPECT_EQ(
      error_for(replaced(fts, "0x0004 001 : (Channel Adapter portguid 0x0000000000100004: 'Hca2')",
                         "0x0040 001")),
      "l.dump:7: LID 64 beyond the fabric's highest LID 6: 0x0040 001");
  EXPECT_EQ(error_for(replaced(text, "0x0003 003 #", "0x0003 003 junk")),
            "l.dump:4: unexpected text after the port: 0x0003 003 junk Switch portguid "
            "0x0000000000200001: 'Switch2'");
  EXPECT_EQ(error_for(replaced(text, "Unicast lids [0-6] of switch Lid 3",
                               "Unicast lids [0-6 of switch Lid 3")),
            "l.dump:9: bad LID range in table header: Unicast lids [0-6 of switch Lid 3 guid "
            "0x0000000000200001 ('Switch2'):");
  EXPECT_EQ(error_for(text + text),
            "l.dump:17: second table for switch \"Switch1\" (0x0000000000200000): "
            "Unicast lids [0-6] of switch Lid 1 guid 0x0000000000200000 ('Switch1'):");
  EXPECT_EQ(error_for("garbage\n"), "l.dump:1: unrecognised line: garbage");
  EXPECT_EQ(error_for(""), "l.dump: no \"Unicast lids\" switch tables found");
}

// LMC paths of a dump taken with LMC 2 collapse onto the single LID each
// port has in an LMC-0 fabric, like OpenSM's remap_lid: offset = LID & 0.
TEST(LftDump, LmcPathsCollapseIntoSmallerRange) {
  const Fabric f = read_fabric(testdata("tree2.ibnetdiscover"));  // LMC 0
  const Fabric g = read_fabric(testdata("tree2-lmc2.ibnetdiscover"));
  const ForwardingTables lmc2 = read_lfts(testdata("tree2-lmc2.dump_fts"), g);
  const ForwardingTables t = read_lfts(testdata("tree2-lmc2.dump_fts"), f);
  const NodeId leaf2f = *f.find_by_guid(0x200001), leaf2g = *g.find_by_guid(0x200001);
  for (const Guid port : {0x100001u, 0x100002u, 0x100004u, 0x100006u, 0x100008u})
    EXPECT_EQ(t.get(leaf2f, f.port(*f.find_port_by_guid(port)).lid),
              lmc2.get(leaf2g, g.port(*g.find_port_by_guid(port)).lid))
        << port;
}

}  // namespace
}  // namespace psssp
