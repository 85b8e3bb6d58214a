// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "engine_options.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace psssp::engine {
namespace {

std::string read_page(const std::string& path) {
  std::ifstream in(std::string(PSSSP_SOURCE_DIR) + "/" + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The text between `from` and the next `to` (both excluded).
std::string section(const std::string& page, const std::string& from, const std::string& to) {
  const auto start = page.find(from);
  if (start == std::string::npos) return "";
  const auto end = page.find(to, start + from.size());
  return page.substr(start + from.size(), end == std::string::npos ? end : end - start);
}

std::string roff_escaped(const std::string& flag) {
  std::string out;
  for (const char c : flag) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out;
}

// The paragraph of a tagged option: its tag line (".TP", then ".B", ".BI" or
// ".BR" and the name) up to the next ".TP"; "" if there is none.
std::string paragraph(const std::string& text, const std::string& name) {
  for (const char* macro : {".B ", ".BI ", ".BR "}) {
    const std::string tag = std::string("\n.TP\n") + macro + name;
    const auto at = text.find(tag);
    if (at == std::string::npos) continue;
    const char next = text[at + tag.size()];
    if (next != ' ' && next != '\n' && next != '=' && next != '[') continue;
    return section(text.substr(at), tag, "\n.TP");
  }
  return "";
}

std::string range_of(const EngineOption& row) {
  return std::to_string(row.min) + ".." + std::to_string(row.max);
}

TEST(EngineOptions, KeysAndFlagsAreUnique) {
  std::set<std::string> keys, flags;
  for (const EngineOption& row : engine_option_table()) {
    ASSERT_TRUE(row.key || row.flag);
    ASSERT_NE(row.help, nullptr);
    if (row.key) {
      EXPECT_TRUE(keys.insert(row.key).second) << row.key;
    }
    if (row.flag) {
      EXPECT_TRUE(flags.insert(row.flag).second) << row.flag;
    }
    if (row.flag_value) {
      EXPECT_NE(row.flag, nullptr);
    }
  }
}

// psssp(8) documents every plugin key with the table's range.
TEST(EngineOptions, Psssp8MatchesTheTable) {
  const std::string page = read_page("opensm-plugin/psssp.8");
  ASSERT_FALSE(page.empty());
  const std::string synopsis = section(page, ".SH SYNOPSIS", ".SH ");
  const std::string options = section(page, ".SH OPTIONS", "\n.SH ");
  for (const EngineOption& row : engine_option_table()) {
    if (!row.key) continue;
    const bool named = synopsis.find(std::string("[") + row.key) != std::string::npos ||
                       synopsis.find(std::string("|") + row.key) != std::string::npos;
    EXPECT_TRUE(named) << row.key;
    const std::string text = paragraph(options, row.key);
    EXPECT_FALSE(text.empty()) << row.key << " has no paragraph in OPTIONS";
    if (row.max > 0) {
      EXPECT_NE(text.find(range_of(row)), std::string::npos) << row.key << text;
    }
  }
}

// psssp-sim(1)'s route section documents every flag with the table's range.
TEST(EngineOptions, PssspSim1MatchesTheTable) {
  const std::string page = read_page("simulator/psssp-sim.1");
  const std::string route = section(page, "\n.SS route", "\n.SS ");
  ASSERT_FALSE(route.empty());
  for (const EngineOption& row : engine_option_table()) {
    if (!row.flag) continue;
    const std::string text = paragraph(route, roff_escaped(row.flag));
    EXPECT_FALSE(text.empty()) << row.flag << " has no paragraph in the route section";
    if (row.max > 0) {
      EXPECT_NE(text.find(range_of(row)), std::string::npos) << row.flag << text;
    }
  }
}

// Whole numbers: both ends of the range pass, one beyond either is refused.
TEST(EngineOptions, RangesHoldAtBothEnds) {
  for (const EngineOption& row : engine_option_table()) {
    if (row.max == 0) continue;
    EngineOptions o;
    EXPECT_NO_THROW(row.set(o, row, std::to_string(row.min))) << row.flag;
    EXPECT_NO_THROW(row.set(o, row, std::to_string(row.max))) << row.flag;
    EXPECT_THROW(row.set(o, row, std::to_string(row.max + 1ull)), OptionValueError) << row.flag;
    if (row.min > 0) {
      EXPECT_THROW(row.set(o, row, std::to_string(row.min - 1)), OptionValueError) << row.flag;
    }
  }
  EXPECT_EQ(find_option_key("vls")->max, kMaxVirtualLayers);
  EXPECT_EQ(find_option_flag("--vls"), find_option_key("vls"));
}

TEST(EngineOptions, FlagsWithAValueOfTheirOwn) {
  EngineOptions o;
  const EngineOption* off = find_option_flag("--no-capacity");
  ASSERT_NE(off, nullptr);
  off->set(o, *off, off->flag_value);
  EXPECT_EQ(o.routing.capacity, RoutingOptions::Capacity::off);
  const EngineOption* on = find_option_flag("--capacity");
  on->set(o, *on, on->flag_value);
  EXPECT_EQ(o.routing.capacity, RoutingOptions::Capacity::on);
}

TEST(EngineOptions, BadValuesSayWhatIsWanted) {
  EngineOptions o;
  const EngineOption* mode = find_option_key("guid_mode");
  try {
    mode->set(o, *mode, "first");
    FAIL();
  } catch (const OptionValueError& e) {
    EXPECT_STREQ(e.what(), "is 'priority' or 'only', got 'first'");
  }
  const EngineOption* affinity = find_option_flag("--affinity");
  EXPECT_THROW(affinity->set(o, *affinity, "3"), OptionValueError);
  affinity->set(o, *affinity, "2,0.5");
  EXPECT_DOUBLE_EQ(o.routing.source_affinity, 2.0);
  EXPECT_DOUBLE_EQ(o.routing.root_affinity, 0.5);
}

TEST(EngineOptions, PluginSynopsisListsEveryKey) {
  const std::string words = plugin_option_synopsis();
  EXPECT_NE(words.find("capacity[=auto|on|off]"), std::string::npos) << words;
  EXPECT_NE(words.find("vls=N"), std::string::npos) << words;
  EXPECT_EQ(words.find("--"), std::string::npos) << words;
}

}  // namespace
}  // namespace psssp::engine
