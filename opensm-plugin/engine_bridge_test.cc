// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The engine's C interface as the plugin drives it, without OpenSM: a
// routing started on its own thread while the hop tables are built must give
// the tables a routing on the caller's thread gives, and a started routing
// must never outlive the snapshot it reads. Runs under TSan in `make test`.
#include "engine_bridge.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "testing/routing_support.h"

namespace {

using psssp::Fabric;

struct Engine {
  psssp_engine_t* e = nullptr;
  explicit Engine(const char* options) {
    char err[256] = "";
    e = psssp_engine_new(options, err, sizeof err);
    EXPECT_NE(e, nullptr) << err;
  }
  ~Engine() { psssp_engine_free(e); }
};

// The snapshot the plugin would take of `f`: nodes, ports, cables.
void snapshot(psssp_engine_t* e, const Fabric& f) {
  psssp_engine_begin(e);
  for (psssp::NodeId id = 0; id < f.node_count(); ++id) {
    const psssp::Node& n = f.node(id);
    const int kind = n.is_switch() ? PSSSP_NODE_SWITCH : PSSSP_NODE_CA;
    ASSERT_EQ(psssp_engine_add_node(e, kind, n.guid, n.description.c_str(), n.num_ports()), id);
  }
  for (psssp::NodeId id = 0; id < f.node_count(); ++id)
    for (unsigned p = 0; p < f.node(id).ports.size(); ++p) {
      const psssp::Port& port = f.node(id).ports[p];
      ASSERT_EQ(psssp_engine_set_port(e, id, p, port.guid, port.lid, port.lmc,
                                      static_cast<unsigned>(port.rate.width),
                                      static_cast<int>(port.rate.speed), port.healthy),
                0);
    }
  for (psssp::NodeId id = 0; id < f.node_count(); ++id)
    for (unsigned p = 1; p < f.node(id).ports.size(); ++p) {
      const psssp::Port& port = f.node(id).ports[p];
      if (port.connected() && port.remote.node > id) {
        ASSERT_EQ(psssp_engine_connect(e, id, p, port.remote.node, port.remote.port), 0);
      }
    }
}

// Every switch's LFT, then every switch's hop entries.
std::vector<std::uint8_t> tables(psssp_engine_t* e, const Fabric& f, bool hops) {
  std::vector<std::uint8_t> all;
  const std::size_t lids = f.max_lid() + 1u;
  for (const psssp::NodeId sw : f.switches()) {
    std::vector<std::uint8_t> row(lids);
    EXPECT_EQ(psssp_engine_copy_lft(e, sw, row.data(), lids), 0) << psssp_engine_error(e);
    all.insert(all.end(), row.begin(), row.end());
    if (!hops) continue;
    const unsigned ports = static_cast<unsigned>(f.node(sw).ports.size());
    std::vector<std::uint8_t> h(psssp_engine_hop_lid_count(e) * ports);
    EXPECT_EQ(psssp_engine_copy_hops(e, sw, h.data(), ports), 0) << psssp_engine_error(e);
    all.insert(all.end(), h.begin(), h.end());
  }
  return all;
}

TEST(EngineBridge, RoutingStartedWhileHopsAreBuiltGivesTheSameTables) {
  for (const char* options : {"threads=2", "threads=1", "vls=4"}) {
    const Fabric f = psssp::testing::make_torus({4, 4}, 2, 0, 3);
    Engine inline_engine(options), started_engine(options);
    psssp_route_stats inline_stats{}, started_stats{};

    snapshot(inline_engine.e, f);
    ASSERT_EQ(psssp_engine_build_hops(inline_engine.e), 0);
    ASSERT_EQ(psssp_engine_route(inline_engine.e, 8, &inline_stats), 0);

    snapshot(started_engine.e, f);
    ASSERT_EQ(psssp_engine_route_start(started_engine.e, 8), 0);
    EXPECT_TRUE(psssp_engine_route_started(started_engine.e));
    // The plugin's order: hop tables while the routing runs.
    ASSERT_EQ(psssp_engine_build_hops(started_engine.e), 0) << psssp_engine_error(started_engine.e);
    ASSERT_EQ(psssp_engine_route_finish(started_engine.e, &started_stats), 0)
        << psssp_engine_error(started_engine.e);
    EXPECT_FALSE(psssp_engine_route_started(started_engine.e));

    EXPECT_EQ(tables(started_engine.e, f, true), tables(inline_engine.e, f, true)) << options;
    EXPECT_EQ(started_stats.lids, inline_stats.lids);
    EXPECT_EQ(started_stats.layers_needed, inline_stats.layers_needed) << options;
    EXPECT_EQ(started_stats.max_load, inline_stats.max_load);
  }
}

TEST(EngineBridge, StartedRoutingEndsWithItsSnapshot) {
  const Fabric f = psssp::testing::make_kary_ntree(4, 3).fabric;
  Engine engine("threads=2");
  snapshot(engine.e, f);
  ASSERT_EQ(psssp_engine_route_start(engine.e, 8), 0);
  // A second start, or routing on the caller's thread, while one runs: refused.
  EXPECT_LT(psssp_engine_route_start(engine.e, 8), 0);
  EXPECT_LT(psssp_engine_route(engine.e, 8, nullptr), 0);
  EXPECT_TRUE(psssp_engine_route_started(engine.e));
  // A new snapshot waits for the routing and drops it; nothing is left to finish.
  snapshot(engine.e, f);
  EXPECT_FALSE(psssp_engine_route_started(engine.e));
  EXPECT_LT(psssp_engine_route_finish(engine.e, nullptr), 0);
  EXPECT_STRNE(psssp_engine_error(engine.e), "");
  // The engine routes the new snapshot as usual.
  psssp_route_stats stats{};
  ASSERT_EQ(psssp_engine_route(engine.e, 8, &stats), 0) << psssp_engine_error(engine.e);
  EXPECT_EQ(stats.switches, f.switches().size());
  // Freeing an engine whose routing still runs waits for it (TSan/ASan see).
  ASSERT_EQ(psssp_engine_route_start(engine.e, 8), 0);
}

TEST(EngineBridge, FailedStartedRoutingReportsItsError) {
  // The GUID list is read when the routing runs, so a missing file fails the
  // routing on its own thread; finish reports what psssp_engine_route does.
  const Fabric f = psssp::testing::make_kary_ntree(4, 2).fabric;
  const char* options = "guid_file=/nonexistent/psssp-guids.txt";
  Engine inline_engine(options), started_engine(options);
  snapshot(inline_engine.e, f);
  ASSERT_LT(psssp_engine_route(inline_engine.e, 8, nullptr), 0);
  EXPECT_NE(std::string(psssp_engine_error(inline_engine.e)).find("psssp-guids.txt"),
            std::string::npos)
      << psssp_engine_error(inline_engine.e);

  snapshot(started_engine.e, f);
  ASSERT_EQ(psssp_engine_route_start(started_engine.e, 8), 0);
  ASSERT_EQ(psssp_engine_build_hops(started_engine.e), 0);
  EXPECT_LT(psssp_engine_route_finish(started_engine.e, nullptr), 0);
  EXPECT_STREQ(psssp_engine_error(started_engine.e), psssp_engine_error(inline_engine.e));
}

}  // namespace
