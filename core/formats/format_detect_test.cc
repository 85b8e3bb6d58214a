// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <gtest/gtest.h>

#include "formats/fabric_io.h"
#include "test_support.h"

namespace psssp {
namespace {

using testing::testdata;

TEST(FormatDetect, RealFiles) {
  for (const char* name : {"public-1.topo", "public-2.topo", "public-3.topo", "public-4.topo",
                           "tree2.ibnetdiscover", "tree2-lmc2.ibnetdiscover-g"})
    EXPECT_EQ(detect_fabric_format(read_file(testdata(name)), name), FabricFormat::ibnetdiscover)
        << name;
  for (const char* name : {"tree2.net", "net.2sw2path4hca"})
    EXPECT_EQ(detect_fabric_format(read_file(testdata(name)), name), FabricFormat::ibsim_net)
        << name;
  EXPECT_EQ(detect_fabric_format(read_file(testdata("tree2.opensm-subnet.lst")), "l"),
            FabricFormat::subnet_lst);
}

TEST(FormatDetect, IbsimOnlySyntaxWins) {
  // ibnetdiscover syntax plus an ibsim "Hca" record is an ibsim net file.
  const std::string text = read_file(testdata("public-2.topo")) + "\nHca 1 \"x\"\n";
  EXPECT_EQ(detect_fabric_format(text, "m"), FabricFormat::ibsim_net);
  EXPECT_EQ(format_name(FabricFormat::ibsim_net), "ibsim net");
}

// ibsim reads ibnetdiscover output too; the ibsim reader then hands out
// GUIDs from the switchguid=/caguid= lines as ibsim would: node GUIDs match
// the capture, CA port GUIDs become node GUID + port number.
TEST(FormatDetect, IbnetdiscoverThroughTheIbsimReader) {
  const std::string text =
      read_file(testdata("public-2.topo")) + "\nHca 1 \"x\"\n[1] \"y\"\n\nHca 1 \"y\"\n[1] \"x\"\n";
  const Fabric f = parse_fabric(text, "m");
  const NodeId ca = *f.find_by_name("H-0002c9030002847c");
  EXPECT_EQ(f.node(ca).guid, 0x2c9030002847cu);
  EXPECT_EQ(f.node(ca).ports[2].guid, 0x2c9030002847eu);
  EXPECT_EQ(f.node(ca).ports[2].lid, 2);  // "# lid 2 lmc 0 ..." on its port line
  EXPECT_EQ(f.node(*f.find_by_name("S-000b8cffff0053ee")).ports[0].lid, 3);
}

}  // namespace
}  // namespace psssp
