// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <gtest/gtest.h>

#include <sstream>

#include "formats/fabric_io.h"
#include "layer_table_io.h"
#include "testing/topologies.h"

namespace psssp::formats {
namespace {

TEST(LayerTable, LookupGoesThroughTheSourceSwitch) {
  Fabric f = testing::ring(3, 2);
  testing::assign_lids(f, 1);  // hosts own two LIDs each
  LayerTable t(f);
  const NodeId s1 = *f.find_by_name("sw-1");
  const Port& host = f.node(*f.find_by_name("h-3")).ports[1];
  const Lid dlid = f.node(*f.find_by_name("h-4")).ports[1].lid;
  t.set(s1, dlid, 3);
  EXPECT_EQ(t.layer(host.lid, dlid), 3);
  EXPECT_EQ(t.layer(static_cast<Lid>(host.lid + 1), dlid), 3);  // LMC range
  EXPECT_EQ(t.layer(f.node(s1).ports[0].lid, dlid), 3);         // the switch's own LID
  EXPECT_EQ(t.layer(f.node(*f.find_by_name("h-0")).ports[1].lid, dlid), 0);
  EXPECT_EQ(t.layer(0xB000, dlid), 0);  // unknown LIDs
  EXPECT_EQ(t.sl(host.lid, dlid), 3);
  EXPECT_EQ(t.layers_used(), 4u);
  EXPECT_EQ(t.lid_count(), f.max_lid() + 1u);
  EXPECT_LT(t.memory_bytes(), 3 * t.lid_count() + 8 * t.lid_count() + 200);
}

TEST(LayerTable, WriteAndReadBack) {
  const Fabric f = testing::ring(4, 2);
  LayerTable t(f);
  t.set(*f.find_by_name("sw-2"), 5, 1);
  t.set(*f.find_by_name("sw-3"), 7, 11);
  std::ostringstream out;
  write_layer_table(out, f, t);
  const std::string text = out.str();
  EXPECT_EQ(text.rfind("psssp-layers 1\nlayers 12 lids 13\nswitch 0x", 0), 0u) << text;
  EXPECT_NE(text.find(" 0000010000000\n"), std::string::npos) << text;
  EXPECT_NE(text.find(" 0000000b00000\n"), std::string::npos) << text;
  EXPECT_TRUE(parse_layer_table(text, "l.txt", f) == t);
}

TEST(LayerTable, MalformedFilesNameFileAndLine) {
  const Fabric f = testing::ring(4, 2);  // LIDs 1..12, rows of 13
  const std::string head = "psssp-layers 1\nlayers 2 lids 13\n";
  const std::string row = std::string(13, '0');
  auto expect_error = [&](const std::string& text, const std::string& where,
                          const std::string& what) {
    try {
      parse_layer_table(text, "l.txt", f);
      ADD_FAILURE() << "no InputError: " << text;
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_EQ(msg.rfind("l.txt:" + where + ":", 0), 0u) << msg;
      EXPECT_NE(msg.find(what), std::string::npos) << msg;
    }
  };
  expect_error("layers 2 lids 13\n", "1", "psssp-layers");
  expect_error("psssp-layers 2\n", "1", "version");
  expect_error("psssp-layers 1\nlayers 2 lids 12\n", "2", "table has 12 LIDs, the fabric 13");
  expect_error("psssp-layers 1\nlayers 17 lids 13\n", "2", "layer count");
  // 0x5053570000000000 is sw-0, 0x5053480000000000 host h-0 (topologies/builder.h).
  expect_error(head + "switch 0x5053570000000000 " + row + "0\n", "3", "row has 14 layers");
  expect_error(head + "switch 0x9999 " + row + "\n", "3", "no switch");
  expect_error(head + "switch 0x5053480000000000 " + row + "\n", "3",
               "no switch");  // a host's GUID
  expect_error(
      head + "# c\nswitch 0x5053570000000000 " + row + "\nswitch 0x5053570000000000 " + row + "\n",
      "5", "second row");
  expect_error(head + "switch 0x5053570000000000 0000020000000\n", "3",
               "LID 5: layer '2' not in 0..1");
  expect_error(head + "switch 0x5053570000000000 00000z0000000\n", "3", "layer 'z'");
  expect_error(head + "switch 0x5053570000000000\n", "3", "switch GUID LAYERS");
  expect_error("# only a comment\n", "1", "missing");
  EXPECT_THROW(read_layer_table("/nonexistent/layers", f), InputError);
}

}  // namespace
}  // namespace psssp::formats
