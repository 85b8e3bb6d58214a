// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Traffic patterns: which flows (source host -> destination LID) make up run
// r. Everything a run draws comes from run_rng(seed, r), in this order: the
// rank-to-host mapping (--mapping random), the pattern's own draws (bisect,
// bisect-fb, permutation), then LMC offsets (--lmc-path random). So run r is
// the same for every routing, every thread count and every platform.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "fabric/fabric.h"
#include "host_set.h"
#include "orcs_patterns.h"
#include "traffic/rng.h"

namespace psssp::sim {

struct Flow {
  std::uint32_t src = 0;  // index into the host list
  std::uint32_t dst = 0;  // index into the host list
  Lid dlid = 0;           // destination LID actually routed (base + LMC offset)
};

enum class PatternKind {
  bisect,              // shuffle; first half -> second half, position by position
  bisect_fb,           // the same pairs, both directions
  permutation,         // rank i -> perm[i] for a random permutation (fixed points idle)
  shift,               // phase p: rank i -> i + p + 1 (mod n); n - 1 phases
  ring,                // rank i -> i + 1 (mod n)
  recursive_doubling,  // phase k: rank i -> i xor 2^k (when < n); ceil(log2 n) phases
  dissemination,       // phase k: rank i -> i + 2^k (mod n); ceil(log2 n) phases
  halo2d,              // periodic Cartesian grid, rank -> each +-1 neighbour
  halo3d,
  gather,  // every rank -> rank 0 (incast)
  file,    // explicit host pairs; "--" lines separate phases
  orcs,    // an ORCS pattern (orcs_patterns.h): every level in one run, flow-weighted
};
enum class MappingKind { linear, random, file };
enum class LmcPath { first, random, hash, offset };
constexpr std::uint32_t kMaxLmcLids = 128;  // LIDs of a port at InfiniBand's largest LMC (7)

struct PatternSpec {
  PatternKind kind = PatternKind::bisect;
  std::string name = "bisect";
  std::vector<unsigned> grid;  // halo: dimensions (product <= ranks); empty: balanced
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> file_phases;  // host indices
  OrcsPattern orcs;  // PatternKind::orcs
  MappingKind mapping = MappingKind::linear;
  std::vector<std::uint32_t> mapping_hosts;  // MappingKind::file: rank -> host index
  LmcPath lmc_path = LmcPath::first;
  std::uint32_t lmc_offset = 0;  // LmcPath::offset: base + this, mod the port's 2^LMC
};

// Parses "bisect", "shift", "file:PATH", "orcs:rand", ... and the options
// around them. `grid` is "8x8" or empty; `mapping` is "linear", "random",
// "hostname" (hostname_order), a file of GUIDs/LIDs, one per rank, or empty
// for the pattern's own default
// (linear; random for orcs:*, which draw a new mapping every run as ORCS does); file patterns hold
// "SRC DST" per line, each a port GUID, node GUID (its first host port) or LID. Throws on errors.
PatternSpec parse_pattern(const std::string& pattern, const std::string& grid,
                          const std::string& mapping, const std::string& lmc_path,
                          const Fabric& fabric, const std::vector<Host>& hosts);

// Balanced factorisation of n into `dims` factors, largest first (as
// MPI_Dims_create): 64 -> 8x8, 12 -> 4x3.
std::vector<unsigned> balanced_grid(std::size_t n, unsigned dims);

class PatternGenerator {
 public:
  PatternGenerator(const std::vector<Host>& hosts, PatternSpec spec, std::uint64_t seed);

  // Per-thread buffers, reused across runs.
  struct Scratch {
    std::vector<std::uint32_t> map, perm;
    RankPairs pairs;
  };
  // Replaces `out` with the flows of level `level` of run `run`.
  void flows(std::uint64_t run, std::vector<Flow>& out, Scratch& scratch,
             std::size_t level = 0) const;

  std::size_t phase_count() const;  // run r uses phase r mod phase_count()
  // Levels in every run: 1, except ORCS's multi-level patterns, whose run
  // value is the mean share over the flows of all its levels.
  std::size_t levels() const;
  bool random() const;  // whether any run draws random numbers
  std::size_t ranks() const { return ranks_; }
  const std::vector<Host>& hosts() const { return hosts_; }
  const PatternSpec& spec() const { return spec_; }
  std::uint64_t seed() const { return seed_; }

 private:
  void rank_pairs(std::size_t phase, std::mt19937_64& rng, Scratch& s,
                  std::vector<Flow>& out) const;
  std::size_t mapped_hosts() const;  // entries of the rank -> host map

  const std::vector<Host>& hosts_;
  PatternSpec spec_;
  std::uint64_t seed_;
  std::size_t ranks_ = 0;
  unsigned log_phases_ = 0;
  ShuffleReciprocals reciprocals_;  // for shuffles of up to ranks_ elements
};

}  // namespace psssp::sim
