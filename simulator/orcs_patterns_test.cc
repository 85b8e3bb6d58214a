// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// ORCS's patterns: their rank pairs, and eBB values worked out by hand on
// small fabrics (a crossbar, and two switches joined by one cable).
#include "orcs_patterns.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "ebb_scorer.h"
#include "patterns.h"
#include "testing/scoring_rig.h"

namespace psssp::sim {
namespace {

struct Rig : testing::ScoringRig {
  Rig(unsigned switches, unsigned per_switch) : ScoringRig(switches, per_switch) {}
  // The mean eBB over `runs` runs, ranks mapped to hosts in host order.
  double ebb(const std::string& pattern, std::uint64_t runs = 1,
             const std::string& mapping = "linear") const {
    const PatternGenerator gen(
        hosts, parse_pattern(pattern, "", mapping, "first", chain.fabric, hosts), 3);
    ScoreConfig cfg;
    cfg.runs = runs;
    cfg.threads = 2;
    const std::vector<RoutingScores> scores = score_runs(gen, {scorer.get()}, cfg);
    double sum = 0;
    for (const RunScore& r : scores[0].runs) sum += r.ebb;
    return sum / static_cast<double>(runs);
  }
};

RankPairs pairs(const std::string& name, std::uint32_t n, std::size_t level = 0) {
  std::mt19937_64 rng(1);
  RankPairs out;
  orcs_pairs(*parse_orcs_pattern(name), n, level, rng, out);
  std::sort(out.begin(), out.end());
  return out;
}

// Two switches, hosts 0-2 on the first and 3-5 on the second, one cable.
// recdbl on 6 ranks: P = 4. Level 0 (0<->1, 2<->3) and level 1 (0<->2,
// 1<->3) put one flow on each direction of the cable: 8 flows at share 1.
// The extra level 0->4, 1->5 puts two flows on it: 2 flows at 1/2.
// Flow-weighted (ORCS): (4 + 4 + 1) / 10 = 0.9; level by level it would be
// (1 + 1 + 0.5) / 3.
TEST(OrcsPatterns, RecursiveDoublingIsFlowWeighted) {
  const Rig rig(2, 3);
  EXPECT_EQ(pairs("orcs:recdbl", 6, 2), (RankPairs{{0, 4}, {1, 5}}));
  EXPECT_DOUBLE_EQ(rig.ebb("orcs:recdbl"), 0.9);
}

// tree on 6 ranks: 0->1 | 0->2, 1->3 | 0->4, 1->5. Only the last level
// shares the cable (two flows at 1/2): (1 + 2 + 1) / 5 = 0.8.
TEST(OrcsPatterns, BinomialTree) {
  const Rig rig(2, 3);
  EXPECT_EQ(pairs("orcs:tree", 6, 1), (RankPairs{{0, 2}, {1, 3}}));
  EXPECT_DOUBLE_EQ(rig.ebb("orcs:tree"), 0.8);
}

// ring: n levels of one flow each, so every flow runs alone: always 1.
TEST(OrcsPatterns, RingRunsOneFlowPerLevel) {
  const Rig rig(2, 3);
  EXPECT_EQ(orcs_levels(*parse_orcs_pattern("orcs:ring"), 6), 6u);
  EXPECT_EQ(pairs("orcs:ring", 6, 5), (RankPairs{{5, 0}}));
  EXPECT_DOUBLE_EQ(rig.ebb("orcs:ring", 20, "random"), 1.0);
}

// scatter on a crossbar of 5 hosts: ORCS runs an even count, so 4 ranks:
// 0 -> 1, 2, 3 share rank 0's host link: 1/3 each.
TEST(OrcsPatterns, ScatterOnAnOddHostCountUsesOneRankFewer) {
  const Rig rig(1, 5);
  EXPECT_DOUBLE_EQ(rig.ebb("orcs:scatter"), 1.0 / 3);
  EXPECT_DOUBLE_EQ(rig.ebb("orcs:gather"), 1.0 / 3);
}

// A K the ranks cannot hold is refused, not scored as a smaller pattern:
// receivers:K takes at most half the ranks, neighbor:K at most ranks - 1.
TEST(OrcsPatterns, KBeyondTheRanksIsRefused) {
  const Rig rig(1, 6);
  EXPECT_NO_THROW(rig.ebb("orcs:receivers:3"));
  EXPECT_THROW(rig.ebb("orcs:receivers:4"), std::runtime_error);
  EXPECT_THROW(rig.ebb("orcs:receivers:100000"), std::runtime_error);
  EXPECT_NO_THROW(rig.ebb("orcs:neighbor:5"));
  EXPECT_THROW(rig.ebb("orcs:neighbor:6"), std::runtime_error);
}

// receivers:2 on 6 ranks: ranks 0 and 1 receive from two random senders
// each; on a crossbar every flow shares its receiver's link: 1/2.
TEST(OrcsPatterns, ReceiversShareTheirLinks) {
  const Rig rig(1, 6);
  EXPECT_DOUBLE_EQ(rig.ebb("orcs:receivers:2", 50), 0.5);
  const RankPairs p = pairs("orcs:receivers:2", 6);
  ASSERT_EQ(p.size(), 4u);
  for (const auto& [src, dst] : p) EXPECT_TRUE(src >= 2 && dst < 2);
}

// rand: a derangement, every rank sends once and receives once, never to
// itself; on a crossbar that is always 1.
TEST(OrcsPatterns, RandIsADerangement) {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    std::mt19937_64 rng(seed);
    RankPairs out;
    orcs_pairs(*parse_orcs_pattern("orcs:rand"), 7, 0, rng, out);
    ASSERT_EQ(out.size(), 7u);
    std::set<std::uint32_t> senders, receivers;
    for (const auto& [src, dst] : out) {
      EXPECT_NE(src, dst);
      senders.insert(src);
      receivers.insert(dst);
    }
    EXPECT_EQ(senders.size(), 7u);
    EXPECT_EQ(receivers.size(), 7u);
  }
  EXPECT_DOUBLE_EQ(Rig(1, 8).ebb("orcs:rand", 100), 1.0);
}

// neighbor2d on 8 ranks: a 3 x 3 grid with cell (2,2) empty. Rank 5 at
// (2,1): west 4, east (wrapped) 3, north 2, south skips the empty cell and
// wraps to 2. Rank 6 at (0,2): west skips to 7, east 7, north 3, south 0.
TEST(OrcsPatterns, Neighbor2dSkipsEmptyCells) {
  const RankPairs p = pairs("orcs:neighbor2d", 8);
  auto of = [&](std::uint32_t r) {
    std::set<std::uint32_t> s;
    for (const auto& [src, dst] : p)
      if (src == r) s.insert(dst);
    return s;
  };
  EXPECT_EQ(of(5), (std::set<std::uint32_t>{2, 3, 4}));
  EXPECT_EQ(of(6), (std::set<std::uint32_t>{0, 3, 7}));
  // 6 ranks fill a 3 x 2 grid: three distinct neighbours each, so on a
  // crossbar every host link carries 3 flows: 1/3.
  EXPECT_DOUBLE_EQ(Rig(1, 6).ebb("orcs:neighbor2d"), 1.0 / 3);
}

// neighbor:2 on 4 ranks: 0 pairs with 1 and 2, then 1 with 2; rank 3 finds
// no later rank and idles.
TEST(OrcsPatterns, KNeighbors) {
  EXPECT_EQ(pairs("orcs:neighbor:2", 4),
            (RankPairs{{0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}, {2, 1}}));
}

TEST(OrcsPatterns, Names) {
  EXPECT_FALSE(parse_orcs_pattern("ring"));
  EXPECT_THROW(parse_orcs_pattern("orcs:nope"), std::runtime_error);
  EXPECT_THROW(parse_orcs_pattern("orcs:neighbor"), std::runtime_error);
  EXPECT_THROW(parse_orcs_pattern("orcs:neighbor:0"), std::runtime_error);
  EXPECT_THROW(parse_orcs_pattern("orcs:ring:3"), std::runtime_error);
  EXPECT_EQ(parse_orcs_pattern("orcs:receivers:12")->k, 12u);
}

}  // namespace
}  // namespace psssp::sim
