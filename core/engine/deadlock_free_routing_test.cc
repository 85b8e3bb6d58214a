// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "deadlock_free_routing.h"

#include <gtest/gtest.h>

#include <string>

#include "deadlock/deadlock_check.h"
#include "testing/routing_support.h"
#include "testing/topologies.h"

namespace psssp::engine {

using namespace deadlock;
namespace {

using testing::grid;

RoutingOptions fast_default() {
  RoutingOptions o;
  o.effort = RoutingOptions::Effort::fast;
  o.order = RoutingOptions::Order::switches;
  return o;
}

RoutingOptions fast_port_order() {
  RoutingOptions o = fast_default();
  o.order = RoutingOptions::Order::interleaved;
  o.tie_break = RoutingOptions::TieBreak::first;
  return o;
}

unsigned layers_needed(const Fabric& f, const RoutingOptions& o) {
  LayerOptions count;
  count.max_layers = 16;
  return assign_layers(f, route_psssp(f, o).lfts, count).layers_needed;
}

void expect_deadlock_free(const Fabric& f, const DeadlockFreeRouting& r) {
  const DeadlockReport report = check_deadlock(f, r.routing.lfts, r.layers.table);
  EXPECT_TRUE(report.deadlock_free) << format_cycle(f, report);
}

TEST(DeadlockFreeRouting, KeepsTheRoutingThatFits) {
  const Fabric f = grid({4, 4}, true, 2);
  LayerOptions lo;
  lo.max_layers = 8;
  const DeadlockFreeRouting r = route_deadlock_free(f, fast_default(), lo);
  EXPECT_EQ(r.fallback, "");
  EXPECT_TRUE(r.routing.lfts == route_psssp(f, fast_default()).lfts);
  expect_deadlock_free(f, r);
}

// A 3-D torus routed plain needs more layers than in dimension order.
TEST(DeadlockFreeRouting, RoutesAgainInPortOrderWhenLayersRunOut) {
  const Fabric f = grid({6, 6, 6}, true, 1);
  const unsigned plain = layers_needed(f, fast_default());
  const unsigned port_order = layers_needed(f, fast_port_order());
  ASSERT_LT(port_order, plain);
  LayerOptions lo;
  lo.max_layers = port_order;
  const DeadlockFreeRouting r = route_deadlock_free(f, fast_default(), lo);
  EXPECT_NE(r.fallback.find("in port order"), std::string::npos) << r.fallback;
  EXPECT_TRUE(r.routing.lfts == route_psssp(f, fast_port_order()).lfts);
  EXPECT_LE(r.layers.layers_needed, port_order);
  expect_deadlock_free(f, r);
}

// On this random graph the rank-neighbours routing the automatic order
// keeps does not fit in two layers; the choice without it and without the
// pattern refinement does, and comes before port order.
TEST(DeadlockFreeRouting, RoutesAgainWithoutRankNeighboursWhenLayersRunOut) {
  const Fabric f = testing::make_random(24, 4, 4, 1);
  ASSERT_GT(route_psssp(f, {}).neighbour_window, 0u);
  LayerOptions lo;
  lo.max_layers = 2;
  const DeadlockFreeRouting r = route_deadlock_free(f, {}, lo);
  EXPECT_NE(r.fallback.find("without the rank-neighbours routings"), std::string::npos)
      << r.fallback;
  RoutingOptions without;
  without.rank_neighbours = false;
  without.refine_patterns = false;
  EXPECT_TRUE(r.routing.lfts == route_psssp(f, without).lfts);
  EXPECT_EQ(r.routing.neighbour_window, 0u);
  EXPECT_EQ(r.routing.pattern_moves, 0u);
  expect_deadlock_free(f, r);
}

TEST(DeadlockFreeRouting, NamesEveryRoutingTriedWhenNoneFits) {
  // Rings of five: every minimal routing has a credit loop around each.
  const Fabric f = grid({5, 5}, true, 1);
  LayerOptions lo;
  lo.max_layers = 1;
  try {
    route_deadlock_free(f, fast_default(), lo);
    FAIL() << "a torus fits in one layer";
  } catch (const LayerError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("virtual layers, 1 available"), std::string::npos) << what;
    EXPECT_NE(what.find("(also routed in port order and with full effort)"), std::string::npos)
        << what;
    EXPECT_GE(e.needed(), 2u);
    EXPECT_EQ(e.available(), 1u);
  }
}

}  // namespace
}  // namespace psssp::engine
