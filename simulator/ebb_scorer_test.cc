// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "ebb_scorer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "patterns.h"
#include "stats.h"
#include "testing/scoring_rig.h"

namespace psssp::sim {
namespace {

using Rig = testing::ScoringRig;

std::vector<RunScore> run_pattern(const Rig& s, const std::string& pattern, std::uint64_t runs,
                                  unsigned threads, bool maxmin = false, std::uint64_t seed = 7) {
  const PatternGenerator gen(
      s.hosts, parse_pattern(pattern, "", "linear", "first", s.chain.fabric, s.hosts), seed);
  ScoreConfig cfg;
  cfg.runs = runs;
  cfg.threads = threads;
  cfg.maxmin = maxmin;
  return score_runs(gen, {s.scorer.get()}, cfg)[0].runs;
}

TEST(EbbScorer, CrossbarIsAlwaysFull) {
  const Rig s(1, 16);
  for (const char* p : {"bisect", "bisect-fb", "permutation", "shift"}) {
    for (const RunScore& r : run_pattern(s, p, 200, 2, true)) {
      EXPECT_EQ(r.ebb, 1.0) << p;
      EXPECT_EQ(r.capacity, 1.0) << p;
      EXPECT_EQ(r.maxmin, 1.0) << p;
    }
  }
}

TEST(EbbScorer, GatherSharesTheRootLink) {
  // n-1 flows into rank 0's host link: each gets 1/(n-1).
  const Rig s(1, 9);
  for (const RunScore& r : run_pattern(s, "gather", 1, 1, true)) {
    EXPECT_DOUBLE_EQ(r.ebb, 1.0 / 8);
    EXPECT_DOUBLE_EQ(r.maxmin, 1.0 / 8);
  }
}

// Two switches A and B, H hosts each, one cable between them; N = 2H hosts,
// H bisect flows. With X flows crossing A->B and Y crossing B->A, the host
// links carry one flow each, so non-crossing flows get 1 and the X (Y)
// crossing flows get 1/X (1/Y) each:
//   run value = (H - X - Y + [X > 0] + [Y > 0]) / H.
double two_switch_value(unsigned h, unsigned x, unsigned y) {
  return (h - x - y + (x > 0) + (y > 0)) / static_cast<double>(h);
}

// Its expectation under a uniform shuffle: the first half holds k hosts of A
// with probability C(H,k) C(H,H-k) / C(2H,H); the k A-sources meet a second
// half of H-k A's and k B's, so X ~ Hypergeometric: C(k,x) C(H-k,k-x) / C(H,k),
// and Y = (H-k) - (k-x) (B-sources not matched to the k-x remaining B's).
double binom(unsigned n, unsigned k) {
  if (k > n) return 0.0;
  double r = 1.0;
  for (unsigned i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}
double two_switch_expectation(unsigned h) {
  double e = 0.0;
  for (unsigned k = 0; k <= h; ++k) {
    const double pk = binom(h, k) * binom(h, h - k) / binom(2 * h, h);
    for (unsigned x = 0; x <= k; ++x) {
      if (k - x > h - k) continue;
      const double px = binom(k, x) * binom(h - k, k - x) / binom(h, k);
      const unsigned y = (h - k) - (k - x);
      e += pk * px * two_switch_value(h, x, y);
    }
  }
  return e;
}

TEST(EbbScorer, TwoSwitchesEveryRunMatchesClosedForm) {
  const unsigned h = 8;
  const Rig s(2, h);
  const PatternGenerator gen(s.hosts, parse_pattern("bisect", "", "", "", s.chain.fabric, s.hosts),
                             3);
  ScoreConfig cfg;
  cfg.runs = 2000;
  cfg.threads = 3;
  cfg.maxmin = true;
  const auto runs = score_runs(gen, {s.scorer.get()}, cfg)[0].runs;
  std::vector<Flow> flows;
  PatternGenerator::Scratch scratch;
  std::vector<double> values;
  for (std::uint64_t r = 0; r < cfg.runs; ++r) {
    gen.flows(r, flows, scratch);
    ASSERT_EQ(flows.size(), h);
    unsigned x = 0, y = 0;
    for (const Flow& f : flows) {
      x += f.src < h && f.dst >= h;  // hosts 0..h-1 hang off A
      y += f.src >= h && f.dst < h;
    }
    EXPECT_NEAR(runs[r].ebb, two_switch_value(h, x, y), 1e-12) << "run " << r;
    EXPECT_NEAR(runs[r].capacity, runs[r].ebb, 1e-12);  // all links alike
    EXPECT_NEAR(runs[r].maxmin, runs[r].ebb, 1e-12);    // one bottleneck per flow
    values.push_back(runs[r].ebb);
  }
  // The Monte-Carlo mean lies within its 99.99% interval of the exact value.
  const Summary sum = summarize(values);
  EXPECT_NEAR(sum.mean, two_switch_expectation(h), 4 * sum.stddev / std::sqrt(2000.0));
}

TEST(EbbScorer, TwoSwitchesExhaustiveEqualsExpectation) {
  // All (2H)! shuffles for H = 4: the scorer's mean equals the formula.
  const unsigned h = 4;
  const Rig s(2, h);
  std::vector<std::uint32_t> perm(2 * h);
  std::iota(perm.begin(), perm.end(), 0u);
  auto ws = s.scorer->workspace();
  std::vector<Flow> flows(h);
  double sum = 0.0;
  std::uint64_t count = 0;
  do {
    for (unsigned i = 0; i < h; ++i)
      flows[i] = Flow{perm[i], perm[h + i], s.hosts[perm[h + i]].lid};
    sum += s.scorer->score(flows, ws, false, nullptr).ebb;
    ++count;
  } while (std::next_permutation(perm.begin(), perm.end()));
  EXPECT_EQ(count, 40320u);
  EXPECT_NEAR(sum / static_cast<double>(count), two_switch_expectation(h), 1e-12);
  // Sanity of the formula itself at the extremes: H = 1 always crosses once.
  EXPECT_NEAR(two_switch_expectation(1), 1.0, 1e-15);
}

TEST(EbbScorer, ResultsDoNotDependOnThreads) {
  const Rig s(3, 5);
  for (const char* p : {"bisect", "bisect-fb", "permutation"}) {
    const auto one = run_pattern(s, p, 300, 1, true);
    for (unsigned t : {2u, 3u, 8u}) {
      const auto many = run_pattern(s, p, 300, t, true);
      for (std::size_t r = 0; r < one.size(); ++r) {
        EXPECT_EQ(one[r].ebb, many[r].ebb);
        EXPECT_EQ(one[r].capacity, many[r].capacity);
        EXPECT_EQ(one[r].maxmin, many[r].maxmin);
      }
    }
  }
}

// Without --maxmin runs take the dense-table path, with it the general
// tracer: both give the same eBB and capacity share, bit for bit, with equal
// and with mixed link rates.
TEST(EbbScorer, DenseAndGeneralPathsAgree) {
  for (bool mixed : {false, true}) {
    Rig s(4, 5, 1);
    if (mixed) {
      s.chain.fabric.port({s.chain.sw[1], 1}).rate = LinkRate{LinkWidth::x1, LinkSpeed::qdr};
      s.chain.fabric.port({s.chain.sw[0], 6}).rate = LinkRate{LinkWidth::x12, LinkSpeed::qdr};
      s.chain.fabric.port({s.hosts[3].port}).rate = LinkRate{LinkWidth::x8, LinkSpeed::fdr};
      s.scorer = std::make_unique<EbbScorer>(*s.tracer, s.hosts);
    }
    for (const char* p : {"bisect", "bisect-fb", "permutation", "gather"}) {
      const auto dense = run_pattern(s, p, 200, 2, false);
      const auto general = run_pattern(s, p, 200, 1, true);
      for (std::size_t r = 0; r < dense.size(); ++r) {
        EXPECT_EQ(dense[r].ebb, general[r].ebb) << p << " run " << r;
        EXPECT_EQ(dense[r].capacity, general[r].capacity) << p << " run " << r;
      }
    }
  }
}

TEST(EbbScorer, DifferentSeedsDiffer) {
  const Rig s(3, 5);
  const auto a = run_pattern(s, "bisect", 50, 1, false, 1);
  const auto b = run_pattern(s, "bisect", 50, 1, false, 2);
  bool differ = false;
  for (std::size_t r = 0; r < a.size(); ++r) differ = differ || a[r].ebb != b[r].ebb;
  EXPECT_TRUE(differ);
}

// Chain A - B - C, three hosts each (a0..a2, b0..b2, c0..c2 = hosts 0..8):
//   f1 a0->b0 uses A->B; f2 a1->c0 uses A->B and B->C; f3 b1->c1, f4 b2->c2 use B->C.
// eBB: A->B carries 2, B->C 3: shares 1/2, 1/3, 1/3, 1/3 -> 0.375.
// Max-min: B->C fixes f2..f4 at 1/3, A->B then leaves 2/3 for f1 -> 5/12.
TEST(EbbScorer, MaxMinFillsLeftoverCapacity) {
  const Rig s(3, 3);
  auto ws = s.scorer->workspace();
  auto flow = [&](std::uint32_t a, std::uint32_t b) { return Flow{a, b, s.hosts[b].lid}; };
  const std::vector<Flow> flows{flow(0, 3), flow(1, 6), flow(4, 7), flow(5, 8)};
  const RunScore r = s.scorer->score(flows, ws, true, nullptr);
  EXPECT_NEAR(r.ebb, 0.375, 1e-15);
  EXPECT_NEAR(r.capacity, 0.375, 1e-15);
  EXPECT_NEAR(r.maxmin, 5.0 / 12, 1e-15);
  // The workspace is clean again: the same run scores the same.
  EXPECT_EQ(s.scorer->score(flows, ws, true, nullptr).maxmin, r.maxmin);
}

TEST(EbbScorer, CapacityAwareUsesLinkRates) {
  // Both flows cross A->B (count 2): eBB 1/2. A 12x cable (96 Gb/s) gives each
  // 48 Gb/s there, more than the 32 Gb/s host link: capacity share 1.
  Rig s(2, 2);
  const NodeId a = s.chain.sw[0];
  s.chain.fabric.port({a, 3}).rate = LinkRate{LinkWidth::x12, LinkSpeed::qdr};
  s.chain.fabric.port({s.chain.sw[1], 4}).rate = LinkRate{LinkWidth::x12, LinkSpeed::qdr};
  const EbbScorer scorer(*s.tracer, s.hosts);
  auto ws = scorer.workspace();
  const std::vector<Flow> flows{Flow{0, 2, s.hosts[2].lid}, Flow{1, 3, s.hosts[3].lid}};
  const RunScore r = scorer.score(flows, ws, true, nullptr);
  EXPECT_EQ(r.ebb, 0.5);
  EXPECT_EQ(r.capacity, 1.0);
  EXPECT_EQ(r.maxmin, 1.0);
}

TEST(EbbScorer, LinkStatsCountFlows) {
  const Rig s(2, 2);
  auto ws = s.scorer->workspace();
  EbbScorer::LinkStats stats{std::vector<std::uint64_t>(s.scorer->channel_count(), 0),
                             std::vector<std::uint32_t>(s.scorer->channel_count(), 0)};
  const std::vector<Flow> flows{Flow{0, 2, s.hosts[2].lid}, Flow{1, 3, s.hosts[3].lid}};
  s.scorer->score(flows, ws, false, &stats);
  s.scorer->score({flows[0]}, ws, false, &stats);
  const ChannelId ab = s.chain.fabric.channel({s.chain.sw[0], 3});
  EXPECT_EQ(stats.sum[ab], 3u);
  EXPECT_EQ(stats.max[ab], 2u);
  EXPECT_EQ(std::accumulate(stats.sum.begin(), stats.sum.end(), std::uint64_t{0}),
            6u + 3u);  // three channels per flow
}

TEST(EbbScorer, BrokenRouteIsReported) {
  Rig s(2, 2);
  s.lfts.set(s.chain.sw[1], s.hosts[2].lid, kNoPath);
  s.scorer = std::make_unique<EbbScorer>(*s.tracer, s.hosts);  // it copies the tables it uses
  auto ws = s.scorer->workspace();
  try {
    s.scorer->score({Flow{0, 2, s.hosts[2].lid}}, ws, false, nullptr);
    FAIL() << "no RouteError";
  } catch (const RouteError& e) {
    EXPECT_NE(std::string(e.what()).find("black hole"), std::string::npos) << e.what();
  }
  // Counts were rolled back: a good flow still scores 1.
  EXPECT_EQ(s.scorer->score({Flow{0, 3, s.hosts[3].lid}}, ws, false, nullptr).ebb, 1.0);
}

TEST(EbbScorer, LmcOffsetsStayInRange) {
  const Rig s(2, 3, 2);
  for (const char* mode : {"first", "random", "hash"}) {
    const PatternGenerator gen(
        s.hosts, parse_pattern("bisect-fb", "", "", mode, s.chain.fabric, s.hosts), 5);
    std::vector<Flow> flows;
    PatternGenerator::Scratch scratch;
    std::set<unsigned> offsets;
    for (std::uint64_t r = 0; r < 50; ++r) {
      gen.flows(r, flows, scratch);
      for (const Flow& f : flows) {
        ASSERT_GE(f.dlid, s.hosts[f.dst].lid);
        ASSERT_LT(f.dlid, s.hosts[f.dst].lid + 4);
        offsets.insert(f.dlid - s.hosts[f.dst].lid);
      }
    }
    if (std::string(mode) == "first")
      EXPECT_EQ(offsets.size(), 1u);
    else
      EXPECT_GT(offsets.size(), 1u) << mode;
    ScoreConfig cfg;
    cfg.runs = 50;
    EXPECT_NO_THROW(score_runs(gen, {s.scorer.get()}, cfg));
  }
}

}  // namespace
}  // namespace psssp::sim
