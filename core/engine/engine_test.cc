// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "engine.h"

#include <gtest/gtest.h>

#include "deadlock/deadlock_check.h"
#include "routing/incremental/incremental.h"
#include "testing/topologies.h"

namespace psssp::engine {
namespace {

using testing::fat_tree;
using testing::grid;

EngineOptions fast() {
  EngineOptions o;
  o.routing.effort = RoutingOptions::Effort::fast;
  o.routing.threads = 1;
  return o;
}

TEST(Engine, FullRoutingIsRoutePsssp) {
  const Fabric f = fat_tree(4, 2, 2);
  const EngineRun run = run_engine(f, fast(), RouteInputs{});
  EXPECT_TRUE(run.routing.lfts == route_psssp(f, fast().routing).lfts);
  EXPECT_FALSE(run.incremental_asked);
  EXPECT_TRUE(run.layers.table.lid_count() == 0);
  // Four leaves, two spines: eight cables, both directions.
  EXPECT_EQ(run.switch_links.links, 16u);
  EXPECT_GT(run.switch_links.max, 0.0);
  EXPECT_LE(run.switch_links.mean, run.switch_links.max);
}

TEST(Engine, PreviousTablesRouteIncrementally) {
  const Fabric f = fat_tree(4, 2, 2);
  const EngineRun first = run_engine(f, fast(), RouteInputs{});
  RouteInputs in;
  in.previous = &first.routing.lfts;
  const EngineRun again = run_engine(f, fast(), in);
  EXPECT_TRUE(again.incremental_asked);
  EXPECT_TRUE(again.routing.incremental.used);
  EXPECT_EQ(again.routing.incremental.kept, again.routing.incremental.entries);
  EXPECT_TRUE(again.routing.lfts == first.routing.lfts);
  // Incremental off: the same inputs get a full routing.
  EngineOptions off = fast();
  off.incremental = false;
  const EngineRun full = run_engine(f, off, in);
  EXPECT_FALSE(full.incremental_asked);
  EXPECT_FALSE(full.routing.incremental.used);
}

TEST(Engine, LayersAreCappedByTheDataVls) {
  const Fabric f = grid({4, 4}, true, 1);
  EngineOptions o = fast();
  o.vls = 8;
  RouteInputs in;
  in.data_vls = 2;
  const EngineRun run = run_engine(f, o, in);
  ASSERT_FALSE(run.layers.table.lid_count() == 0);
  EXPECT_LE(run.layers.layers_used, 2u);
  EXPECT_TRUE(deadlock::check_deadlock(f, run.routing.lfts, run.layers.table).deadlock_free);
  EXPECT_DOUBLE_EQ(run.seconds, run.routing.seconds + run.layers.seconds);
}

// On a tree the host routes need one layer, the switches' own routes a
// second; vls_scope=hosts layers the first only.
TEST(Engine, VlsScopeChoosesTheRoutesLayered) {
  const Fabric f = fat_tree(4, 2, 2);
  EngineOptions o = fast();
  o.vls = 4;
  const EngineRun all = run_engine(f, o, RouteInputs{});
  EXPECT_TRUE(all.layers.switch_sources);
  EXPECT_TRUE(deadlock::check_deadlock(f, all.routing.lfts, all.layers.table, Sl2VlTables(),
                                       deadlock::RouteScope::all)
                  .deadlock_free);
  o.vls_all_routes = false;
  const EngineRun hosts = run_engine(f, o, RouteInputs{});
  EXPECT_FALSE(hosts.layers.switch_sources);
  EXPECT_EQ(hosts.layers.layers_needed, 1u);
  EXPECT_TRUE(hosts.layers_fallback.empty());
}

TEST(Engine, AMissingGuidFileFailsBeforeRouting) {
  EngineOptions o = fast();
  o.guid_file = "/nonexistent/guids";
  EXPECT_ANY_THROW(run_engine(fat_tree(2, 1, 1), o, RouteInputs{}));
}

TEST(Engine, ChoiceNotesNameWhatTheRoutingChose) {
  RoutingResult r;
  EXPECT_EQ(choice_notes(r), "");
  r.tree_layout = RoutingResult::TreeLayout::round_robin;
  r.neighbour_window = 16;
  r.capacity_weights = true;
  EXPECT_EQ(choice_notes(r),
            "; tree layout, round robin; rank neighbours (window 16); load weighed by capacity");
  r.tree_layout = RoutingResult::TreeLayout::leaf_by_leaf;
  r.neighbour_window = 0;
  r.capacity_weights = false;
  EXPECT_EQ(choice_notes(r), "; tree layout");
  r.tree_layout = RoutingResult::TreeLayout::off;
  r.neighbour_window = 4;
  r.pattern_moves = 120;
  EXPECT_EQ(choice_notes(r), "; rank neighbours (window 4); pattern-refined (120 entries moved)");
}

}  // namespace
}  // namespace psssp::engine
