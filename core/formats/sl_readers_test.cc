// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <string>

#include "formats/fabric_io.h"
#include "formats/sl2vl_dump_reader.h"
#include "formats/sl_file_reader.h"
#include "testing/topologies.h"

namespace psssp::formats {
namespace {

// Expects InputError whose message starts with "source:line:".
template <class F>
void expect_input_error(F&& f, const std::string& where, const std::string& what) {
  try {
    f();
    ADD_FAILURE() << "no InputError for " << where;
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind(where + ":", 0), 0u) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
  }
}

TEST(SlFile, ReadsDecimalHexCommentsAndDefault) {
  const SlFile sls = parse_sl_file(
      "# slid dlid sl\n\n1 2 3\n0x10 0x0B 0xf   # hex\r\n  7\t8\t0\n1 2 3\n", "a.sl", 4);
  EXPECT_EQ(sls.size(), 3u);  // the repeated identical line counts once
  EXPECT_EQ(sls.sl(1, 2), 3);
  EXPECT_EQ(sls.sl(16, 11), 15);
  EXPECT_EQ(sls.sl(7, 8), 0);
  EXPECT_EQ(sls.sl(2, 1), 4);  // unlisted: the default
}

TEST(SlFile, SlsUsedAreTheDistinctListedOnesAscending) {
  EXPECT_EQ(parse_sl_file("1 2 7\n2 1 0\n3 4 7\n5 6 15\n", "a.sl").sls_used(),
            (std::vector<std::uint8_t>{0, 7, 15}));
  EXPECT_TRUE(parse_sl_file("# only a header\n", "b.sl").sls_used().empty());
}

TEST(SlFile, MalformedLinesNameFileAndLine) {
  expect_input_error([] { parse_sl_file("1 2 3\n1 2\n", "a.sl"); }, "a.sl:2", "SLID DLID SL");
  expect_input_error([] { parse_sl_file("1 2 16\n", "a.sl"); }, "a.sl:1", "SL not in 0..15");
  expect_input_error([] { parse_sl_file("\n0 2 1\n", "a.sl"); }, "a.sl:2", "source LID");
  expect_input_error([] { parse_sl_file("1 0xC000 1\n", "a.sl"); }, "a.sl:1", "destination LID");
  expect_input_error([] { parse_sl_file("1 2 x\n", "a.sl"); }, "a.sl:1", "SL not in");
  expect_input_error([] { parse_sl_file("1 2 3 4\n", "a.sl"); }, "a.sl:1", "SLID DLID SL");
  expect_input_error([] { parse_sl_file("5 6 1\n# c\n5 6 2\n", "a.sl"); }, "a.sl:3",
                     "already has SL 1 (line 1)");
}

TEST(SlFile, AscendingAndShuffledFilesGiveTheSameTable) {
  const SlFile ascending = parse_sl_file("1 2 3\n1 7 1\n2 1 4\n9 3 2\n", "a.sl");
  const SlFile shuffled = parse_sl_file("9 3 2\n1 7 1\n2 1 4\n1 2 3\n1 7 1\n", "b.sl");
  EXPECT_EQ(ascending.size(), 4u);
  EXPECT_EQ(shuffled.size(), 4u);  // the repeated route counts once
  for (const Lid slid : {Lid{1}, Lid{2}, Lid{9}})
    for (const Lid dlid : {Lid{1}, Lid{2}, Lid{3}, Lid{7}})
      EXPECT_EQ(ascending.sl(slid, dlid), shuffled.sl(slid, dlid)) << slid << " " << dlid;
  EXPECT_EQ(ascending.sl(1, 7), 1);
  EXPECT_EQ(ascending.sl(9, 3), 2);
  EXPECT_EQ(ascending.sl(3, 9), 0);  // not listed: the default
}

TEST(SlFile, MissingFileIsAnInputError) {
  EXPECT_THROW(read_sl_file("/nonexistent/routes.sl"), InputError);
}

// opensm-sl2vl.dump text as OpenSM's dump_sl2vl_tbl prints one port block.
std::string block(const char* type, Guid guid, Lid lid, const std::string& desc,
                  const std::vector<std::pair<int, int>>& ports, const SlVlMap& map) {
  char head[160];
  std::snprintf(head, sizeof head, "%s 0x%016" PRIx64 ", base LID %d, \"%s\"\n", type, guid, lid,
                desc.c_str());
  std::string out = head;
  out += "#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15\n";
  out += "#--------------------------------------------------------\n";
  for (auto [in, o] : ports) {
    char row[160];
    int n = std::snprintf(row, sizeof row, "%-3d %-3d :", in, o);
    for (unsigned sl = 0; sl < kSlCount; ++sl)
      n += std::snprintf(row + n, sizeof row - static_cast<std::size_t>(n), " %-2d", map[sl]);
    out += row;
    out += "\n";
  }
  out += "#--------------------------------------------------------\n\n";
  return out;
}

TEST(Sl2VlDump, ReadsSwitchAndCaBlocks) {
  const Fabric f = testing::ring(4, 1);
  const NodeId s1 = *f.find_by_name("sw-1");
  const NodeId h = *f.find_by_name("h-1");
  SlVlMap shifted{};
  for (unsigned sl = 0; sl < kSlCount; ++sl) shifted[sl] = static_cast<std::uint8_t>((sl + 1) % 8);
  const std::string text = block("Switch", f.node(s1).ports[0].guid, f.node(s1).ports[0].lid, "s1",
                                 {{0, 2}, {1, 2}, {3, 2}}, shifted) +
                           block("Channel Adapter", f.node(h).ports[1].guid, f.node(h).ports[1].lid,
                                 "h1-0 HCA-1", {{0, 0}}, identity_sl2vl());
  const Sl2VlTables t = parse_sl2vl_dump(text, "opensm-sl2vl.dump", f);
  EXPECT_TRUE(t.port_dependent());
  EXPECT_EQ(t.vl(s1, 1, 2, 0), 1);
  EXPECT_EQ(t.vl(s1, 3, 2, 7), 0);
  EXPECT_EQ(t.vl(s1, 1, 3, 5), 5);  // no row: identity
  const NodeId s0 = *f.find_by_name("sw-0");
  EXPECT_EQ(t.vl(s0, 1, 2, 9), 9);
}

TEST(Sl2VlDump, MalformedBlocksNameFileAndLine) {
  const Fabric f = testing::ring(4, 1);
  const NodeId s1 = *f.find_by_name("sw-1");
  const Guid g = f.node(s1).ports[0].guid;
  const std::string good = block("Switch", g, 2, "s1", {{1, 2}}, identity_sl2vl());
  const std::string file = "opensm-sl2vl.dump";
  // Row before any header.
  expect_input_error([&] { parse_sl2vl_dump("1   2   : 0\n", file, f); }, file + ":1",
                     "before any port header");
  // 15 VLs instead of 16.
  std::string short_row = good;
  short_row.replace(short_row.rfind(" 15"), 3, "");
  expect_input_error([&] { parse_sl2vl_dump(short_row, file, f); }, file + ":4", "16 VLs");
  // VL 16.
  std::string big = good;
  big.replace(big.rfind(" 15"), 3, " 16");
  expect_input_error([&] { parse_sl2vl_dump(big, file, f); }, file + ":4", "VL outside 0..15");
  // Port beyond the switch.
  const std::string port9 = block("Switch", g, 2, "s1", {{9, 2}}, identity_sl2vl());
  expect_input_error([&] { parse_sl2vl_dump(port9, file, f); }, file + ":4", "port outside 0..3");
  // Unknown GUID and wrong type.
  const std::string unknown = block("Switch", 0xdead, 2, "x", {{1, 2}}, identity_sl2vl());
  expect_input_error([&] { parse_sl2vl_dump(unknown, file, f); }, file + ":1", "no port with GUID");
  const std::string ca = block("Channel Adapter", g, 2, "s1", {{0, 0}}, identity_sl2vl());
  expect_input_error([&] { parse_sl2vl_dump(ca, file, f); }, file + ":1", "node type");
  const std::string weird = block("Bridge", g, 2, "s1", {{0, 0}}, identity_sl2vl());
  expect_input_error([&] { parse_sl2vl_dump(weird, file, f); }, file + ":1", "unknown node type");
  expect_input_error([&] { parse_sl2vl_dump("Switch 0x12 base LID 1\n", file, f); }, file + ":1",
                     "expected ','");
}

}  // namespace
}  // namespace psssp::formats
