// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "layer_spread.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

#include "parallel/run_workers.h"

namespace psssp::deadlock {
namespace {

// SplitMix64's finaliser: a well-mixed 64-bit hash, the same on every
// platform, so the tables do not depend on the machine.
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Switches whose rows one task writes: each cache line of the
// destination-major paths is read once per block.
constexpr std::size_t kSourceBlock = 64;
// Destinations whose layers a task writes into its rows at once.
constexpr std::size_t kDestBlock = 64;

// Paths without dependencies fit any layer: their deck is this long, the
// layers in it in proportion to what each lacks.
constexpr std::size_t kFreeDeck = 64;

// The threads' counts per layer, added up.
std::vector<std::size_t> add_up(const std::vector<std::vector<std::size_t>>& partial) {
  std::vector<std::size_t> sum(partial.front().size(), 0);
  for (const auto& p : partial)
    for (std::size_t l = 0; l < sum.size(); ++l) sum[l] += p[l];
  return sum;
}

// Adds to load[k] the routes of count[(s - s0) * kinds + k] paths of each
// source s0 <= s < s1 (paths.weight[s] routes per path). Counting paths per
// source and kind, and weighing them once at the end, keeps the loops over
// paths from adding to one counter path after path.
void weigh(const std::vector<std::uint32_t>& count, std::size_t kinds, const PathTable& paths,
           std::size_t s0, std::size_t s1, std::vector<std::size_t>& load) {
  for (std::size_t s = s0; s < s1; ++s)
    for (std::size_t k = 0; k < kinds; ++k)
      load[k] += count[(s - s0) * kinds + k] * paths.weight[s];
}

// The routes (weights) in each first-fit layer, and (the last entry) those
// of paths without dependencies, which fit any layer. A path that repeats
// another (PathTable::repeat) takes its length and layer first, as first
// fit would have placed it; originals repeat none, so no slice writes what
// another reads.
std::vector<std::size_t> settle_first_fit(PathTable& paths, unsigned n, unsigned threads) {
  std::vector<std::vector<std::size_t>> partial(threads, std::vector<std::size_t>(n + 1, 0));
  const bool repeats = !paths.repeat.empty();
  const std::size_t kinds = n + 1;
  parallel::parallel_slices(paths.dests, threads, [&](std::size_t d0, std::size_t d1, unsigned w) {
    std::vector<std::uint32_t> count(paths.sources * kinds, 0);  // weigh()
    // In locals, as in spread_into_table: the byte stores would make the
    // compiler load every pointer again per path.
    const std::size_t sources = paths.sources;
    std::uint8_t* length = paths.length.data();
    std::uint8_t* layer = paths.layer.data();
    const std::uint8_t* repeat = repeats ? paths.repeat.data() : nullptr;
    const std::uint32_t* members = paths.members.data();
    const std::uint32_t* group_first = paths.group_first.data();
    std::uint32_t* counts = count.data();
    for (std::size_t d = d0; d < d1; ++d)
      for (std::size_t s = 0; s < sources; ++s) {
        const std::size_t i = d * sources + s;
        if (repeats && repeat[i] != PathTable::kOwn) {
          const std::size_t o =
              PathTable::original_of(members, group_first, d, repeat[i]) * sources + s;
          length[i] = length[o];
          layer[i] = layer[o];
        }
        ++counts[s * kinds + (length[i] != 0 ? layer[i] : n)];
      }
    weigh(count, kinds, paths, 0, paths.sources, partial[w]);
  });
  return add_up(partial);
}

// Layers in proportion to `count` (summing to the deck's length),
// interleaved: each next the one furthest behind its share.
std::vector<std::uint8_t> interleave(const std::vector<std::size_t>& count) {
  std::size_t total = 0;
  for (const std::size_t c : count) total += c;
  std::vector<std::uint8_t> deck;
  std::vector<std::size_t> dealt(count.size(), 0);
  for (std::size_t k = 1; k <= total; ++k) {
    std::size_t best = 0;
    double behind = -1;
    for (std::size_t l = 0; l < count.size(); ++l) {
      const double b = static_cast<double>(count[l] * k) / static_cast<double>(total) -
                       static_cast<double>(dealt[l]);
      if (count[l] > dealt[l] && b > behind) {
        behind = b;
        best = l;
      }
    }
    ++dealt[best];
    deck.push_back(static_cast<std::uint8_t>(best));
  }
  return deck;
}

// The deck of the paths without dependencies: each layer in proportion to
// what it lacks from an even level once the first-fit groups are dealt
// (`level`: their routes per layer), filled from the emptiest up.
std::vector<std::uint8_t> free_deck(const std::vector<double>& level, std::size_t free_routes) {
  const std::size_t n = level.size();
  std::vector<double> sorted = level;
  std::sort(sorted.begin(), sorted.end());
  // The water line: the free routes raise the emptiest layers to it.
  double line = sorted.back(), rest = static_cast<double>(free_routes);
  for (std::size_t k = 1; k <= n; ++k) {
    const double next = k < n ? sorted[k] : sorted.back() + rest;
    const double fill = (next - sorted[k - 1]) * static_cast<double>(k);
    if (k == n || fill >= rest) {
      line = sorted[k - 1] + rest / static_cast<double>(k);
      break;
    }
    rest -= fill;
  }
  std::vector<double> want(n);
  double sum = 0;
  for (std::size_t l = 0; l < n; ++l) sum += want[l] = std::max(0.0, line - level[l]);
  // Largest remainders: kFreeDeck cards in proportion to `want`.
  std::vector<std::size_t> count(n, 0);
  std::vector<std::pair<double, std::size_t>> remainder;
  std::size_t dealt = 0;
  for (std::size_t l = 0; l < n; ++l) {
    const double exact = (sum > 0 ? want[l] / sum : 1.0 / static_cast<double>(n)) * kFreeDeck;
    count[l] = static_cast<std::size_t>(exact);
    dealt += count[l];
    remainder.emplace_back(exact - static_cast<double>(count[l]), l);
  }
  std::stable_sort(remainder.begin(), remainder.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = 0; dealt < kFreeDeck; ++i, ++dealt) ++count[remainder[i % n].second];
  return interleave(count);
}

// The layers each kind of path is dealt over, in turn ("decks"). Deck i,
// for the paths of first-fit layer i: layer i and the spare layers it was
// given (each next spare to the group with the most routes per layer).
// Deck `needed`, for the paths without dependencies: free_deck. Without
// balance each first-fit layer keeps its paths and the free ones go to 0.
std::vector<std::vector<std::uint8_t>> layer_decks(const std::vector<std::size_t>& load, unsigned n,
                                                   unsigned needed, bool balance) {
  std::vector<std::vector<std::uint8_t>> decks(needed + 1);
  for (unsigned i = 0; i < needed; ++i) decks[i].push_back(static_cast<std::uint8_t>(i));
  if (!balance) {
    decks[needed].push_back(0);
    return decks;
  }
  for (unsigned l = needed; l < n; ++l) {
    unsigned best = 0;
    for (unsigned i = 1; i < needed; ++i)
      if (load[i] * decks[best].size() > load[best] * decks[i].size()) best = i;
    decks[best].push_back(static_cast<std::uint8_t>(l));
  }
  std::vector<double> level(n, 0.0);
  for (unsigned i = 0; i < needed; ++i)
    for (const std::uint8_t l : decks[i])
      level[l] = static_cast<double>(load[i]) / static_cast<double>(decks[i].size());
  decks[needed] = free_deck(level, load[n]);
  return decks;
}

// A deck of m cards and the turn of each round of m draws from it. Each
// source switch deals a deck in turn from its own offset, so each round
// gives every card once, and for one destination the switches' draws are
// staggered. Each round is also turned by an amount drawn from (deck,
// round): switches give their cables to destinations in a fixed rotation,
// and a deal in plain turn (period m) gave all destinations behind one
// cable the same layer whenever the periods share a factor (on a 3-tree
// the busiest layer carried several times its even share).
struct Deck {
  Deck(std::vector<std::uint8_t> layers, std::size_t k, std::size_t draws)
      : cards(std::move(layers)), turn(draws / cards.size() + 1) {
    for (std::size_t round = 0; round < turn.size(); ++round)
      turn[round] =
          static_cast<std::uint8_t>(splitmix64(std::uint64_t{k} << 32 ^ round) % cards.size());
  }
  std::vector<std::uint8_t> cards;
  std::vector<std::uint8_t> turn;  // per round
};

// One source switch's draws from one deck (the deck's cards and turns by
// pointer, positions in 32 bits: one draw per path, kept small). Source s
// starts round r at card (s + turn[r]) mod m.
class Dealer {
 public:
  Dealer() = default;
  Dealer(const Deck& deck, std::size_t s)
      : cards_(deck.cards.data()),
        turn_(deck.turn.data()),
        m_(static_cast<std::uint32_t>(deck.cards.size())),
        s_(static_cast<std::uint32_t>(s % deck.cards.size())) {
    start_round();
  }
  std::uint8_t draw() {
    const std::uint8_t layer = cards_[at_];
    if (++at_ == m_) at_ = 0;
    if (++drawn_ == m_) {
      drawn_ = 0;
      ++round_;
      start_round();
    }
    return layer;
  }
  // Adds to count[layer] the cards drawn so far: every card once per whole
  // round, then those of the round under way (so the deal need not count
  // path by path).
  void add_drawn(std::uint32_t* count) const {
    for (std::uint32_t c = 0; c < m_; ++c) count[cards_[c]] += round_;
    for (std::uint32_t i = 0, at = at_; i < drawn_; ++i) {
      at = at == 0 ? m_ - 1 : at - 1;
      ++count[cards_[at]];
    }
  }

 private:
  void start_round() {  // s_ and every turn are below m_: no division
    at_ = s_ + turn_[round_];
    if (at_ >= m_) at_ -= m_;
  }
  const std::uint8_t* cards_ = nullptr;
  const std::uint8_t* turn_ = nullptr;
  std::uint32_t m_ = 1, s_ = 0, at_ = 0, drawn_ = 0, round_ = 0;
};

}  // namespace

std::vector<std::size_t> spread_into_table(PathTable& paths,
                                           const std::vector<SourceSwitch>& sources,
                                           const std::vector<Lid>& dests,
                                           const SpreadOptions& options, LayerTable& table) {
  const unsigned n = options.layers, needed = options.needed;
  const unsigned threads = std::max(1u, options.threads);
  std::vector<std::vector<std::uint8_t>> layers;  // each deck's cards
  if (options.any_layer) {
    layers.emplace_back(n);
    for (unsigned l = 0; l < n; ++l) layers[0][l] = static_cast<std::uint8_t>(l);
  } else {
    layers = layer_decks(settle_first_fit(paths, n, threads), n, needed, options.balance && n > 1);
  }
  std::vector<Deck> decks;
  for (std::size_t k = 0; k < layers.size(); ++k)
    decks.emplace_back(std::move(layers[k]), k, dests.size());
  const std::size_t blocks = (sources.size() + kSourceBlock - 1) / kSourceBlock;
  std::vector<std::vector<std::size_t>> partial(threads, std::vector<std::size_t>(n, 0));
  parallel::parallel_for(blocks, threads, [&](std::size_t b, unsigned w) {
    const std::size_t s0 = b * kSourceBlock, s1 = std::min(sources.size(), s0 + kSourceBlock);
    // Paths per source and layer (weigh()), and each source's table row.
    std::vector<std::uint32_t> count((s1 - s0) * n, 0);
    std::vector<std::uint8_t*> row(s1 - s0);
    for (std::size_t s = s0; s < s1; ++s) row[s - s0] = table.row(sources[s].node);
    if (options.any_layer) {  // no paths to read: row by row
      for (std::size_t s = s0; s < s1; ++s) {
        Dealer dealer(decks[0], s);
        for (const Lid dlid : dests) row[s - s0][dlid] = dealer.draw();
        dealer.add_drawn(count.data() + (s - s0) * n);
      }
      weigh(count, n, paths, s0, s1, partial[w]);
      return;
    }
    // dealer[(s - s0) * decks + k]: source s's draws from deck k.
    std::vector<Dealer> dealer((s1 - s0) * decks.size());
    for (std::size_t s = s0; s < s1; ++s)
      for (std::size_t k = 0; k < decks.size(); ++k)
        dealer[(s - s0) * decks.size() + k] = Dealer(decks[k], s);
    // In locals: the table's bytes may alias anything the loop reads
    // through a reference, which the compiler would then load again per path.
    const std::size_t block = s1 - s0, kinds = decks.size();
    const std::uint8_t* length = paths.length.data() + s0;
    const std::uint8_t* first_fit = paths.layer.data() + s0;
    Dealer* dealers = dealer.data();
    std::uint32_t* counts = count.data();
    std::uint8_t* const* rows = row.data();
    // The layers of kDestBlock destinations go into a tile first, then
    // into the rows a run at a time: written straight into the table, each
    // path's byte went to another row, a page of its own (6 KB apart on the
    // 5256-host dragonfly).
    std::uint8_t tile[kSourceBlock][kDestBlock];
    for (std::size_t d0 = 0; d0 < dests.size(); d0 += kDestBlock) {
      const std::size_t d1 = std::min(dests.size(), d0 + kDestBlock);
      for (std::size_t d = d0; d < d1; ++d) {
        const std::size_t at = d * paths.sources;
        for (std::size_t j = 0; j < block; ++j) {
          const std::size_t k = length[at + j] != 0 ? first_fit[at + j] : needed;
          const std::uint8_t layer = dealers[j * kinds + k].draw();
          tile[j][d - d0] = layer;
        }
      }
      const bool consecutive = consecutive_lids(dests, d0, d1);
      for (std::size_t j = 0; j < block; ++j) {
        if (consecutive) {
          std::memcpy(rows[j] + dests[d0], tile[j], d1 - d0);
          continue;
        }
        for (std::size_t d = d0; d < d1; ++d) rows[j][dests[d]] = tile[j][d - d0];
      }
    }
    for (std::size_t j = 0; j < block; ++j)
      for (std::size_t k = 0; k < kinds; ++k) dealers[j * kinds + k].add_drawn(counts + j * n);
    weigh(count, n, paths, s0, s1, partial[w]);
  });
  return add_up(partial);
}

}  // namespace psssp::deadlock
