// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "lid_columns.h"

#include <gtest/gtest.h>

#include "testing/routing_support.h"
#include "traffic/rng.h"

namespace psssp::routing {
namespace {

// Switch and LID counts that are not multiples of the 64-entry blocks, so
// the partial blocks at both ends are covered; every entry distinct enough
// that a transposed or shifted copy shows.
TEST(LidColumns, RoundTripKeepsEveryEntry) {
  const Fabric f = testing::make_kary_ntree(4, 3).fabric;  // 48 switches
  const SwitchView view = make_switch_view(f);
  const std::size_t n = view.node_of_vertex.size(), lids = f.max_lid() + 1u;
  ASSERT_NE(n % 64, 0u);
  ForwardingTables tables(f);
  std::mt19937_64 rng(7);
  for (const NodeId sw : f.switches())
    for (std::size_t l = 0; l < lids; ++l)
      tables.set(sw, static_cast<Lid>(l), static_cast<PortNum>(uniform_below(rng, 255)));
  for (const unsigned threads : {1u, 2u, 3u}) {
    std::vector<PortNum> columns(lids * n, kNoPath);
    columns_from_tables(tables, view, columns, threads);
    for (std::size_t v = 0; v < n; ++v)
      for (std::size_t l = 0; l < lids; ++l)
        ASSERT_EQ(columns[l * n + v], tables.get(view.node_of_vertex[v], static_cast<Lid>(l)))
            << "vertex " << v << " LID " << l << ", " << threads << " threads";
    EXPECT_TRUE(tables_from_columns(f, view, columns, threads) == tables) << threads;
  }
}

// Columns for more LIDs than the tables hold keep their entries there.
TEST(LidColumns, LidsBeyondTheTablesAreLeftAlone) {
  const Fabric f = testing::make_kary_ntree(4, 2).fabric;
  const SwitchView view = make_switch_view(f);
  const std::size_t n = view.node_of_vertex.size(), lids = f.max_lid() + 1u;
  ForwardingTables tables(f);
  for (const NodeId sw : f.switches()) tables.set(sw, 1, 2);
  std::vector<PortNum> columns((lids + 70) * n, 9);
  columns_from_tables(tables, view, columns, 2);
  for (std::size_t v = 0; v < n; ++v) {
    EXPECT_EQ(columns[1 * n + v], 2);
    EXPECT_EQ(columns[2 * n + v], kNoPath);
    EXPECT_EQ(columns[(lids + 69) * n + v], 9);
  }
}

}  // namespace
}  // namespace psssp::routing
