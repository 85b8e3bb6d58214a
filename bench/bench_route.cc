// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// bench_route: time and quality of P-SSSP on fabrics built in code.
//   bench_route speed [--big]      routing time per fabric, kernel and threads
//   bench_route quality [--runs N] eBB (internal estimator) of routing variants
//   bench_route one K [THREADS]    one default routing of a K-ary 3-tree (for
//                                  callgrind / perf: instruction counts)
//   bench_route digest [--big]     FNV-1a hash of the LFTs per fabric and option
//                                  set: compare two builds for identical tables
#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "routing/psssp_routing.h"
#include "testing/routing_support.h"

using namespace psssp;
using psssp::testing::estimate_ebb;

namespace {

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

// ftree-style d-mod-k routing of a k-ary n-tree: the reference the quality
// numbers are compared against (every destination gets one spine, every
// down link one destination).
ForwardingTables dmodk(const psssp::testing::KaryNtree& t, unsigned k, unsigned n) {
  const Fabric& f = t.fabric;
  ForwardingTables lfts(f);
  for (std::size_t d = 0; d < t.hosts.size(); ++d) {
    const Lid lid = f.node(t.hosts[d]).ports[1].lid;
    const unsigned wd = static_cast<unsigned>(d / k), pos = static_cast<unsigned>(d % k);
    for (unsigned l = 0; l < n; ++l) {
      unsigned pow = 1;
      for (unsigned i = 0; i < l; ++i) pow *= k;
      for (unsigned w = 0; w < t.level[l].size(); ++w) {
        const bool below = w / pow == wd / pow;  // digits >= l agree
        PortNum port;
        if (below)
          port = static_cast<PortNum>(l == 0 ? 1 + pos : 1 + (wd / (pow / k)) % k);
        else
          port = static_cast<PortNum>(k + 1 + (d / pow) % k);
        lfts.set(t.level[l][w], lid, port);
      }
    }
  }
  return lfts;
}

struct Variant {
  const char* name;
  std::function<void(RoutingOptions&)> set;
};

using Order = RoutingOptions::Order;
using Tie = RoutingOptions::TieBreak;
Variant variant(const char* name, Order order, Tie tie, double dest_weight, unsigned refine) {
  return {name, [=](RoutingOptions& o) {
            o.order = order;
            o.tie_break = tie;
            o.dest_weight = dest_weight;
            o.refine_passes = refine;
          }};
}

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = [] {
    std::vector<Variant> out;
    out.push_back(variant("sssp-like: lid order, first", Order::lid, Tie::first, 0, 0));
    static std::vector<std::string> names;
    names.reserve(64);
    for (const Order order : {Order::interleaved, Order::switches})
      for (const Tie tie : {Tie::first, Tie::dmodk, Tie::path})
        for (const unsigned refine : {0u, 1u}) {
          const char* tn[] = {"first", "dmodk", "path"};
          names.push_back(std::string(order == Order::interleaved ? "interleaved " : "switches ") +
                          tn[static_cast<int>(tie)] + " refine" + std::to_string(refine));
          out.push_back(variant(names.back().c_str(), order, tie, 0, refine));
        }
    return out;
  }();
  return v;
}

int quality(unsigned runs) {
  struct Case {
    std::string name;
    std::function<Fabric()> make;
  };
  std::vector<Case> cases = {
      {"4-ary 3-tree (64 hosts)", [] { return psssp::testing::make_kary_ntree(4, 3).fabric; }},
      {"8-ary 3-tree (512 hosts)", [] { return psssp::testing::make_kary_ntree(8, 3).fabric; }},
      {"8-ary 3-tree shuffled ports+LIDs",
       [] { return psssp::testing::make_kary_ntree(8, 3, 0, 42).fabric; }},
      {"4-ary 4-tree shuffled ports+LIDs",
       [] { return psssp::testing::make_kary_ntree(4, 4, 0, 7).fabric; }},
      {"8x8 torus, 4 hosts/switch",
       [] {
         return psssp::testing::make_torus({8, 8}, 4);
       }},
      {"4x4x4 torus, 2 hosts/switch",
       [] {
         return psssp::testing::make_torus({4, 4, 4}, 2);
       }},
      {"8x8 torus shuffled ports",
       [] {
         return psssp::testing::make_torus({8, 8}, 4, 0, 3);
       }},
      {"4x4x4 torus shuffled ports",
       [] {
         return psssp::testing::make_torus({4, 4, 4}, 2, 0, 5);
       }},
      {"6x6x3 torus shuffled ports",
       [] {
         return psssp::testing::make_torus({6, 6, 3}, 2, 0, 9);
       }},
      {"random 64 sw deg 8, 8 hosts", [] { return psssp::testing::make_random(64, 8, 8, 7); }},
  };
  for (unsigned k : {4u, 8u}) {
    const auto t = psssp::testing::make_kary_ntree(k, 3);
    std::printf("%u-ary 3-tree d-mod-k reference: eBB %.4f (one way: %.4f)\n", k,
                estimate_ebb(t.fabric, dmodk(t, k, 3), runs),
                estimate_ebb(t.fabric, dmodk(t, k, 3), runs, 1, false));
  }
  for (const Case& c : cases) {
    const Fabric f = c.make();
    std::printf("%s\n", c.name.c_str());
    for (const Variant& v : variants()) {
      RoutingOptions o;
      v.set(o);
      const RoutingResult r = route_psssp(f, o);
      std::printf("  %-45s eBB %.4f  (%.3f s)\n", v.name, estimate_ebb(f, r.lfts, runs), r.seconds);
    }
  }
  return 0;
}

int speed(bool big) {
  std::vector<unsigned> ks = {8, 12, 16};
  if (big) ks.push_back(32);
  for (const unsigned k : ks) {
    const auto t = psssp::testing::make_kary_ntree(k, 3);
    std::printf("%u-ary 3-tree: %zu hosts, %zu switches\n", k, t.hosts.size(),
                t.fabric.switches().size());
    for (const bool boost_kernel : {false, true}) {
      if (boost_kernel && k > 16) continue;
      for (const unsigned threads : {1u, 2u}) {
        RoutingOptions o;
        o.threads = threads;
        o.boost_kernel = boost_kernel;
        const double cpu0 = cpu_seconds();
        const RoutingResult r = route_psssp(t.fabric, o);
        std::printf("  %-8s threads %u: %8.3f s wall %8.3f s cpu   peak RSS %.0f MiB\n",
                    boost_kernel ? "boost" : "layered", threads, r.seconds, cpu_seconds() - cpu0,
                    peak_rss_mib());
      }
    }
  }
  return 0;
}

// FNV-1a over every switch row of the tables and the channel loads.
std::uint64_t fnv(const RoutingResult& r) {
  std::uint64_t h = 1469598103934665603ull;
  auto add = [&](const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  };
  for (std::size_t s = 0; s < r.lfts.switch_count(); ++s)
    add(r.lfts.row(r.lfts.switch_at(s)), r.lfts.lid_count());
  for (const double c : r.channel_load) add(&c, sizeof c);
  return h;
}

int digest(bool big) {
  struct Case {
    std::string name;
    std::function<Fabric()> make;
  };
  std::vector<Case> cases = {
      {"8-ary 3-tree", [] { return psssp::testing::make_kary_ntree(8, 3).fabric; }},
      {"8-ary 3-tree shuffled", [] { return psssp::testing::make_kary_ntree(8, 3, 0, 42).fabric; }},
      {"4-ary 4-tree shuffled lmc2",
       [] { return psssp::testing::make_kary_ntree(4, 4, 2, 7).fabric; }},
      {"12-ary 3-tree", [] { return psssp::testing::make_kary_ntree(12, 3).fabric; }},
      {"4x4x4 torus shuffled",
       [] {
         return psssp::testing::make_torus({4, 4, 4}, 2, 0, 5);
       }},
      {"6x6x3 torus shuffled",
       [] {
         return psssp::testing::make_torus({6, 6, 3}, 2, 0, 9);
       }},
      {"random 64 sw deg 8", [] { return psssp::testing::make_random(64, 8, 8, 7); }},
      {"4x4x2 torus, parallel cables",
       [] {
         return psssp::testing::make_torus({4, 4, 2}, 3, 0, 4);
       }},
  };
  if (big) {
    cases.push_back(
        {"16-ary 3-tree", [] { return psssp::testing::make_kary_ntree(16, 3).fabric; }});
    cases.push_back(
        {"32-ary 3-tree", [] { return psssp::testing::make_kary_ntree(32, 3).fabric; }});
  }
  for (const Case& c : cases) {
    const Fabric f = c.make();
    const bool huge = f.switches().size() > 1000;
    std::vector<Variant> vs = {variant("default", Order::switches, Tie::path, 0, 1)};
    if (!huge) {
      vs = variants();
      vs.push_back(variant("default", Order::switches, Tie::path, 0, 1));
      vs.push_back(variant("dest_weight 0.5", Order::switches, Tie::path, 0.5, 1));
      vs.push_back(variant("refine 2", Order::switches, Tie::path, 0, 2));
    }
    for (const Variant& v : vs)
      for (const int mode : {0, 1, 2, 3}) {
        if (huge && mode != 0) continue;
        RoutingOptions o;
        v.set(o);
        if (mode == 1) o.capacity = psssp::RoutingOptions::Capacity::on;
        if (mode == 2) o.switch_lids_load = true;
        o.threads = mode == 3 ? 3 : 1;
        const char* mn[] = {"", " capacity", " switch_lids", " threads3"};
        std::printf("%016llx  %s / %s%s\n", static_cast<unsigned long long>(fnv(route_psssp(f, o))),
                    c.name.c_str(), v.name, mn[mode]);
      }
  }
  return 0;
}

int one(unsigned k, unsigned threads) {
  const auto t = psssp::testing::make_kary_ntree(k, 3);
  RoutingOptions o;
  o.threads = threads;
  const double cpu0 = cpu_seconds();
  const RoutingResult r = route_psssp(t.fabric, o);
  std::printf(
      "%u-ary 3-tree threads %u: %.3f s wall %.3f s cpu  peak RSS %.0f MiB  digest %016llx\n", k,
      threads, r.seconds, cpu_seconds() - cpu0, peak_rss_mib(),
      static_cast<unsigned long long>(fnv(r)));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: bench_route speed [--big] | quality [--runs N] | digest [--big]\n");
    return 2;
  }
  if (!std::strcmp(argv[1], "speed")) return speed(argc > 2 && !std::strcmp(argv[2], "--big"));
  if (!std::strcmp(argv[1], "one") && argc > 2)
    return one(static_cast<unsigned>(std::atoi(argv[2])),
               argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 1u);
  if (!std::strcmp(argv[1], "digest")) return digest(argc > 2 && !std::strcmp(argv[2], "--big"));
  if (!std::strcmp(argv[1], "quality"))
    return quality(argc > 3 && !std::strcmp(argv[2], "--runs")
                       ? static_cast<unsigned>(std::atoi(argv[3]))
                       : 200);
  std::fprintf(stderr, "bench_route: unknown mode '%s'\n", argv[1]);
  return 2;
}
