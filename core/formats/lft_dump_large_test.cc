// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Dumps large enough for the reader's fast path: threads over table-header
// boundaries, in-place entry parsing, the cached port GUID remap. Whatever
// that path does must match what the single-threaded general reader gives,
// errors (message and line) included.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "formats/lft_io.h"
#include "test_support.h"

namespace psssp {
namespace {

using testing::input_error;

// 64 switches in a ring, 32 hosts on each: a 9 MB opensm-lfts.dump.
struct Big {
  Fabric f;
  ForwardingTables t;
  std::string text;
  Big() {
    constexpr unsigned kSwitches = 64, kHosts = 32;
    Lid lid = 1;
    for (unsigned s = 0; s < kSwitches; ++s) {
      const NodeId id = f.add_node(NodeType::switch_node, "s" + std::to_string(s),
                                   static_cast<PortNum>(kHosts + 2));
      f.node(id).guid = 0x10000 + s;
      f.node(id).ports[0].guid = 0x10000 + s;
      f.node(id).ports[0].lid = lid++;
    }
    const LinkRate qdr{LinkWidth::x4, LinkSpeed::qdr};
    for (unsigned s = 0; s < kSwitches; ++s) {
      f.connect({s, static_cast<PortNum>(kHosts + 1)},
                {(s + 1) % kSwitches, static_cast<PortNum>(kHosts + 2)}, qdr);
      for (unsigned h = 0; h < kHosts; ++h) {
        const NodeId id = f.add_node(NodeType::ca, "h" + std::to_string(s * kHosts + h), 1);
        f.node(id).guid = 0x200000 + 2 * id;
        f.node(id).ports[1].guid = 0x200001 + 2 * id;
        f.node(id).ports[1].lid = lid++;
        f.connect({s, static_cast<PortNum>(h + 1)}, {id, 1}, qdr);
      }
    }
    f.index();
    t = ForwardingTables(f);
    for (unsigned s = 0; s < kSwitches; ++s)
      for (Lid l = 1; l < lid; ++l) t.set(s, l, static_cast<PortNum>((s * 7 + l) % (kHosts + 3)));
    std::ostringstream out;
    write_lfts(out, f, t);
    text = out.str();
  }
};

const Big& big() {
  static const Big b;
  return b;
}

// The text cut after line `line` (1-based) and `insert` put there.
std::string with_line(const std::string& text, std::size_t line, const std::string& insert) {
  std::size_t at = 0;
  for (std::size_t i = 0; i < line; ++i) at = text.find('\n', at) + 1;
  return text.substr(0, at) + insert + text.substr(at);
}

std::size_t line_count(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(LftDumpLarge, ReadsBackWhatWasWritten) {
  const Big& b = big();
  ASSERT_GT(b.text.size(), std::size_t{8} << 20);
  EXPECT_EQ(parse_lfts(b.text, "big", b.f), b.t);
  // Also through the general path: no trailing newline, CRLF, odd spacing.
  std::string crlf;
  for (char c : b.text) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  EXPECT_EQ(parse_lfts(crlf, "big", b.f), b.t);
  EXPECT_EQ(parse_lfts(b.text.substr(0, b.text.size() - 1), "big", b.f), b.t);
}

TEST(LftDumpLarge, ErrorsLateInTheTextKeepTheirLineNumbers) {
  const Big& b = big();
  const std::size_t lines = line_count(b.text);
  const std::size_t late = lines - 10;
  EXPECT_EQ(input_error([&] { parse_lfts(with_line(b.text, late, "garbage\n"), "big", b.f); }),
            "big:" + std::to_string(late + 1) + ": unrecognised line: garbage");
  // An entry naming a port GUID the fabric lacks, after the same LID was
  // remapped successfully many times.
  std::string bad = b.text;
  const std::size_t at = bad.rfind("portguid 0x");
  bad[at + 11 + 15] = bad[at + 11 + 15] == 'f' ? 'e' : 'f';
  const std::string msg = input_error([&] { parse_lfts(bad, "big", b.f); });
  EXPECT_EQ(msg.rfind("big:" + std::to_string(lines - 1) + ": unknown port GUID", 0), 0u) << msg;
}

TEST(LftDumpLarge, SwitchTableTwiceAcrossTheText) {
  const Big& b = big();
  // The first table again at the very end: the readers of different parts
  // each see one of the copies.
  const std::size_t first_end = b.text.find("lids dumped\n") + 12;
  const std::string twice = b.text + b.text.substr(0, first_end);
  EXPECT_EQ(input_error([&] { parse_lfts(twice, "big", b.f); }),
            "big:" + std::to_string(line_count(b.text) + 1) +
                ": second table for switch \"s0\" (0x0000000000010000): " +
                b.text.substr(0, b.text.find('\n')));
}

TEST(LftDumpLarge, ReadFromAFile) {
  const Big& b = big();
  const std::string path = ::testing::TempDir() + "/psssp_big.lfts";
  {
    std::ofstream out(path, std::ios::binary);
    out << b.text;
  }
  EXPECT_EQ(read_lfts(path, b.f), b.t);
  std::remove(path.c_str());
  EXPECT_EQ(input_error([&] { read_lfts(path, b.f); }), path + ": no such file");
}

}  // namespace
}  // namespace psssp
