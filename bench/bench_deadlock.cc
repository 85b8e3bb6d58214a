// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// bench_deadlock: virtual layers needed, time and memory of the deadlock
// checker and the layer assignment on generated fabrics.
//   bench_deadlock [--minhop] [FABRIC...]   (default: all fabrics below)
// LFTs come from route_psssp (minimal mode) unless --minhop asks for plain
// BFS min-hop tables (psssp::testing::min_hop_lfts).
// Peak RSS is the process's: run one fabric per process to attribute it.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "deadlock/deadlock_check.h"
#include "deadlock/layer_assignment.h"
#include "routing/psssp_routing.h"
#include "testing/lids_and_lfts.h"
#include "topologies/builder.h"
#include "topologies/families.h"

using namespace psssp;
using namespace psssp::deadlock;

namespace {

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

struct Case {
  const char* name;
  std::function<topo::TopologySpec()> spec;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {"torus-8x8-h4",
       [] {
         return topo::grid({8, 8}, true, 4);
       }},
      {"torus-4x4x4-h2",
       [] {
         return topo::grid({4, 4, 4}, true, 2);
       }},
      {"hypercube-6-h4", [] { return topo::hypercube(6, 4); }},
      {"dragonfly-a8p4h4", [] { return topo::dragonfly(8, 4, 4); }},
      {"dragonfly-a12p6h6", [] { return topo::dragonfly(12, 6, 6); }},
      {"hyperx-8x8-h4",
       [] {
         return topo::hyperx({8, 8}, 1, 4);
       }},
      {"random-128-d8-h4", [] { return topo::random_regular(128, 8, 4, 1); }},
      {"torus-16x16-h2",
       [] {
         return topo::grid({16, 16}, true, 2);
       }},
      {"ktree-16-3", [] { return topo::kary_ntree(16, 3, 16); }},
  };
  return c;
}

const char* order_name(LayerOptions::Order o) {
  switch (o) {
    case LayerOptions::Order::longest_first:
      return "longest";
    case LayerOptions::Order::shortest_first:
      return "shortest";
    case LayerOptions::Order::lid:
      return "lid";
  }
  return "?";
}

void run(const Case& c, bool minhop) {
  Fabric f = topo::build_fabric(c.spec());
  testing::assign_lids(f);
  auto t0 = std::chrono::steady_clock::now();
  ForwardingTables lfts;
  if (minhop) {
    lfts = testing::min_hop_lfts(f);
  } else {
    RoutingOptions ro;
    ro.threads = 0;
    lfts = route_psssp(f, ro).lfts;
  }
  const double route_s = seconds_since(t0);
  std::printf("%-18s switches %4zu  hosts %5zu  LIDs %5u  routing %.2fs (%s)\n", c.name,
              f.switches().size(), f.host_ports().size(), static_cast<unsigned>(f.max_lid()),
              route_s, minhop ? "BFS min-hop" : "route_psssp");
  const DeadlockReport plain = check_deadlock(f, lfts);
  std::printf("  check, one VL: %s, %zu routes, %zu dependencies, %.3fs\n",
              plain.deadlock_free ? "deadlock-free" : "credit loop", plain.routes,
              plain.dependencies, plain.seconds);
  for (auto order : {LayerOptions::Order::longest_first, LayerOptions::Order::shortest_first,
                     LayerOptions::Order::lid}) {
    LayerOptions o;
    o.max_layers = 16;
    o.balance = false;
    o.order = order;
    try {
      const LayerAssignment a = assign_layers(f, lfts, o);
      std::printf("  layers (%-8s first fit): %2u  %.3fs  work %.1f MiB\n", order_name(order),
                  a.layers_needed, a.seconds, static_cast<double>(a.work_bytes) / 1048576.0);
    } catch (const LayerError& e) {
      std::printf("  layers (%-8s first fit): %s\n", order_name(order), e.what());
    }
  }
  LayerOptions o;  // the defaults: 8 layers, longest first, balanced
  try {
    const LayerAssignment a = assign_layers(f, lfts, o);
    std::string spread;
    for (std::size_t n : a.routes_per_layer) spread += " " + std::to_string(n);
    const DeadlockReport r = check_deadlock(f, lfts, a.table);
    std::printf("  default (8, balanced): needed %u used %u  %.3fs  routes/layer%s\n",
                a.layers_needed, a.layers_used, a.seconds, spread.c_str());
    std::printf("  check with layers: %s, %.3fs\n",
                r.deadlock_free ? "deadlock-free" : "CREDIT LOOP", r.seconds);
  } catch (const LayerError& e) {
    std::printf("  default (8, balanced): %s\n", e.what());
  }
  std::printf("  peak RSS so far %.1f MiB\n", peak_rss_mib());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  bool minhop = false;
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--minhop") == 0)
      minhop = true;
    else
      names.emplace_back(argv[i]);
  }
  for (const Case& c : cases()) {
    bool wanted = names.empty();
    for (const std::string& n : names) wanted = wanted || n == c.name;
    if (wanted) run(c, minhop);
  }
  return 0;
}
