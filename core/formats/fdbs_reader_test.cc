// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <gtest/gtest.h>

#include "formats/lft_io.h"
#include "test_support.h"

namespace psssp {
namespace {

using testing::input_error;
using testing::replaced;
using testing::testdata;

// OpenSM's opensm.fdbs and opensm-lfts.dump of the same run hold the same
// port for every LID a port owns (.fdbs says UNREACHABLE for the others),
// read by parse_lfts as by parse_fdbs.
TEST(Fdbs, AgreesWithOpenSMLftsDump) {
  for (const std::string base : {"2sw2path4hca", "tree2", "tree2-lmc2"}) {
    const Fabric f = read_fabric(testdata(base + ".ibnetdiscover"));
    const ForwardingTables lfts = read_lfts(testdata(base + ".opensm-lfts.dump"), f);
    const std::string text = read_file(testdata(base + ".opensm.fdbs"));
    ASSERT_TRUE(is_fdbs(text)) << base;
    const ForwardingTables fdbs = read_lfts(testdata(base + ".opensm.fdbs"), f);
    EXPECT_EQ(parse_fdbs(text, base, f), fdbs) << base;
    std::size_t owned = 0;
    for (std::size_t r = 0; r < lfts.switch_count(); ++r) {
      const NodeId sw = lfts.switch_at(r);
      for (Lid lid = 1; lid < lfts.lid_count(); ++lid) {
        if (!f.port_of_lid(lid).valid()) continue;
        ++owned;
        EXPECT_EQ(fdbs.get(sw, lid), lfts.get(sw, lid)) << base << " lid " << lid;
      }
    }
    EXPECT_GT(owned, 0u) << base;
  }
}

TEST(Fdbs, ValuesOfTheRealDump) {
  const Fabric f = read_fabric(testdata("tree2-lmc2.ibnetdiscover"));
  const ForwardingTables t = read_lfts(testdata("tree2-lmc2.opensm.fdbs"), f);
  const NodeId leaf1 = *f.find_by_guid(0x200000);
  EXPECT_EQ(t.get(leaf1, 0x04), 1);        // "0x0004 : 001  : 01   : yes"
  EXPECT_EQ(t.get(leaf1, 0x08), 0);        // itself
  EXPECT_EQ(t.get(leaf1, 0x0A), kNoPath);  // "0x000A : UNREACHABLE"
  EXPECT_EQ(t.get(leaf1, 0x11), 4);
}

// Every shape OpenSM's dump_ucast_routes prints, and ibdiagnet's header.
TEST(Fdbs, AllEntryShapes) {
  const Fabric f = read_fabric(testdata("2sw2path4hca.ibnetdiscover"));
  const std::string text = read_file(testdata("2sw2path4hca.opensm.fdbs"));
  const ForwardingTables t = parse_fdbs(text, "t", f);
  std::string odd = replaced(text, "dump_ucast_routes: Switch 0x0000000000200000",
                             "osm_ucast_mgr_dump_ucast_routes: Switch 0x0000000000200000");
  ASSERT_TRUE(is_fdbs(odd));
  EXPECT_EQ(parse_lfts(odd + "\n", "t", f), t);
  const std::size_t at = text.find("0x0002 : ");
  ASSERT_NE(at, std::string::npos);
  const std::string line = text.substr(at, text.find('\n', at) - at);
  const std::string port = line.substr(9, 3);
  for (const std::string tail :
       {"  : HOPS UNKNOWN", "  : 02   : No 1 hop path possible via port 2!"})
    EXPECT_EQ(parse_fdbs(replaced(text, line, "0x0002 : " + port + tail), "t", f), t) << tail;
}

class FdbsErrors : public ::testing::Test {
 protected:
  Fabric f = read_fabric(testdata("2sw2path4hca.ibnetdiscover"));
  std::string text = read_file(testdata("2sw2path4hca.opensm.fdbs"));
  std::string error_for(const std::string& changed) {
    return input_error([&] { parse_fdbs(changed, "o.fdbs", f); });
  }
};

TEST_F(FdbsErrors, Messages) {
  EXPECT_EQ(error_for(replaced(text, "Switch 0x0000000000200000", "Switch 0x0000000000200009")),
            "o.fdbs:1: unknown switch GUID 0x0000000000200009 (not in the fabric): "
            "dump_ucast_routes: Switch 0x0000000000200009");
  EXPECT_EQ(error_for(replaced(text, "Switch 0x0000000000200000", "Switch 0x0000000000100000")),
            "o.fdbs:1: \"Hca1\" (0x0000000000100000) is not a switch: dump_ucast_routes: Switch "
            "0x0000000000100000");
  EXPECT_EQ(error_for(replaced(text, "0x0002 : 001  :", "0x0002 : 009  :")).substr(0, 60),
            "o.fdbs:4: port 9 beyond the 8 ports of \"Switch1\" (0x00000000");
  EXPECT_EQ(error_for(replaced(text, "0x0002 : 001  :", "0x0040 : 001  :")).substr(0, 52),
            "o.fdbs:4: LID 64 beyond the fabric's highest LID 6: ");
  EXPECT_EQ(error_for(replaced(text, "0x0002 : 001  : 01   : yes", "0x0002 : 001  : 01   : maybe")),
            "o.fdbs:4: expected \"yes\" or \"No ...\": 0x0002 : 001  : 01   : maybe");
  EXPECT_EQ(error_for("0x0001 : 001  : 01   : yes\n"),
            "o.fdbs:1: route outside a switch block: 0x0001 : 001  : 01   : yes");
  EXPECT_EQ(error_for(text + text),
            "o.fdbs:17: second block for switch \"Switch1\" (0x0000000000200000): "
            "dump_ucast_routes: Switch 0x0000000000200000");
  EXPECT_EQ(error_for(text + "garbage\n"), "o.fdbs:17: unrecognised line: garbage");
  EXPECT_EQ(error_for(""), "o.fdbs: no \"dump_ucast_routes: Switch\" blocks found");
}

}  // namespace
}  // namespace psssp
