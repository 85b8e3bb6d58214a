// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "online_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace psssp::deadlock {
namespace {

// Random edge insertions against a brute-force reachability check: an edge
// is refused exactly when its target already reaches its source, and the
// order stays topological for every accepted edge.
TEST(OnlineTopologicalOrder, MatchesBruteForce) {
  std::mt19937 rng(7);
  for (int round = 0; round < 24; ++round) {
    // Small graphs, and a few denser ones where moves span many positions.
    const std::uint32_t n = round < 20 ? 30 : 200;
    const int edges = round < 20 ? 200 : 3000;
    std::vector<std::vector<std::uint32_t>> out(n), in(n);
    OnlineTopologicalOrder order(n);
    auto reaches = [&](std::uint32_t from, std::uint32_t to) {
      std::vector<bool> seen(n, false);
      std::vector<std::uint32_t> stack{from};
      seen[from] = true;
      while (!stack.empty()) {
        const std::uint32_t v = stack.back();
        stack.pop_back();
        if (v == to) return true;
        for (std::uint32_t w : out[v])
          if (!seen[w]) seen[w] = true, stack.push_back(w);
      }
      return false;
    };
    auto succ = [&](std::uint32_t v, auto&& visit) {
      for (std::uint32_t w : out[v]) visit(w);
    };
    auto pred = [&](std::uint32_t v, auto&& visit) {
      for (std::uint32_t w : in[v]) visit(w);
    };
    for (int k = 0; k < edges; ++k) {
      const auto x = static_cast<std::uint32_t>(rng() % n),
                 y = static_cast<std::uint32_t>(rng() % n);
      const bool cycle = x == y || reaches(y, x);
      ASSERT_EQ(order.insert(x, y, succ, pred), !cycle) << x << "->" << y;
      if (cycle) continue;
      out[x].push_back(y);
      in[y].push_back(x);
      for (std::uint32_t v = 0; v < n; ++v)
        for (std::uint32_t w : out[v]) ASSERT_LT(order.position(v), order.position(w));
      // Occasionally remove an edge: the order must stay valid.
      if (k % 17 == 0 && !out[x].empty()) {
        const std::uint32_t w = out[x].back();
        out[x].pop_back();
        in[w].erase(std::find(in[w].begin(), in[w].end(), x));
      }
    }
  }
}

// Edges from the last vertex to each earlier one, and from each of those to
// the one before it: every insertion moves vertices into the shrinking gap
// right after the last vertex, so the labels run out and are spread again
// (more than 64 halvings); the order must stay topological throughout.
TEST(OnlineTopologicalOrder, SpreadsLabelsWhenAGapRunsOut) {
  const std::uint32_t n = 200;
  std::vector<std::vector<std::uint32_t>> out(n), in(n);
  OnlineTopologicalOrder order(n);
  auto succ = [&](std::uint32_t v, auto&& visit) {
    for (std::uint32_t w : out[v]) visit(w);
  };
  auto pred = [&](std::uint32_t v, auto&& visit) {
    for (std::uint32_t w : in[v]) visit(w);
  };
  const std::uint32_t x = n - 1;
  for (std::uint32_t v = 0; v + 1 < n; ++v) {
    ASSERT_TRUE(order.insert(x, v, succ, pred)) << v;
    out[x].push_back(v);
    in[v].push_back(x);
    if (v > 0) {
      ASSERT_TRUE(order.insert(v, v - 1, succ, pred)) << v;
      out[v].push_back(v - 1);
      in[v - 1].push_back(v);
    }
    for (std::uint32_t a = 0; a < n; ++a)
      for (std::uint32_t b : out[a]) ASSERT_LT(order.position(a), order.position(b));
  }
  // Closing the chain back to x is a cycle.
  EXPECT_FALSE(order.insert(0, x, succ, pred));
}

}  // namespace
}  // namespace psssp::deadlock
