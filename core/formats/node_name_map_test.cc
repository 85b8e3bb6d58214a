// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "node_name_map.h"

#include <gtest/gtest.h>

#include "fabric_io.h"

namespace psssp {
namespace {

TEST(NodeNameMap, InfinibandDiagsSyntax) {
  const auto names = parse_node_name_map(
      "# site map\n"
      "0x0002c90300a1b2c3 \"leaf 7\"\n"
      "  0x10 spine-1 # rack 3\n"
      "0x11\n"
      "0x12 # only a comment\n"
      "\n"
      "20 \"decimal\"\n",
      "map");
  const std::map<Guid, std::string> expected{
      {0x0002c90300a1b2c3, "leaf 7"}, {0x10, "spine-1"}, {20, "decimal"}};
  EXPECT_EQ(names, expected);
}

TEST(NodeNameMap, BadLinesNameFileAndLine) {
  try {
    parse_node_name_map("0x10 a\nleaf7 \"x\"\n", "site.map");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("site.map:2: not a GUID", 0), 0u) << e.what();
  }
  EXPECT_THROW(parse_node_name_map("0x10zz name\n", "m"), InputError);
  EXPECT_THROW(parse_node_name_map("-5 name\n", "m"), InputError);
  EXPECT_THROW(parse_node_name_map("0x1ffffffffffffffff name\n", "m"), InputError);
}

TEST(NodeNameMap, RenamesByNodeGuid) {
  Fabric f;
  const NodeId s = f.add_node(NodeType::switch_node, "s", 4);
  const NodeId h = f.add_node(NodeType::ca, "h", 1);
  f.node(s).guid = 0x10;
  f.node(h).guid = 0x20;
  f.node(h).description = "node01 HCA-1";
  EXPECT_EQ(apply_node_name_map(f, {{0x10, "spine-1"}, {0x99, "absent"}}), 1u);
  EXPECT_EQ(f.node(s).description, "spine-1");
  EXPECT_EQ(f.node(h).description, "node01 HCA-1");
  EXPECT_EQ(describe_node(f, s), "\"spine-1\" (0x0000000000000010)");
}

}  // namespace
}  // namespace psssp
