// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "patterns.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>

#include "testing/chain.h"
#include "traffic/rng.h"

namespace psssp::sim {
namespace {

TEST(Rng, StandardGeneratorsAreThePortableOnes) {
  // C++ [rand.predef]: the 10000th output of a default mt19937_64.
  std::mt19937_64 mt;
  mt.discard(9999);
  EXPECT_EQ(mt(), 9981545732273789042ull);
  // splitmix64 reference (Vigna): first output from state 0.
  EXPECT_EQ(splitmix64(0), 0xE220A8397B1DCDAFull);
}

TEST(Rng, ShuffleIsUniformEnough) {
  // 3 elements, 60000 shuffles: each of 6 orders ~10000 times.
  std::map<std::vector<int>, int> seen;
  std::mt19937_64 rng(5);
  for (int i = 0; i < 60000; ++i) {
    std::vector<int> v{0, 1, 2};
    shuffle(v, rng);
    ++seen[v];
  }
  ASSERT_EQ(seen.size(), 6u);
  for (const auto& [order, n] : seen) EXPECT_NEAR(n, 10000, 500);
  for (int i = 0; i < 1000; ++i) EXPECT_LT(uniform_below(rng, 7), 7u);
}

TEST(Rng, ReciprocalModuloIsExact) {
  std::mt19937_64 rng(9);
  const std::uint64_t edges[] = {
      0, 1, 2, 3, UINT64_MAX, UINT64_MAX - 1, 1ull << 63, (1ull << 63) - 1};
  for (std::uint64_t d :
       {2ull, 3ull, 7ull, 4096ull, 4095ull, 49151ull, 1ull << 32, (1ull << 63) + 5}) {
    const std::uint64_t r = UINT64_MAX / d;
    for (std::uint64_t x : edges) EXPECT_EQ(mod_by_reciprocal(x, d, r), x % d) << x << " % " << d;
    for (std::uint64_t x : {d - 1, d, d + 1, 2 * d - 1, UINT64_MAX - UINT64_MAX % d - 1})
      EXPECT_EQ(mod_by_reciprocal(x, d, r), x % d) << x << " % " << d;
    for (int i = 0; i < 10000; ++i) {
      const std::uint64_t x = rng();
      EXPECT_EQ(mod_by_reciprocal(x, d, r), x % d);
    }
  }
}

TEST(Rng, ShuffleWithReciprocalsIsTheSamePermutation) {
  const ShuffleReciprocals rec(5000);
  for (std::size_t n : {0, 1, 2, 3, 17, 4096, 5000}) {
    std::vector<std::uint32_t> a(n), b(n);
    for (std::uint32_t i = 0; i < n; ++i) a[i] = b[i] = i;
    std::mt19937_64 ra(n), rb(n);
    shuffle(a, ra);
    shuffle(b, rb, rec);
    EXPECT_EQ(a, b) << n;
    EXPECT_EQ(ra(), rb());  // the same number of draws
  }
}

struct Hosts {
  testing::Chain chain = testing::make_chain(1, 10);
  std::vector<Host> hosts = select_hosts(chain.fabric, {});
};

std::vector<Flow> flows_of(const Hosts& h, const std::string& pattern, std::uint64_t run,
                           const std::string& grid = "", std::uint64_t hosts_limit = 0) {
  std::vector<Host> hosts = h.hosts;
  if (hosts_limit) hosts.resize(hosts_limit);
  const PatternGenerator gen(hosts, parse_pattern(pattern, grid, "", "", h.chain.fabric, hosts), 9);
  std::vector<Flow> out;
  PatternGenerator::Scratch s;
  gen.flows(run, out, s);
  return out;
}

TEST(Patterns, BisectOddLeavesOneIdle) {
  const Hosts h;
  const auto f = flows_of(h, "bisect", 4, "", 7);
  ASSERT_EQ(f.size(), 3u);
  std::set<std::uint32_t> used;
  for (const Flow& x : f) {
    used.insert(x.src);
    used.insert(x.dst);
    EXPECT_EQ(x.dlid, h.hosts[x.dst].lid);
  }
  EXPECT_EQ(used.size(), 6u);
  const auto fb = flows_of(h, "bisect-fb", 4, "", 7);
  ASSERT_EQ(fb.size(), 6u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(fb[i].src, f[i].src);  // same matching as bisect
    EXPECT_EQ(fb[i + 3].src, f[i].dst);
    EXPECT_EQ(fb[i + 3].dst, f[i].src);
  }
  // Deterministic per run, different across runs.
  EXPECT_EQ(flows_of(h, "bisect", 4, "", 7)[1].dst, f[1].dst);
  bool differ = false;
  for (std::uint64_t r = 5; r < 10; ++r)
    differ = differ || flows_of(h, "bisect", r, "", 7)[0].src != f[0].src;
  EXPECT_TRUE(differ);
}

TEST(Patterns, DeterministicPhases) {
  const Hosts h;  // 10 ranks
  auto pairs = [](const std::vector<Flow>& f) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> p;
    for (const Flow& x : f) p.emplace_back(x.src, x.dst);
    return p;
  };
  EXPECT_EQ(flows_of(h, "shift", 2)[3].dst, 6u);  // shift by 3
  EXPECT_EQ(flows_of(h, "shift", 2).size(), 10u);
  EXPECT_EQ(flows_of(h, "ring", 0)[9].dst, 0u);
  // recursive doubling, phase 3 (xor 8): only ranks 0,1 <-> 8,9.
  EXPECT_EQ(pairs(flows_of(h, "recursive-doubling", 3)),
            (std::vector<std::pair<std::uint32_t, std::uint32_t>>{{0, 8}, {1, 9}, {8, 0}, {9, 1}}));
  EXPECT_EQ(flows_of(h, "dissemination", 2)[7].dst, 1u);  // 7 + 4 mod 10
  EXPECT_EQ(flows_of(h, "gather", 0).size(), 9u);
  // 3x3 periodic grid, ranks 0..8: 4 neighbours each.
  EXPECT_EQ(flows_of(h, "halo2d", 0, "3x3").size(), 36u);
  // 2x4 grid: the dimension of size 2 has a single neighbour.
  EXPECT_EQ(flows_of(h, "halo2d", 0, "2x4").size(), 8u * 3);
  EXPECT_EQ(flows_of(h, "halo3d", 0, "2x1x5").size(), 10u * 3);
  EXPECT_THROW(flows_of(h, "halo2d", 0, "4x4"), std::runtime_error);  // 16 > 10 hosts
  EXPECT_THROW(flows_of(h, "nope", 0), std::runtime_error);
}

TEST(Patterns, PermutationHasNoSelfFlows) {
  const Hosts h;
  for (std::uint64_t r = 0; r < 20; ++r) {
    std::set<std::uint32_t> dsts;
    for (const Flow& f : flows_of(h, "permutation", r)) {
      EXPECT_NE(f.src, f.dst);
      dsts.insert(f.dst);
    }
  }
}

TEST(Patterns, BalancedGrid) {
  EXPECT_EQ(balanced_grid(64, 2), (std::vector<unsigned>{8, 8}));
  EXPECT_EQ(balanced_grid(12, 2), (std::vector<unsigned>{4, 3}));
  EXPECT_EQ(balanced_grid(24, 3), (std::vector<unsigned>{4, 3, 2}));
  EXPECT_EQ(balanced_grid(7, 2), (std::vector<unsigned>{7, 1}));
}

TEST(Patterns, FileAndMapping) {
  const Hosts h;
  const std::string path = ::testing::TempDir() + "/psssp_pattern.txt";
  {
    std::ofstream out(path);
    // LIDs and a port GUID; "--" starts phase 2.
    out << "# comment\n"
        << h.hosts[0].lid << " " << h.hosts[3].lid << "\n--\n0x" << std::hex
        << h.chain.fabric.port(h.hosts[5].port).guid << std::dec << " " << h.hosts[1].lid << "\n";
  }
  const auto spec = parse_pattern("file:" + path, "", "", "", h.chain.fabric, h.hosts);
  const PatternGenerator gen(h.hosts, spec, 1);
  EXPECT_EQ(gen.phase_count(), 2u);
  EXPECT_FALSE(gen.random());
  std::vector<Flow> f;
  PatternGenerator::Scratch s;
  gen.flows(1, f, s);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].src, 5u);
  EXPECT_EQ(f[0].dst, 1u);

  const std::string map = ::testing::TempDir() + "/psssp_map.txt";
  {
    std::ofstream out(map);
    out << h.hosts[9].lid << "\n" << h.hosts[2].lid << "\n";
  }
  const PatternGenerator ring(h.hosts, parse_pattern("ring", "", map, "", h.chain.fabric, h.hosts),
                              1);
  ring.flows(0, f, s);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].src, 9u);
  EXPECT_EQ(f[0].dst, 2u);
}

TEST(Patterns, HostnameMappingRanksServerByServer) {
  // 2 servers x 2 HCAs: fabric order node001 mlx5_0, node002 mlx5_0,
  // node001 mlx5_1, node002 mlx5_1; hostname order the servers' HCAs in turn.
  Fabric fabric = topo::build_fabric(topo::rail_optimized(1, 2, 2, 1, 1));
  psssp::testing::assign_lids(fabric);
  const std::vector<Host> hosts = select_hosts(fabric, {});
  const PatternSpec spec = parse_pattern("ring", "", "hostname", "", fabric, hosts);
  EXPECT_EQ(spec.mapping_hosts, (std::vector<std::uint32_t>{0, 2, 1, 3}));
  const PatternGenerator gen(hosts, spec, 1);
  EXPECT_FALSE(gen.random());
  std::vector<Flow> f;
  PatternGenerator::Scratch s;
  gen.flows(0, f, s);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (const Flow& flow : f) pairs.emplace_back(flow.src, flow.dst);
  // Rank i -> i + 1: node001 mlx5_0 -> node001 mlx5_1 -> node002 mlx5_0 -> ...
  EXPECT_EQ(pairs,
            (std::vector<std::pair<std::uint32_t, std::uint32_t>>{{0, 2}, {2, 1}, {1, 3}, {3, 0}}));
  // The linear mapping keeps the fabric order.
  const PatternGenerator linear(hosts, parse_pattern("ring", "", "linear", "", fabric, hosts), 1);
  linear.flows(0, f, s);
  EXPECT_EQ(f[0].dst, 1u);
}

}  // namespace
}  // namespace psssp::sim
