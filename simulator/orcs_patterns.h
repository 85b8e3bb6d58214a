// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The traffic patterns of ORCS (the Oblivious Routing Congestion Simulator of
// Hoefler and Schneider), by name ("orcs:rand", "orcs:neighbor:4", ...), so
// that published ORCS numbers can be reproduced. Defined from ORCS's pattern
// generator; where they differ from psssp-sim's own patterns:
//  - rand is a derangement (every rank sends, nobody to itself);
//  - ring runs n levels of one flow each (rank l -> l+1 in level l);
//  - recdbl with n not a power of two: the first P = 2^floor(log2 n) ranks
//    exchange for log2 P levels, then one level i -> i+P for i < n-P;
//  - neighbor2d uses an xmax = ceil(sqrt n) by ymax = ceil(n/xmax) grid and
//    skips its empty cells, with wrap-around;
//  - a run holds every level, and its value is averaged over all flows of
//    all levels (flow-weighted), not level by level.
// The random draws use psssp-sim's portable RNG, so single runs differ from
// ORCS's Mersenne twister while the distributions are the same.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace psssp::sim {

enum class OrcsKind {
  rand,
  ring,
  recdbl,
  tree,
  bruck,
  scatter,
  gather,
  neighbor2d,
  neighbor,
  receivers
};

struct OrcsPattern {
  OrcsKind kind = OrcsKind::rand;
  unsigned k = 0;  // neighbor:K and receivers:K
};

using RankPairs = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

// Throws when K of neighbor:K or receivers:K does not fit `ranks` ranks
// (neighbor: at most ranks - 1 peers; receivers: at most half the ranks), so
// a pattern is never scored as a smaller one than was asked.
void check_orcs_k(const OrcsPattern& p, std::size_t ranks, const std::string& name);

// nullopt unless `name` starts with "orcs:"; throws std::runtime_error on an
// unknown orcs: name or a bad K.
std::optional<OrcsPattern> parse_orcs_pattern(const std::string& name);

// The names, for messages and help: "orcs:rand, orcs:ring, ...".
std::string orcs_pattern_names();

// Levels of one run on n ranks (at least 1).
std::size_t orcs_levels(const OrcsPattern& pattern, std::uint32_t n);

// Whether the pattern itself draws random numbers (rand, receivers).
bool orcs_random(const OrcsPattern& pattern);

// Replaces `out` with the rank pairs of `level` on n ranks.
void orcs_pairs(const OrcsPattern& pattern, std::uint32_t n, std::size_t level,
                std::mt19937_64& rng, RankPairs& out);

}  // namespace psssp::sim
