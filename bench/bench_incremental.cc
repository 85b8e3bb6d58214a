// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Incremental re-routing after cable failures and their recovery, against a
// full re-route of the same fabric: entries changed, eBB estimate, time.
//   bench_incremental [k] [failures...]   k-ary 3-tree, default 8 and 1 2 5 10
//   bench_incremental torus:8x8:4 ...     8x8 torus, 4 hosts per switch
//   bench_incremental dragonfly:8:4:4 ... dragonfly a=8 p=4 h=4
//   --seeds N (before the fabric): N draws of failed cables per count, one
//   line each, and per count the mean, least and largest eBB ratio and
//   churn (changed / used); the first draw is the one of a plain run.
//   --ebb-seed S: the bisections' seed (default 1).
//   --bisections N: per eBB estimate (default 1000, 100 above 4096 hosts).
//   --time R: only the time of the incremental re-route and of the one back
//   after the relink, R times each (no full routing, no eBB).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "routing/ebb_estimate.h"
#include "routing/incremental/incremental.h"
#include "routing/option_names.h"
#include "routing/psssp_routing.h"
#include "testing/routing_support.h"
#include "testing/topologies.h"
#include "traffic/rng.h"

namespace {

using namespace psssp;

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Entries whose next hop is a port of one of `cables` (either end).
std::uint64_t entries_on(const Fabric& f, const ForwardingTables& lfts,
                         const std::vector<PortRef>& cables) {
  std::uint64_t n = 0;
  for (const PortRef c : cables)
    for (const PortRef end : {c, f.port(c).remote})
      for (unsigned l = 1; l <= f.max_lid(); ++l)
        if (lfts.get(end.node, static_cast<Lid>(l)) == end.port) ++n;
  return n;
}

void set_cables(Fabric& f, const std::vector<PortRef>& cables, bool healthy) {
  for (const PortRef c : cables) {
    f.port(c).healthy = healthy;
    f.port(f.port(c).remote).healthy = healthy;
  }
  f.index();
}

// "K", "torus:AxB[xC]:H" or "dragonfly:A:P:H"; empty fabric on bad input.
Fabric make_fabric(const std::string& spec, std::string& name) {
  std::vector<unsigned> n;
  for (std::size_t i = spec.find(':'); i != std::string::npos; i = spec.find_first_of(":x", i + 1))
    n.push_back(static_cast<unsigned>(std::atoi(spec.c_str() + i + 1)));
  if (spec.rfind("torus:", 0) == 0 && n.size() >= 2) {
    const unsigned hosts = n.back();
    n.pop_back();
    name = spec;
    return testing::grid(n, true, hosts);
  }
  if (spec.rfind("dragonfly:", 0) == 0 && n.size() == 3) {
    name = spec;
    return testing::with_lids(topo::dragonfly(n[0], n[1], n[2]));
  }
  const unsigned k = static_cast<unsigned>(std::atoi(spec.c_str()));
  if (k < 2) return Fabric();
  name = std::to_string(k) + "-ary 3-tree";
  return testing::make_kary_ntree(k, 3).fabric;
}

// Wall and CPU seconds of `runs` incremental re-routes after the failure of
// `dead` (down in f), and of as many back after the relink (up again after).
void time_incremental(Fabric& f, const ForwardingTables& base, const std::vector<PortRef>& dead,
                      unsigned runs, const IncrementalOptions& incremental) {
  RoutingResult inc;
  for (const bool back : {false, true}) {
    if (back) set_cables(f, dead, true);
    for (unsigned r = 0; r < runs; ++r) {
      const auto start = std::chrono::steady_clock::now();
      const std::clock_t cpu_start = std::clock();
      RoutingResult out =
          back ? route_psssp_incremental(f, inc.lfts, RoutingOptions{}, incremental, &base)
               : route_psssp_incremental(f, base, RoutingOptions{}, incremental);
      const double wall = seconds_since(start);
      const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
      std::printf("%s %zu cables: %.3f s wall, %.3f s CPU%s\n", back ? "back" : "down", dead.size(),
                  wall, cpu, out.incremental.used ? "" : " (full routing)");
      if (!back) inc = std::move(out);
    }
  }
}

// The options before the fabric.
struct Flags {
  unsigned seeds = 1, time_runs = 0, bisections = 0;
  std::uint64_t ebb_seed = 1;
  IncrementalOptions incremental;  // --rebalance auto|off|N|Kx, as psssp-sim route's
};

// Reads the options; returns the index of the first other argument.
int parse_flags(int argc, char** argv, Flags& flags) {
  int a = 1;
  for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
    const std::string flag = argv[a];
    if (flag == "--seeds")
      flags.seeds = static_cast<unsigned>(std::max(1, std::atoi(argv[a + 1])));
    else if (flag == "--bisections")
      flags.bisections = static_cast<unsigned>(std::max(1, std::atoi(argv[a + 1])));
    else if (flag == "--time")
      flags.time_runs = static_cast<unsigned>(std::max(1, std::atoi(argv[a + 1])));
    else if (flag == "--ebb-seed")
      flags.ebb_seed = static_cast<std::uint64_t>(std::atoll(argv[a + 1]));
    else if (flag != "--rebalance" || !parse_rebalance(argv[a + 1], flags.incremental))
      break;  // not an option of these: the usage message below
  }
  return a;
}

// The usable switch-to-switch cables, each once (from the lower node).
std::vector<PortRef> switch_cables_of(const Fabric& f) {
  std::vector<PortRef> cables;
  for (const NodeId sw : f.switches())
    for (PortNum p = 1; p < f.node(sw).ports.size(); ++p) {
      const Port& port = f.port(PortRef{sw, p});
      if (port.usable() && f.node(port.remote.node).is_switch() && sw < port.remote.node)
        cables.push_back(PortRef{sw, p});
    }
  return cables;
}

// Draw s of n failed cables.
std::vector<PortRef> draw_dead(const std::vector<PortRef>& switch_cables, unsigned n, unsigned s) {
  std::mt19937_64 rng(n + 1000ull * s);
  std::vector<PortRef> dead;
  std::vector<PortRef> pool = switch_cables;
  for (unsigned i = 0; i < n && !pool.empty(); ++i) {
    const std::size_t j = static_cast<std::size_t>(uniform_below(rng, pool.size()));
    dead.push_back(pool[j]);
    pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(j));
  }
  return dead;
}

// Over the draws of one failure count: eBB of the incremental re-route as a
// share of the full one's, churn, and the recovery's eBB against the original.
struct DrawStats {
  double ratio_sum = 0.0, ratio_least = 2.0, ratio_most = 0.0, churn_most = 0.0;
  double back_least = 2.0;
  unsigned incremental_runs = 0;
};

class Bench {
 public:
  Bench(Fabric& f, const Flags& flags, unsigned runs, const RoutingResult& base, double base_ebb)
      : f_(f), flags_(flags), runs_(runs), base_(base), base_ebb_(base_ebb) {}

  // With the cables down (`used` entries led over them): the incremental
  // re-route against a full one (a line); returns its tables.
  RoutingResult down(unsigned n, std::uint64_t used, DrawStats& stats) const {
    auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    RoutingResult inc =
        route_psssp_incremental(f_, base_.lfts, RoutingOptions{}, flags_.incremental);
    const double inc_seconds = seconds_since(start);
    // CPU time of all threads: on a shared machine the wall time also
    // counts the time others had the cores.
    const double inc_cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    start = std::chrono::steady_clock::now();
    const RoutingResult full = route_psssp(f_, RoutingOptions{});
    const double full_seconds = seconds_since(start);
    const double e_inc = estimate_ebb(f_, inc.lfts, runs_, flags_.ebb_seed);
    const double e_full = estimate_ebb(f_, full.lfts, runs_, flags_.ebb_seed);
    const std::uint64_t inc_changed = testing::changed_entries(f_, base_.lfts, inc.lfts);
    if (inc.incremental.used) {
      ++stats.incremental_runs;
      stats.ratio_sum += e_inc / e_full;
      stats.ratio_least = std::min(stats.ratio_least, e_inc / e_full);
      stats.ratio_most = std::max(stats.ratio_most, e_inc / e_full);
      if (used)
        stats.churn_most = std::max(stats.churn_most,
                                    static_cast<double>(inc_changed) / static_cast<double>(used));
    }
    std::printf(
        "%-9u %9llu %9llu %9llu %8.4f %8.4f %8.4f %9.3f %9.3f %9.3f%s\n", n,
        static_cast<unsigned long long>(used), static_cast<unsigned long long>(inc_changed),
        static_cast<unsigned long long>(testing::changed_entries(f_, base_.lfts, full.lfts)), e_inc,
        e_full, e_inc / e_full, inc_seconds, inc_cpu, full_seconds,
        inc.incremental.used ? "" : "  (full routing)");
    return inc;
  }

  // With the cables back: the incremental re-route from `inc` (a line).
  void back(const RoutingResult& inc, DrawStats& stats) const {
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t back_cpu_start = std::clock();
    const RoutingResult again =
        route_psssp_incremental(f_, inc.lfts, RoutingOptions{}, flags_.incremental, &base_.lfts);
    const double back_seconds = seconds_since(start);
    const double back_cpu = static_cast<double>(std::clock() - back_cpu_start) / CLOCKS_PER_SEC;
    const double e_back = estimate_ebb(f_, again.lfts, runs_, flags_.ebb_seed);
    stats.back_least = std::min(stats.back_least, e_back / base_ebb_);
    std::printf("%-9s %9s %9llu %9s %8.4f %8.4f %8.4f %9.3f %9.3f   (recovered; vs original)\n",
                "  back", "",
                static_cast<unsigned long long>(testing::changed_entries(f_, inc.lfts, again.lfts)),
                "", e_back, base_ebb_, e_back / base_ebb_, back_seconds, back_cpu);
  }

  // Every draw of n failures, and their summary with --seeds.
  void failures(unsigned n, const std::vector<PortRef>& switch_cables) {
    DrawStats stats;
    for (unsigned s = 0; s < flags_.seeds; ++s) {
      const std::vector<PortRef> dead = draw_dead(switch_cables, n, s);
      const std::uint64_t used = entries_on(f_, base_.lfts, dead);
      set_cables(f_, dead, false);
      if (flags_.time_runs > 0) {
        time_incremental(f_, base_.lfts, dead, flags_.time_runs, flags_.incremental);
        continue;
      }
      const RoutingResult inc = down(n, used, stats);
      set_cables(f_, dead, true);
      back(inc, stats);
    }
    if (flags_.seeds > 1 && stats.incremental_runs > 0)
      std::printf(
          "%u failures, %u of %u draws incremental: eBB inc / full mean %.4f, least %.4f, "
          "largest %.4f; changed / used at most %.2f; recovered / original least %.4f\n\n",
          n, stats.incremental_runs, flags_.seeds, stats.ratio_sum / stats.incremental_runs,
          stats.ratio_least, stats.ratio_most, stats.churn_most, stats.back_least);
  }

 private:
  Fabric& f_;
  const Flags& flags_;
  const unsigned runs_;
  const RoutingResult& base_;
  const double base_ebb_;
};

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  const int a = parse_flags(argc, argv, flags);
  std::string name;
  Fabric f = make_fabric(a < argc ? argv[a] : "8", name);
  if (f.switches().empty() || (a < argc && argv[a][0] == '-')) {
    std::fprintf(stderr,
                 "bench_incremental: [--seeds N] [--ebb-seed S] [--bisections N] [--time R] "
                 "[--rebalance auto|off|N|Kx] "
                 "fabric (K, torus:AxB:H or dragonfly:A:P:H), then failure counts\n");
    return 2;
  }
  std::vector<unsigned> failures;
  for (int i = a + 1; i < argc; ++i) failures.push_back(static_cast<unsigned>(std::atoi(argv[i])));
  if (failures.empty()) failures = {1, 2, 5, 10};
  const unsigned runs = flags.bisections               ? flags.bisections
                        : f.host_ports().size() > 4096 ? 100
                                                       : 1000;
  const std::vector<PortRef> switch_cables = switch_cables_of(f);
  std::printf("%s: %zu hosts, %zu switch cables, %u bisections per estimate\n", name.c_str(),
              f.host_ports().size(), switch_cables.size(), runs);
  const auto start = std::chrono::steady_clock::now();
  const RoutingResult base = route_psssp(f, RoutingOptions{});
  const double base_seconds = seconds_since(start);
  const double base_ebb = estimate_ebb(f, base.lfts, runs, flags.ebb_seed);
  std::printf("full routing %.3f s, eBB %.4f\n\n", base_seconds, base_ebb);
  std::printf("%-9s %9s %9s %9s %8s %8s %8s %9s %9s %9s\n", "failures", "used", "changed",
              "full chg", "eBB inc", "eBB full", "ratio", "inc s", "inc cpu s", "full s");
  Bench bench(f, flags, runs, base, base_ebb);
  for (const unsigned n : failures) bench.failures(n, switch_cables);
  return 0;
}
