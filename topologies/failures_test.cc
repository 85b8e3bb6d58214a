// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "failures.h"

#include <gtest/gtest.h>

#include "builder.h"
#include "families.h"
#include "testing/topology_checks.h"

namespace psssp::topo {
namespace {

TEST(Failures, RemovesTheFractionAndStaysConnected) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    Fabric f = build_fabric(grid({6, 6}, true, 1));
    const std::size_t before = test::count(f).switch_cables;
    EXPECT_EQ(fail_cables(f, 0.25, seed), 18u);
    EXPECT_EQ(test::count(f).switch_cables, before - 18);
    EXPECT_EQ(test::count(f).host_cables, 36u);
    EXPECT_TRUE(is_connected(f)) << "seed " << seed;
    EXPECT_EQ(f.node(0).num_ports(), 5);  // ports keep their numbers
  }
}

TEST(Failures, DeterministicPerSeed) {
  auto pairs = [](std::uint64_t seed) {
    Fabric f = build_fabric(hypercube(5, 1));
    fail_cables(f, 0.3, seed);
    return test::switch_pairs(f);
  };
  EXPECT_EQ(pairs(3), pairs(3));
  EXPECT_NE(pairs(3), pairs(4));
}

TEST(Failures, RefusesToDisconnect) {
  // A ring of 5 switches survives losing one cable, never two.
  Fabric ring = build_fabric(grid({5}, true, 1));
  EXPECT_EQ(fail_cables(ring, 0.2, 1), 1u);
  Fabric ring2 = build_fabric(grid({5}, true, 1));
  EXPECT_THROW(fail_cables(ring2, 0.4, 1), std::invalid_argument);
  // A tree of switches (mesh line) has no removable cable.
  Fabric line = build_fabric(grid({4}, false, 1));
  EXPECT_THROW(fail_cables(line, 0.5, 1), std::invalid_argument);
  EXPECT_TRUE(is_connected(line));
}

}  // namespace
}  // namespace psssp::topo
