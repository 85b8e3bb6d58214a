// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "orcs_patterns.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "traffic/rng.h"

namespace psssp::sim {
namespace {

struct OrcsName {
  const char* name;
  OrcsKind kind;
  bool takes_k;
};
constexpr OrcsName kOrcsNames[] = {
    {"rand", OrcsKind::rand, false},        {"ring", OrcsKind::ring, false},
    {"recdbl", OrcsKind::recdbl, false},    {"tree", OrcsKind::tree, false},
    {"bruck", OrcsKind::bruck, false},      {"scatter", OrcsKind::scatter, false},
    {"gather", OrcsKind::gather, false},    {"neighbor2d", OrcsKind::neighbor2d, false},
    {"neighbor", OrcsKind::neighbor, true}, {"receivers", OrcsKind::receivers, true},
};

unsigned floor_log2(std::uint32_t n) {
  unsigned l = 0;
  while ((std::uint64_t{2} << l) <= n) ++l;
  return l;
}

unsigned ceil_log2(std::uint32_t n) {
  unsigned l = 0;
  while ((std::uint64_t{1} << l) < n) ++l;
  return l;
}

// A derangement drawn as ORCS draws it: each source in turn takes a random
// remaining destination other than itself; if only itself remains for the
// last source, it trades destinations with a random earlier pair.
void derangement(std::uint32_t n, std::mt19937_64& rng, RankPairs& out) {
  if (n < 2) return;
  std::vector<std::uint32_t> left(n);
  for (std::uint32_t i = 0; i < n; ++i) left[i] = i;
  for (std::uint32_t src = 0; src < n; ++src) {
    for (;;) {
      const auto pos = static_cast<std::size_t>(uniform_below(rng, left.size()));
      if (left[pos] != src) {
        out.emplace_back(src, left[pos]);
        left.erase(left.begin() + static_cast<std::ptrdiff_t>(pos));
        break;
      }
      if (src == n - 1) {
        auto& trade = out[static_cast<std::size_t>(uniform_below(rng, out.size()))];
        out.emplace_back(src, trade.second);
        trade.second = src;
        left.clear();
        break;
      }
    }
  }
}

void recursive_doubling(std::uint32_t n, std::size_t level, RankPairs& out) {
  const std::uint32_t power = std::uint32_t{1} << floor_log2(n);
  const std::uint64_t dist = std::uint64_t{1} << level;
  if (dist < power) {
    for (std::uint64_t i = 0; i < power; i += 2 * dist)
      for (std::uint64_t j = 0; j < dist; ++j) {
        const auto k = static_cast<std::uint32_t>(i + j);
        if (k + dist >= n) continue;
        out.emplace_back(k, k + dist);
        out.emplace_back(static_cast<std::uint32_t>(k + dist), k);
      }
    return;
  }
  for (std::uint32_t i = 0; i + power < n; ++i) out.emplace_back(i, i + power);  // the rest
}

// The grid cell of `x, y` wrapped around, skipping cells beyond rank n - 1.
std::uint32_t grid_neighbour(std::uint32_t n, int xmax, int ymax, int x, int y, int dx, int dy) {
  for (int step = 1;; ++step) {
    const int nx = ((x + dx * step) % xmax + xmax) % xmax;
    const int ny = ((y + dy * step) % ymax + ymax) % ymax;
    const auto rank = static_cast<std::uint32_t>(ny * xmax + nx);
    if (rank < n) return rank;
  }
}

void neighbor2d(std::uint32_t n, RankPairs& out) {
  const int xmax = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
  const int ymax = static_cast<int>(std::ceil(static_cast<double>(n) / xmax));
  for (std::uint32_t r = 0; r < n; ++r) {
    const int x = static_cast<int>(r) % xmax, y = static_cast<int>(r) / xmax;
    for (const auto& [dx, dy] :
         {std::pair{-1, 0}, std::pair{1, 0}, std::pair{0, -1}, std::pair{0, 1}})
      out.emplace_back(r, grid_neighbour(n, xmax, ymax, x, y, dx, dy));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  out.erase(
      std::remove_if(out.begin(), out.end(), [](const auto& p) { return p.first == p.second; }),
      out.end());
}

// Every rank pairs with up to k others: each free slot of rank i goes to the
// first later rank that is not yet its peer and has a free slot.
void k_neighbors(std::uint32_t n, unsigned k, RankPairs& out) {
  k = std::min<unsigned>(k, n ? n - 1 : 0);
  constexpr std::uint32_t kFree = ~std::uint32_t{0};
  std::vector<std::uint32_t> slot(std::size_t{n} * k, kFree);
  auto peers = [&](std::uint32_t r) { return slot.begin() + static_cast<std::ptrdiff_t>(r) * k; };
  for (std::uint32_t i = 0; i < n; ++i)
    for (unsigned s = 0; s < k; ++s) {
      if (peers(i)[s] != kFree) continue;
      for (std::uint32_t j = i + 1; j < n; ++j) {
        if (std::find(peers(j), peers(j) + k, i) != peers(j) + k) continue;
        const auto free = std::find(peers(j), peers(j) + k, kFree);
        if (free == peers(j) + k) continue;
        peers(i)[s] = j;
        *free = i;
        break;
      }
    }
  for (std::uint32_t i = 0; i < n; ++i)
    for (unsigned s = 0; s < k; ++s)
      if (peers(i)[s] != kFree) out.emplace_back(i, peers(i)[s]);
}

// Ranks 0..k-1 receive; the others, in random order, send to them in turn.
void receivers(std::uint32_t n, unsigned k, std::mt19937_64& rng, RankPairs& out) {
  k = std::min<unsigned>(k, n / 2);
  if (k == 0) return;
  std::vector<std::uint32_t> senders;
  for (std::uint32_t r = k; r < n; ++r) senders.push_back(r);
  for (std::uint32_t i = 0; !senders.empty(); ++i) {
    const auto pos = static_cast<std::size_t>(uniform_below(rng, senders.size()));
    out.emplace_back(senders[pos], i % k);
    senders.erase(senders.begin() + static_cast<std::ptrdiff_t>(pos));
  }
}

}  // namespace

std::optional<OrcsPattern> parse_orcs_pattern(const std::string& name) {
  if (name.rfind("orcs:", 0) != 0) return std::nullopt;
  const std::string rest = name.substr(5);
  const auto colon = rest.find(':');
  const std::string base = rest.substr(0, colon);
  for (const OrcsName& o : kOrcsNames) {
    if (base != o.name) continue;
    OrcsPattern p{o.kind, 0};
    if (!o.takes_k) {
      if (colon != std::string::npos)
        throw std::runtime_error("pattern '" + name + "': orcs:" + base + " takes no :K");
      return p;
    }
    const std::string k = colon == std::string::npos ? "" : rest.substr(colon + 1);
    if (k.empty() || k.size() > 6 || k.find_first_not_of("0123456789") != std::string::npos ||
        std::stoul(k) == 0)
      throw std::runtime_error("pattern '" + name + "': orcs:" + base +
                               " needs :K, a whole number from 1 to 999999");
    p.k = static_cast<unsigned>(std::stoul(k));
    return p;
  }
  throw std::runtime_error("unknown pattern '" + name + "' (" + orcs_pattern_names() + ")");
}

void check_orcs_k(const OrcsPattern& p, std::size_t ranks, const std::string& name) {
  std::size_t most = 0;
  if (p.kind == OrcsKind::neighbor)
    most = ranks ? ranks - 1 : 0;
  else if (p.kind == OrcsKind::receivers)
    most = ranks / 2;
  else
    return;
  if (p.k > most)
    throw std::runtime_error("pattern '" + name + "': K is at most " + std::to_string(most) +
                             " with " + std::to_string(ranks) + " ranks");
}

std::string orcs_pattern_names() {
  std::string names;
  for (const OrcsName& o : kOrcsNames)
    names += std::string(names.empty() ? "" : ", ") + "orcs:" + o.name + (o.takes_k ? ":K" : "");
  return names;
}

std::size_t orcs_levels(const OrcsPattern& p, std::uint32_t n) {
  switch (p.kind) {
    case OrcsKind::ring:
      return std::max<std::size_t>(n, 1);
    case OrcsKind::recdbl: {
      const unsigned l = floor_log2(std::max<std::uint32_t>(n, 1));
      return std::max<std::size_t>(l + ((std::uint32_t{1} << l) < n ? 1 : 0), 1);
    }
    case OrcsKind::tree:
    case OrcsKind::bruck:
      return std::max<std::size_t>(ceil_log2(n), 1);
    default:
      return 1;
  }
}

bool orcs_random(const OrcsPattern& p) {
  return p.kind == OrcsKind::rand || p.kind == OrcsKind::receivers;
}

void orcs_pairs(const OrcsPattern& p, std::uint32_t n, std::size_t level, std::mt19937_64& rng,
                RankPairs& out) {
  out.clear();
  const std::uint64_t dist = std::uint64_t{1} << std::min<std::size_t>(level, 40);
  switch (p.kind) {
    case OrcsKind::rand:
      return derangement(n, rng, out);
    case OrcsKind::ring:
      if (n >= 2 && level < n)
        out.emplace_back(static_cast<std::uint32_t>(level),
                         static_cast<std::uint32_t>((level + 1) % n));
      return;
    case OrcsKind::recdbl:
      return recursive_doubling(n, level, out);
    case OrcsKind::tree:  // binomial tree: ranks below 2^l send 2^l further
      for (std::uint64_t i = 0; i < dist && i + dist < n; ++i)
        out.emplace_back(static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + dist));
      return;
    case OrcsKind::bruck:
      if (dist < n)
        for (std::uint32_t i = 0; i < n; ++i)
          out.emplace_back(i, static_cast<std::uint32_t>((i + dist) % n));
      return;
    case OrcsKind::scatter:
      for (std::uint32_t i = 1; i < n; ++i) out.emplace_back(0, i);
      return;
    case OrcsKind::gather:
      for (std::uint32_t i = 1; i < n; ++i) out.emplace_back(i, 0);
      return;
    case OrcsKind::neighbor2d:
      return neighbor2d(n, out);
    case OrcsKind::neighbor:
      return k_neighbors(n, p.k, out);
    case OrcsKind::receivers:
      return receivers(n, p.k, rng, out);
  }
}

}  // namespace psssp::sim
