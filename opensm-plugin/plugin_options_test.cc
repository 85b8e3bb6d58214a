// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "plugin_options.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "engine_bridge.h"

namespace psssp {
namespace {

TEST(PluginOptions, DefaultsAreMinimalOnAllCores) {
  const PluginOptions o = parse_plugin_options("");
  EXPECT_TRUE(o.routing.minimal);
  EXPECT_EQ(o.routing.capacity, RoutingOptions::Capacity::automatic);
  EXPECT_EQ(o.routing.threads, 0u);  // all cores
  EXPECT_EQ(describe(o), "minimal threads=0");
}

TEST(PluginOptions, ParsesEveryOption) {
  const PluginOptions o = parse_plugin_options(
      "nonminimal, max_extra_hops=3 capacity switch_load threads=2 effort=fast vls=8 "
      "guid_file=/etc/cn guid_mode=only");
  EXPECT_EQ(o.routing.effort, RoutingOptions::Effort::fast);
  EXPECT_FALSE(o.routing.minimal);
  EXPECT_EQ(o.routing.max_extra_hops, 3u);
  EXPECT_EQ(o.routing.capacity, RoutingOptions::Capacity::on);
  EXPECT_TRUE(o.routing.switch_lids_load);
  EXPECT_EQ(o.routing.threads, 2u);
  EXPECT_EQ(o.vls, 8u);
  EXPECT_EQ(o.guid_file, "/etc/cn");
  EXPECT_EQ(o.routing.guid_list_mode, RoutingOptions::GuidListMode::only);
  EXPECT_EQ(describe(o),
            "nonminimal max_extra_hops=3 capacity switch_load threads=2 effort=fast vls=8 "
            "guid_file=/etc/cn guid_mode=only");
}

// One event_plugin_options line serves every event plugin.
TEST(PluginOptions, SharesTheLineWithOtherPlugins) {
  // Other plugins' prefixed words are ignored; unprefixed ones are ours.
  PluginOptions o = parse_plugin_options("perfmgr:interval=5 threads=2 other:verbose");
  EXPECT_EQ(o.routing.threads, 2u);
  // With a psssp: word present, unprefixed words belong to other plugins.
  o = parse_plugin_options("verbose psssp:threads=3 psssp:vls=4 level=2");
  EXPECT_EQ(o.routing.threads, 3u);
  EXPECT_EQ(o.vls, 4u);
  // A colon inside a value is not a prefix.
  EXPECT_EQ(parse_plugin_options("guid_file=/etc/a:b").guid_file, "/etc/a:b");
  EXPECT_EQ(parse_plugin_options("psssp:guid_file=/etc/a:b").guid_file, "/etc/a:b");
}

TEST(PluginOptions, CapacityAutoOnOff) {
  EXPECT_EQ(parse_plugin_options("capacity=off").routing.capacity, RoutingOptions::Capacity::off);
  EXPECT_EQ(parse_plugin_options("capacity=on").routing.capacity, RoutingOptions::Capacity::on);
  EXPECT_EQ(parse_plugin_options("capacity=auto").routing.capacity,
            RoutingOptions::Capacity::automatic);
  EXPECT_EQ(describe(parse_plugin_options("capacity=off")), "minimal capacity=off threads=0");
}

TEST(PluginOptions, IncrementalOptions) {
  const PluginOptions d = parse_plugin_options("");
  EXPECT_TRUE(d.incremental);
  EXPECT_EQ(d.incremental_options.rebalance, -1);
  EXPECT_DOUBLE_EQ(d.incremental_options.full_above, 0.05);
  const PluginOptions o = parse_plugin_options("rebalance=500 full_reroute_above=20");
  EXPECT_EQ(o.incremental_options.rebalance, 500);
  EXPECT_DOUBLE_EQ(o.incremental_options.full_above, 0.2);
  EXPECT_EQ(describe(o), "minimal threads=0 rebalance=500 full_reroute_above=20");
  EXPECT_EQ(parse_plugin_options("rebalance=off").incremental_options.rebalance, 0);
  EXPECT_EQ(parse_plugin_options("rebalance=auto").incremental_options.rebalance, -1);
  // Kx: the automatic budget, K changes per entry that lost its hop.
  const PluginOptions k = parse_plugin_options("rebalance=4x");
  EXPECT_EQ(k.incremental_options.rebalance, -1);
  EXPECT_EQ(k.incremental_options.changes_per_lost, 4u);
  EXPECT_EQ(describe(k), "minimal threads=0 rebalance=4x");
  EXPECT_EQ(parse_plugin_options("rebalance=2x").incremental_options.changes_per_lost, 2u);
  EXPECT_EQ(describe(parse_plugin_options("rebalance=2x")), "minimal threads=0");
  EXPECT_EQ(parse_plugin_options("rebalance=4x rebalance=500").incremental_options.changes_per_lost,
            2u);  // the last word counts, and N resets K
  const PluginOptions off = parse_plugin_options("incremental=off");
  EXPECT_FALSE(off.incremental);
  EXPECT_EQ(describe(off), "minimal threads=0 incremental=off");
}

void expect_rejected(const std::string& text, const std::string& fragment);

TEST(PluginOptions, VlsScope) {
  EXPECT_TRUE(parse_plugin_options("vls=4").vls_all_routes);
  const PluginOptions o = parse_plugin_options("vls=4 vls_scope=hosts");
  EXPECT_FALSE(o.vls_all_routes);
  EXPECT_EQ(describe(o), "minimal threads=0 vls=4 vls_scope=hosts");
  expect_rejected("vls_scope=some", "'vls_scope' is 'all' or 'hosts', got 'some'");
}

TEST(PluginOptions, LidMatrices) {
  EXPECT_EQ(parse_plugin_options("").lid_matrices, PluginOptions::LidMatrices::psssp);
  EXPECT_EQ(parse_plugin_options("lid_matrices=psssp").lid_matrices,
            PluginOptions::LidMatrices::psssp);
  const PluginOptions o = parse_plugin_options("lid_matrices=opensm");
  EXPECT_EQ(o.lid_matrices, PluginOptions::LidMatrices::opensm);
  EXPECT_EQ(describe(o), "minimal threads=0 lid_matrices=opensm");
}

void expect_rejected(const std::string& text, const std::string& fragment) {
  try {
    parse_plugin_options(text);
    FAIL() << "accepted '" << text << "'";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(PluginOptions, RejectsWithAClearMessage) {
  expect_rejected("fastest", "unknown option 'fastest'");
  expect_rejected("threads=1025", "'threads' needs a whole number in 0..1024, got '1025'");
  expect_rejected("threads=two", "got 'two'");
  expect_rejected("threads", "'threads' needs a value");
  expect_rejected("capacity=yes", "'capacity' is 'auto', 'on' or 'off', got 'yes'");
  expect_rejected("guid_mode=first", "'priority' or 'only'");
  expect_rejected("vls=16", "'vls' needs a whole number in 1..15, got '16'");
  expect_rejected("vls=0", "got '0'");
  expect_rejected("effort=max", "'auto', 'full' or 'fast', got 'max'");
  expect_rejected("guid_mode=only", "'guid_mode=only' needs guid_file=PATH");
  expect_rejected("psssp:bogus", "unknown option 'bogus'");
  expect_rejected("psssp:", "no word after the prefix");
  expect_rejected("incremental=yes", "'incremental' is 'on' or 'off', got 'yes'");
  expect_rejected("rebalance=-3", "'rebalance' is 'auto', 'off', N");
  expect_rejected("rebalance=0x", "Kx (after a fault at most K changes per entry");
  expect_rejected("rebalance=x", "got 'x'");
  expect_rejected("rebalance=4y", "got '4y'");
  expect_rejected("rebalance=1001x", "K = 1..1000), got '1001x'");
  expect_rejected("rebalance=100000001", "up to 100000000");
  expect_rejected("lid_matrices=minhop", "'lid_matrices' is 'psssp' or 'opensm', got 'minhop'");
  expect_rejected("lid_matrices", "'lid_matrices' needs a value");
  expect_rejected("full_reroute_above=101", "'full_reroute_above' needs a whole number in 0..100");
}

TEST(EngineBridge, BadOptionsGiveNoEngineAndAMessage) {
  char err[256] = "";
  EXPECT_EQ(psssp_engine_new("capacity bogus", err, sizeof err), nullptr);
  EXPECT_NE(std::string(err).find("unknown option 'bogus'"), std::string::npos) << err;
}

TEST(EngineBridge, InconsistentSnapshotIsAnErrorNotACrash) {
  char err[256] = "";
  psssp_engine_t* e = psssp_engine_new("", err, sizeof err);
  ASSERT_NE(e, nullptr);
  psssp_engine_begin(e);
  const uint32_t sw = psssp_engine_add_node(e, PSSSP_NODE_SWITCH, 0x10, "sw", 4);
  const uint32_t ca = psssp_engine_add_node(e, PSSSP_NODE_CA, 0x20, "ca", 1);
  EXPECT_EQ(psssp_engine_add_node(e, PSSSP_NODE_CA, 0x30, "big", 300), UINT32_MAX);
  EXPECT_EQ(psssp_engine_connect(e, sw, 9, ca, 1), -1);  // no port 9
  EXPECT_NE(std::string(psssp_engine_error(e)).find("no port 9"), std::string::npos);
  EXPECT_EQ(psssp_engine_set_port(e, ca, 7, 0x21, 2, 0, 4, PSSSP_SPEED_QDR, 1), -1);
  EXPECT_NE(std::string(psssp_engine_error(e)).find("has no port 7"), std::string::npos);
  uint8_t row[4];
  EXPECT_EQ(psssp_engine_copy_lft(e, sw, row, 4), -1);   // not routed yet
  EXPECT_EQ(psssp_engine_copy_hops(e, sw, row, 5), -1);  // no hop matrix yet
  EXPECT_NE(std::string(psssp_engine_error(e)).find("no hop matrix"), std::string::npos);
  psssp_engine_free(e);
}

// A switch with its own LID on port 0, through the C interface.
uint32_t add_switch(psssp_engine_t* e, uint64_t guid, const char* name, uint16_t lid,
                    unsigned ports = 3) {
  const uint32_t sw = psssp_engine_add_node(e, PSSSP_NODE_SWITCH, guid, name, ports);
  EXPECT_EQ(psssp_engine_set_port(e, sw, 0, guid, lid, 0, 4, PSSSP_SPEED_QDR, 1), 0);
  return sw;
}

// Two switches with one cable and a host each, through the C interface: the
// hop tables OpenSM would build, and errors instead of crashes.
TEST(EngineBridge, HopTablesOfASmallSnapshot) {
  char err[256] = "";
  psssp_engine_t* e = psssp_engine_new("lid_matrices=psssp", err, sizeof err);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(psssp_engine_builds_lid_matrices(e), 1);
  psssp_engine_begin(e);
  const uint32_t a = add_switch(e, 0x10, "a", 1);
  const uint32_t b = add_switch(e, 0x11, "b", 2);
  const uint32_t h = psssp_engine_add_node(e, PSSSP_NODE_CA, 0x20, "h", 1);
  ASSERT_EQ(psssp_engine_set_port(e, h, 1, 0x21, 4, 1, 4, PSSSP_SPEED_QDR, 1), 0);
  ASSERT_EQ(psssp_engine_connect(e, a, 2, b, 3), 0);
  ASSERT_EQ(psssp_engine_connect(e, a, 1, h, 1), 0);
  ASSERT_EQ(psssp_engine_build_hops(e), 0) << psssp_engine_error(e);
  ASSERT_EQ(psssp_engine_hop_lid_count(e), 2u);  // switch LIDs only, not the host's 4 and 5
  EXPECT_EQ(psssp_engine_hop_lid(e, 0), 1);
  EXPECT_EQ(psssp_engine_hop_lid(e, 1), 2);
  EXPECT_EQ(psssp_engine_hop_lid(e, 2), 0);
  uint8_t hops[8];
  ASSERT_EQ(psssp_engine_copy_hops(e, a, hops, 4), 0) << psssp_engine_error(e);
  const uint8_t want[8] = {0, 0xFF, 2, 0xFF, /* LID 2: */ 0xFF, 0xFF, 1, 0xFF};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(hops[i], want[i]) << i;
  EXPECT_EQ(psssp_engine_copy_hops(e, h, hops, 2), -1);
  EXPECT_EQ(psssp_engine_copy_hops(e, a, hops, 5), -1);
  EXPECT_NE(std::string(psssp_engine_error(e)).find("is not a switch with 5 ports"),
            std::string::npos);
  psssp_engine_free(e);
}

// OpenSM 3.3.23's osm_switch_set_hops, as its source documents it: the
// reference psssp_engine_fill_hop_tables must match byte for byte.
void set_hops_like_opensm(uint8_t** rows, unsigned max_lid, unsigned ports, unsigned lid,
                          unsigned port, uint8_t hops) {
  if (!lid || lid > max_lid || port >= ports) return;
  if (!rows[lid]) {
    rows[lid] = static_cast<uint8_t*>(std::malloc(ports));
    std::memset(rows[lid], 0xFF, ports);
  }
  rows[lid][port] = hops;
  if (rows[lid][0] > hops) rows[lid][0] = hops;
}

// Switch a's table written in place equals one set_hops call per entry
// copy_hops gives, whatever rows existed before (NULL, or left over with
// larger hops in slot 0); a LID above max_lid is left alone.
TEST(EngineBridge, HopTablesWrittenInPlaceAsOpensmSetterWould) {
  char err[256] = "";
  psssp_engine_t* e = psssp_engine_new("lid_matrices=psssp threads=2", err, sizeof err);
  ASSERT_NE(e, nullptr) << err;
  psssp_engine_begin(e);
  const uint32_t a = add_switch(e, 0x10, "a", 1);
  const uint32_t b = add_switch(e, 0x11, "b", 2);
  const uint32_t c = add_switch(e, 0x12, "c", 3);
  ASSERT_EQ(psssp_engine_connect(e, a, 1, b, 1), 0);
  ASSERT_EQ(psssp_engine_connect(e, b, 2, c, 1), 0);
  ASSERT_EQ(psssp_engine_connect(e, a, 2, c, 2), 0);
  ASSERT_EQ(psssp_engine_build_hops(e), 0) << psssp_engine_error(e);

  const unsigned ports = 4, lids = 3, max_lid = 2;  // LID 3 is above this switch's top
  uint8_t* got[lids + 1] = {};
  uint8_t* want[lids + 1] = {};
  for (uint8_t** rows : {got, want}) {  // a stale row whose slot 0 is too large
    rows[2] = static_cast<uint8_t*>(std::malloc(ports));
    std::memset(rows[2], 7, ports);
  }
  uint8_t entries[3 * 4];
  ASSERT_EQ(psssp_engine_copy_hops(e, a, entries, ports), 0) << psssp_engine_error(e);
  for (size_t col = 0; col < psssp_engine_hop_lid_count(e); ++col)
    for (unsigned p = 0; p < ports; ++p)
      if (entries[col * ports + p] != 0xFF)
        set_hops_like_opensm(want, max_lid, ports, psssp_engine_hop_lid(e, col), p,
                             entries[col * ports + p]);
  psssp_hop_table table = {a, got, lids + 1, ports, max_lid};
  ASSERT_EQ(psssp_engine_fill_hop_tables(e, &table, 1), 0) << psssp_engine_error(e);
  for (unsigned lid = 0; lid <= lids; ++lid) {
    ASSERT_EQ(got[lid] == nullptr, want[lid] == nullptr) << "LID " << lid;
    for (unsigned p = 0; got[lid] && p < ports; ++p)
      EXPECT_EQ(got[lid][p], want[lid][p]) << "LID " << lid << " port " << p;
  }
  ASSERT_NE(got[1], nullptr);
  EXPECT_EQ(got[1][0], 0);     // its own LID
  EXPECT_EQ(got[2][0], 1);     // b is one hop away: the stale 7 is lowered
  EXPECT_EQ(got[3], nullptr);  // above max_lid
  for (unsigned lid = 0; lid <= lids; ++lid) {
    std::free(got[lid]);
    std::free(want[lid]);
  }

  psssp_hop_table wrong = {a, got, lids + 1, ports + 1, max_lid};
  EXPECT_EQ(psssp_engine_fill_hop_tables(e, &wrong, 1), -1);
  EXPECT_NE(std::string(psssp_engine_error(e)).find("is not a switch with 5 ports"),
            std::string::npos);
  psssp_engine_free(e);
}

// A ring of four switches, routed twice: all cables, then without s1-s2.
// The second build recomputes only some rows and keeps the others, and every
// switch's table written from them still equals the setter's result.
TEST(EngineBridge, HopTablesAfterAFaultFromKeptRows) {
  char err[256] = "";
  psssp_engine_t* e = psssp_engine_new("lid_matrices=psssp threads=2", err, sizeof err);
  ASSERT_NE(e, nullptr) << err;
  const unsigned ports = 3, lids = 4;
  for (int sweep = 0; sweep < 2; ++sweep) {
    SCOPED_TRACE(sweep);
    psssp_engine_begin(e);
    uint32_t sw[4];
    for (unsigned i = 0; i < 4; ++i)
      sw[i] = add_switch(e, 0x10 + i, "s", static_cast<uint16_t>(i + 1), ports - 1);
    for (unsigned i = 0; i < 4; ++i) {
      if (sweep == 1 && i == 1) continue;  // the failed cable s1-s2
      ASSERT_EQ(psssp_engine_connect(e, sw[i], 2, sw[(i + 1) % 4], 1), 0);
    }
    ASSERT_EQ(psssp_engine_build_hops(e), 0) << psssp_engine_error(e);
    if (sweep == 0) {
      EXPECT_EQ(psssp_engine_hop_rows_computed(e), 16u);
    } else {
      EXPECT_GT(psssp_engine_hop_rows_computed(e), 0u);
      EXPECT_LT(psssp_engine_hop_rows_computed(e), 16u);
    }
    for (unsigned i = 0; i < 4; ++i) {
      uint8_t* got[lids + 1] = {};
      uint8_t* want[lids + 1] = {};
      uint8_t entries[4 * 3];
      ASSERT_EQ(psssp_engine_copy_hops(e, sw[i], entries, ports), 0) << psssp_engine_error(e);
      for (size_t col = 0; col < psssp_engine_hop_lid_count(e); ++col)
        for (unsigned p = 0; p < ports; ++p)
          if (entries[col * ports + p] != 0xFF)
            set_hops_like_opensm(want, lids, ports, psssp_engine_hop_lid(e, col), p,
                                 entries[col * ports + p]);
      psssp_hop_table table = {sw[i], got, lids + 1, ports, lids};
      ASSERT_EQ(psssp_engine_fill_hop_tables(e, &table, 1), 0) << psssp_engine_error(e);
      for (unsigned lid = 0; lid <= lids; ++lid) {
        ASSERT_EQ(got[lid] == nullptr, want[lid] == nullptr) << "switch " << i << " LID " << lid;
        for (unsigned p = 0; got[lid] && p < ports; ++p)
          EXPECT_EQ(got[lid][p], want[lid][p]) << "switch " << i << " LID " << lid << " port " << p;
        std::free(got[lid]);
        std::free(want[lid]);
      }
    }
  }
  psssp_engine_free(e);
}

}  // namespace
}  // namespace psssp
