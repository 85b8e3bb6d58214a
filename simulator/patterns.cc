// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "patterns.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "cli/conventions.h"
#include "traffic/bisection.h"
#include "traffic/rng.h"

namespace psssp::sim {
namespace {

struct KindName {
  const char* name;
  PatternKind kind;
};
constexpr KindName kKinds[] = {
    {"bisect", PatternKind::bisect},
    {"bisect-fb", PatternKind::bisect_fb},
    {"permutation", PatternKind::permutation},
    {"shift", PatternKind::shift},
    {"ring", PatternKind::ring},
    {"recursive-doubling", PatternKind::recursive_doubling},
    {"dissemination", PatternKind::dissemination},
    {"halo2d", PatternKind::halo2d},
    {"halo3d", PatternKind::halo3d},
    {"gather", PatternKind::gather},
    {"incast", PatternKind::gather},
};

// Host index of a GUID or LID token (LIDs are tried first: GUIDs are far
// beyond the unicast LID range in practice).
std::uint32_t resolve_host(const std::string& token, const std::string& where, const Fabric& fabric,
                           const std::map<std::uint64_t, std::uint32_t>& index) {
  const std::uint64_t v = parse_number(token, where);
  auto key = [](PortRef r) { return static_cast<std::uint64_t>(r.node) << 8 | r.port; };
  PortRef ref;
  if (v <= kMaxUnicastLid && fabric.port_of_lid(static_cast<Lid>(v)).valid()) {
    ref = fabric.port_of_lid(static_cast<Lid>(v));
  } else if (const auto port = fabric.find_port_by_guid(v)) {
    ref = *port;
  } else if (const auto node = fabric.find_by_guid(v)) {
    for (const auto& [k, host] : index)
      if (k >> 8 == *node) return host;  // lowest host port of the node
    throw std::runtime_error(where + ": node " + token + " has no selected host port");
  } else {
    throw std::runtime_error(where + ": " + token + " is neither a LID nor a GUID in the fabric");
  }
  const auto it = index.find(key(ref));
  if (it == index.end())
    throw std::runtime_error(where + ": " + token + " is not a selected host port");
  return it->second;
}

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    lines.push_back(line);
  }
  return lines;
}

std::vector<std::string> tokens(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  std::string t;
  while (in >> t) out.push_back(t);
  return out;
}

unsigned ceil_log2(std::size_t n) {
  unsigned k = 0;
  while ((std::size_t{1} << k) < n) ++k;
  return k;
}

}  // namespace

std::vector<unsigned> balanced_grid(std::size_t n, unsigned dims) {
  std::vector<unsigned> grid(dims, 1);
  std::vector<unsigned> primes;
  for (std::size_t m = n, p = 2; m > 1;) {
    if (p * p > m) {
      primes.push_back(static_cast<unsigned>(m));
      break;
    }
    if (m % p == 0) {
      primes.push_back(static_cast<unsigned>(p));
      m /= p;
    } else {
      ++p;
    }
  }
  // Largest prime factors first, each onto the currently smallest dimension.
  for (auto it = primes.rbegin(); it != primes.rend(); ++it)
    *std::min_element(grid.begin(), grid.end()) *= *it;
  std::sort(grid.rbegin(), grid.rend());
  return grid;
}

PatternSpec parse_pattern(const std::string& pattern, const std::string& grid,
                          const std::string& mapping, const std::string& lmc_path,
                          const Fabric& fabric, const std::vector<Host>& hosts) {
  PatternSpec spec;
  spec.name = pattern;
  std::map<std::uint64_t, std::uint32_t> index;
  for (std::uint32_t i = 0; i < hosts.size(); ++i)
    index.emplace(static_cast<std::uint64_t>(hosts[i].port.node) << 8 | hosts[i].port.port, i);

  bool known = false;
  if (pattern.rfind("file:", 0) == 0) {
    spec.kind = PatternKind::file;
    known = true;
    const std::string path = pattern.substr(5);
    const auto lines = read_lines(path);
    spec.file_phases.emplace_back();
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const auto t = tokens(lines[i]);
      const std::string where = path + ":" + std::to_string(i + 1);
      if (t.empty()) continue;
      if (t.size() == 1 && t[0] == "--") {
        if (!spec.file_phases.back().empty()) spec.file_phases.emplace_back();
        continue;
      }
      if (t.size() != 2) throw std::runtime_error(where + ": expected 'SRC DST'");
      spec.file_phases.back().emplace_back(resolve_host(t[0], where, fabric, index),
                                           resolve_host(t[1], where, fabric, index));
    }
    if (spec.file_phases.back().empty()) spec.file_phases.pop_back();
    if (spec.file_phases.empty()) throw std::runtime_error(path + ": no flows");
  }
  for (const auto& k : kKinds)
    if (pattern == k.name) {
      spec.kind = k.kind;
      known = true;
    }
  if (const auto orcs = parse_orcs_pattern(pattern)) {
    spec.kind = PatternKind::orcs;
    spec.orcs = *orcs;
    known = true;
  }
  if (!known) {
    std::string names;
    for (const auto& k : kKinds) names += std::string(names.empty() ? "" : ", ") + k.name;
    throw std::runtime_error("unknown pattern '" + pattern + "' (" + names + ", file:PATH, " +
                             orcs_pattern_names() + ")");
  }

  if (mapping.empty() && spec.kind == PatternKind::orcs) {
    spec.mapping = MappingKind::random;  // ORCS draws a new mapping every run
  } else if (mapping == "linear" || mapping.empty()) {
    spec.mapping = MappingKind::linear;
  } else if (mapping == "random") {
    spec.mapping = MappingKind::random;
  } else if (mapping == "hostname") {  // a fixed rank -> host list, as a file gives
    spec.mapping = MappingKind::file;
    spec.mapping_hosts = hostname_order(fabric, hosts);
  } else {
    spec.mapping = MappingKind::file;
    const auto lines = read_lines(mapping);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const auto t = tokens(lines[i]);
      if (t.empty()) continue;
      const std::string where = mapping + ":" + std::to_string(i + 1);
      if (t.size() != 1) throw std::runtime_error(where + ": expected one GUID or LID");
      spec.mapping_hosts.push_back(resolve_host(t[0], where, fabric, index));
    }
    if (spec.mapping_hosts.empty()) throw std::runtime_error(mapping + ": no ranks");
  }

  if (lmc_path == "first" || lmc_path.empty())
    spec.lmc_path = LmcPath::first;
  else if (lmc_path == "random")
    spec.lmc_path = LmcPath::random;
  else if (lmc_path == "hash")
    spec.lmc_path = LmcPath::hash;
  else if (const std::string prefix = "offset:"; lmc_path.rfind(prefix, 0) == 0) {
    spec.lmc_path = LmcPath::offset;
    spec.lmc_offset = static_cast<std::uint32_t>(
        cli::parse_uint("--lmc-path offset:K", lmc_path.substr(prefix.size()), 0, kMaxLmcLids - 1));
  } else
    throw std::runtime_error("--lmc-path must be first, random, hash or offset:K, not '" +
                             lmc_path + "'");

  if (!grid.empty()) {
    std::istringstream in(grid);
    std::string part;
    while (std::getline(in, part, 'x')) {
      const auto v = parse_number(part, "--grid");
      if (v == 0 || v > 1u << 20) throw std::runtime_error("--grid: bad dimension " + part);
      spec.grid.push_back(static_cast<unsigned>(v));
    }
    const std::size_t want = spec.kind == PatternKind::halo3d ? 3 : 2;
    if (spec.grid.size() != want)
      throw std::runtime_error("--grid " + grid + ": " + spec.name + " needs " +
                               std::to_string(want) + " dimensions");
  }
  return spec;
}

PatternGenerator::PatternGenerator(const std::vector<Host>& hosts, PatternSpec spec,
                                   std::uint64_t seed)
    : hosts_(hosts), spec_(std::move(spec)), seed_(seed) {
  ranks_ = mapped_hosts();
  // ORCS runs an even number of ranks: with an odd count, the host mapped
  // last idles (a random one under a random mapping).
  if (spec_.kind == PatternKind::orcs && ranks_ % 2 == 1) --ranks_;
  if (spec_.kind == PatternKind::orcs) check_orcs_k(spec_.orcs, ranks_, spec_.name);
  log_phases_ = ceil_log2(ranks_);
  reciprocals_ = ShuffleReciprocals(mapped_hosts());
  if (spec_.kind == PatternKind::halo2d || spec_.kind == PatternKind::halo3d) {
    const unsigned dims = spec_.kind == PatternKind::halo3d ? 3 : 2;
    if (spec_.grid.empty()) spec_.grid = balanced_grid(ranks_, dims);
    std::size_t product = 1;
    for (unsigned d : spec_.grid) product *= d;
    if (product > ranks_)
      throw std::runtime_error("grid has " + std::to_string(product) + " ranks but only " +
                               std::to_string(ranks_) + " hosts");
  }
}

std::size_t PatternGenerator::mapped_hosts() const {
  return spec_.mapping == MappingKind::file ? spec_.mapping_hosts.size() : hosts_.size();
}

std::size_t PatternGenerator::levels() const {
  return spec_.kind == PatternKind::orcs
             ? orcs_levels(spec_.orcs, static_cast<std::uint32_t>(ranks_))
             : 1;
}

std::size_t PatternGenerator::phase_count() const {
  switch (spec_.kind) {
    case PatternKind::shift:
      return ranks_ > 1 ? ranks_ - 1 : 1;
    case PatternKind::recursive_doubling:
    case PatternKind::dissemination:
      return log_phases_ > 0 ? log_phases_ : 1;
    case PatternKind::file:
      return spec_.file_phases.size();
    default:
      return 1;
  }
}

bool PatternGenerator::random() const {
  return spec_.kind == PatternKind::bisect || spec_.kind == PatternKind::bisect_fb ||
         spec_.kind == PatternKind::permutation || spec_.mapping == MappingKind::random ||
         spec_.lmc_path == LmcPath::random ||
         (spec_.kind == PatternKind::orcs && orcs_random(spec_.orcs));
}

// Appends the flows of one phase as rank pairs (src in .src, dst in .dst).
void PatternGenerator::rank_pairs(std::size_t phase, std::mt19937_64& rng, Scratch& s,
                                  std::vector<Flow>& out) const {
  const std::uint32_t n = static_cast<std::uint32_t>(ranks_);
  auto add = [&](std::uint32_t a, std::uint32_t b) { out.push_back(Flow{a, b, 0}); };
  switch (spec_.kind) {
    case PatternKind::bisect:
    case PatternKind::bisect_fb:
    case PatternKind::permutation: {
      shuffled_ranks(n, rng, reciprocals_, s.perm);
      if (spec_.kind == PatternKind::permutation) {
        for (std::uint32_t i = 0; i < n; ++i)
          if (s.perm[i] != i) add(i, s.perm[i]);
        break;
      }
      // The router's estimate draws the same pairs (traffic/bisection.h).
      bisection_pairs(s.perm, spec_.kind == PatternKind::bisect_fb, add);
      break;
    }
    case PatternKind::shift: {
      if (n < 2) break;
      const std::uint32_t d = static_cast<std::uint32_t>(phase) + 1;
      for (std::uint32_t i = 0; i < n; ++i) add(i, (i + d) % n);
      break;
    }
    case PatternKind::ring:
      if (n < 2) break;
      for (std::uint32_t i = 0; i < n; ++i) add(i, (i + 1) % n);
      break;
    case PatternKind::recursive_doubling: {
      const std::uint32_t bit = 1u << phase;
      for (std::uint32_t i = 0; i < n; ++i)
        if ((i ^ bit) < n) add(i, i ^ bit);
      break;
    }
    case PatternKind::dissemination: {
      if (n < 2) break;
      const std::uint32_t d = static_cast<std::uint32_t>((std::size_t{1} << phase) % n);
      for (std::uint32_t i = 0; i < n; ++i) add(i, (i + d) % n);
      break;
    }
    case PatternKind::halo2d:
    case PatternKind::halo3d: {
      // Row-major coordinates, last dimension fastest; a neighbour reached both
      // ways (dimension of size 2) gets one flow, a dimension of size 1 none.
      const auto& g = spec_.grid;
      std::size_t total = 1;
      for (unsigned d : g) total *= d;
      std::vector<std::size_t> stride(g.size(), 1);
      for (std::size_t k = g.size() - 1; k > 0; --k) stride[k - 1] = stride[k] * g[k];
      for (std::size_t r = 0; r < total; ++r)
        for (std::size_t k = 0; k < g.size(); ++k) {
          if (g[k] < 2) continue;
          const std::size_t c = r / stride[k] % g[k];
          const std::size_t up = r - c * stride[k] + (c + 1) % g[k] * stride[k];
          const std::size_t down = r - c * stride[k] + (c + g[k] - 1) % g[k] * stride[k];
          add(static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(up));
          if (down != up) add(static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(down));
        }
      break;
    }
    case PatternKind::gather:
      for (std::uint32_t i = 1; i < n; ++i) add(i, 0);
      break;
    case PatternKind::file:
      break;  // host pairs, handled by the caller
    case PatternKind::orcs:
      orcs_pairs(spec_.orcs, n, phase, rng, s.pairs);
      for (const auto& [a, b] : s.pairs) add(a, b);
      break;
  }
}

void PatternGenerator::flows(std::uint64_t run, std::vector<Flow>& out, Scratch& s,
                             std::size_t level) const {
  out.clear();
  std::mt19937_64 rng = run_rng(seed_, run);
  // ORCS patterns: every run holds all levels (and draws the same mapping
  // for each); the others: run r is phase r mod phase_count().
  const std::size_t phase =
      spec_.kind == PatternKind::orcs ? level : static_cast<std::size_t>(run % phase_count());
  if (spec_.kind == PatternKind::file) {
    for (const auto& [a, b] : spec_.file_phases[phase]) out.push_back(Flow{a, b, 0});
  } else {
    s.map.resize(mapped_hosts());
    if (spec_.mapping == MappingKind::file) {
      s.map = spec_.mapping_hosts;
    } else {
      for (std::uint32_t i = 0; i < s.map.size(); ++i) s.map[i] = i;
      if (spec_.mapping == MappingKind::random) shuffle(s.map, rng, reciprocals_);
    }
    rank_pairs(phase, rng, s, out);
    for (Flow& f : out) {
      f.src = s.map[f.src];
      f.dst = s.map[f.dst];
    }
  }
  // A rank pair on one host port never enters the network.
  out.erase(std::remove_if(out.begin(), out.end(), [](const Flow& f) { return f.src == f.dst; }),
            out.end());
  for (Flow& f : out) {
    const Host& src = hosts_[f.src];
    const Host& dst = hosts_[f.dst];
    std::uint32_t offset = 0;
    const std::uint32_t span = 1u << dst.lmc;
    if (span > 1) {
      if (spec_.lmc_path == LmcPath::random)
        offset = static_cast<std::uint32_t>(uniform_below(rng, span));
      else if (spec_.lmc_path == LmcPath::hash)
        offset = static_cast<std::uint32_t>(
            splitmix64(static_cast<std::uint64_t>(src.lid) << 16 | dst.lid) & (span - 1));
      else if (spec_.lmc_path == LmcPath::offset)
        offset = spec_.lmc_offset & (span - 1);
    }
    f.dlid = static_cast<Lid>(dst.lid + offset);
  }
}

}  // namespace psssp::sim
