// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// bench_vls: what the deadlock-free mode (vls=8) adds to a routing, as the
// OpenSM plugin runs it: route_psssp, then assign_layers with the defaults
// (8 layers, longest first, balanced). One line per fabric:
//   fabric  hosts  plain s  vls=8 s  ratio  plain cpu  layers cpu  cpu ratio  layers needed
// plain s is route_psssp alone, vls=8 s routing plus layers (wall), each the
// median of --runs N runs (default 3). plain cpu is the process CPU time of
// the routing (all its threads), layers cpu that of assign_layers (all its
// threads: the survey runs on every core), cpu ratio (plain + layers) / plain: on a shared machine
// the CPU times are the steadier measure.
// busiest VL: how evenly the layers share each cable, the reason routes
// are spread over spare layers; per switch-to-switch cable the share of its
// routes in its busiest layer, mean over cables weighted by routes (1/8 at
// best with 8 layers and one first-fit layer).
// set-up/survey/first fit/spread ms: where the layering's wall time went
// (LayerAssignment's phases, medians over the runs), so that a change can
// be profiled without a build of its own. Where every switch has hosts
// and first fit runs, the survey runs beside layer 0's placing: "survey"
// is then the union of the dependencies only, the rest is in "first fit".
//   bench_vls [--runs N] [FABRIC...]   (default: all fabrics below)
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "deadlock/layer_assignment.h"
#include "deadlock/layer_mix.h"
#include "routing/psssp_routing.h"
#include "testing/lids_and_lfts.h"
#include "topologies/builder.h"
#include "topologies/failures.h"
#include "topologies/families.h"

using namespace psssp;

namespace {

struct Case {
  const char* name;
  std::function<Fabric()> make;
};

Fabric build(const topo::TopologySpec& spec) { return topo::build_fabric(spec); }

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {"ktree-4-3", [] { return build(topo::kary_ntree(4, 3, 4)); }},
      {"ktree-8-3-fail5",
       [] {
         Fabric f = build(topo::kary_ntree(8, 3, 8));
         topo::fail_cables(f, 0.05, 1);
         return f;
       }},
      {"random-128-d8-h8", [] { return build(topo::random_regular(128, 8, 8, 1)); }},
      {"dragonfly-a8p4h4", [] { return build(topo::dragonfly(8, 4, 4)); }},
      {"ktree-16-3", [] { return build(topo::kary_ntree(16, 3, 16)); }},
      {"dragonfly-a12p6h6", [] { return build(topo::dragonfly(12, 6, 6)); }},
      {"ktree-32-3", [] { return build(topo::kary_ntree(32, 3, 32)); }},
      // The other families of psssp-topo, each at one size of 1000-4000 hosts.
      {"fattree2-32x24-s4-c2", [] { return build(topo::fattree2(32, 24, 4, 2, 0)); }},
      {"torus-16x16-h4",
       [] {
         return build(topo::grid({16, 16}, true, 4));
       }},
      {"torus-8x8x8-h4",
       [] {
         return build(topo::grid({8, 8, 8}, true, 4));
       }},
      {"torus-32x32-h2",
       [] {
         return build(topo::grid({32, 32}, true, 2));
       }},
      {"mesh-16x16-h4",
       [] {
         return build(topo::grid({16, 16}, false, 4));
       }},
      {"hypercube-8-h4", [] { return build(topo::hypercube(8, 4)); }},
      {"hyperx-8x8x8-h4",
       [] {
         return build(topo::hyperx({8, 8, 8}, 1, 4));
       }},
      {"kautz-4-3-h4", [] { return build(topo::kautz(4, 3, 4)); }},
      {"director-is5300-3-mesh",
       [] {
         topo::DirectorParams p = topo::director_params("is5300");
         p.chassis = 3;
         p.join = topo::DirectorJoin::mesh;
         p.bundle = 30;
         return build(topo::director(p));
       }},
  };
  return c;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

double cpu_seconds(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void run(const Case& c, unsigned runs) {
  Fabric f = c.make();
  testing::assign_lids(f);
  std::vector<double> plain, layered, plain_cpu, layers_cpu;
  std::vector<double> setup, survey, first_fit, spread;  // the layering's phases
  unsigned needed = 0;
  double share = 0;
  std::string failure;
  for (unsigned i = 0; i < runs; ++i) {
    const double c0 = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
    const auto t0 = std::chrono::steady_clock::now();
    const RoutingResult r = route_psssp(f, RoutingOptions{});
    plain.push_back(seconds_since(t0));
    plain_cpu.push_back(cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - c0);
    const double c1 = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
    const auto t1 = std::chrono::steady_clock::now();
    std::optional<deadlock::LayerAssignment> a;
    try {
      a = deadlock::assign_layers(f, r.lfts, deadlock::LayerOptions{});
      needed = a->layers_needed;
      setup.push_back(a->setup_seconds);
      survey.push_back(a->survey_seconds);
      first_fit.push_back(a->first_fit_seconds);
      spread.push_back(a->spread_seconds);
    } catch (const deadlock::LayerError& e) {
      failure = e.what();
    }
    layered.push_back(plain.back() + seconds_since(t1));
    layers_cpu.push_back(cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - c1);
    if (a && i + 1 == runs)
      share = deadlock::layer_mix(f, r.lfts, a->table).busiest_share();  // after the clocks
  }
  const double p = median(plain), l = median(layered);
  const double pc = median(plain_cpu), lc = median(layers_cpu);
  char phases[64] = "-";  // none when the layering failed
  if (!setup.empty())
    std::snprintf(phases, sizeof(phases), "%.1f/%.1f/%.1f/%.1f", 1e3 * median(setup),
                  1e3 * median(survey), 1e3 * median(first_fit), 1e3 * median(spread));
  std::printf("%-18s %6zu %8.3f %8.3f %6.2f %9.3f %10.3f %9.2f  %-13s %10.3f  %s\n", c.name,
              f.host_ports().size(), p, l, l / p, pc, lc, (pc + lc) / pc,
              failure.empty() ? std::to_string(needed).c_str() : failure.c_str(), share, phases);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  unsigned runs = 3;
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
      runs = static_cast<unsigned>(std::max(1L, std::strtol(argv[++i], nullptr, 10)));
    else
      names.emplace_back(argv[i]);
  }
  std::printf("%-18s %6s %8s %8s %6s %9s %10s %9s  %-13s %10s  %s\n", "fabric", "hosts", "plain s",
              "vls=8 s", "ratio", "plain cpu", "layers cpu", "cpu ratio", "layers needed",
              "busiest VL", "set-up/survey/first fit/spread ms");
  for (const Case& c : cases()) {
    bool wanted = names.empty();
    for (const std::string& n : names) wanted = wanted || n == c.name;
    if (wanted) run(c, runs);
  }
  return 0;
}
