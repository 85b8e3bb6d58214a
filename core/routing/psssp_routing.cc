// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// route_psssp: the router for the chosen destination order, or with the
// automatic order both orders and the tables with the better eBB estimate.
#include "psssp_routing.h"

#include <chrono>

#include "ebb_estimate.h"
#include "router.h"

namespace psssp {

using routing::Router;

RoutingResult route_psssp(const Fabric& fabric, const RoutingOptions& options) {
  if (fabric.switches().empty()) throw FabricError("the fabric has no switches to route");
  if (!options.minimal && !(options.hop_weight > 0.0))
    throw FabricError("non-minimal routing needs a positive hop weight");
  const auto start = std::chrono::steady_clock::now();
  using Order = RoutingOptions::Order;
  RoutingOptions first = options;
  if (first.order == Order::automatic) first.order = Order::switches;
  Router router(fabric, first);
  RoutingResult result;
  // Neither order wins everywhere (psssp-route.md, "Destination order"):
  // with full effort both are routed, and interleaved once more with equal
  // costs going to the lowest port, which keeps a consistent port order
  // (dimension order where the cables are numbered by dimension: 3-D HyperX
  // and meshes, "Port-order ties"), and switch by switch with loose ties to
  // the lowest port, which packs the routes that cross a thin bundle onto
  // a few links and leaves the others to the rest ("Loose ties"). The best
  // estimate is kept, the earlier candidate on equal ones. The candidates
  // (routing and estimate each) are tasks for the threads.
  using Tie = RoutingOptions::TieBreak;
  if (options.order == Order::automatic && router.prepare()) {
    const unsigned threads = parallel::effective_threads(options.threads);
    const bool port_order = options.tie_break == Tie::path;
    const std::size_t candidates = port_order ? 4 : 2;
    RoutingOptions other[4] = {first, options, options, first};
    for (std::size_t i = 1; i < candidates; ++i) {
      if (i < 3) other[i].order = Order::interleaved;
      if (threads > 1) other[i].threads = 1;  // it already runs beside the first
    }
    other[2].tie_break = Tie::first;
    other[3].tie_break = Tie::first;
    other[3].tie_slack = kLooseTieSlack;
    const std::vector<PortRef>& hosts = router.load_sources();
    RoutingResult routed[4];
    double estimate[4] = {-1.0, -1.0, -1.0, -1.0};
    parallel::parallel_for(candidates, threads, [&](std::size_t i, unsigned) {
      routed[i] = i == 0 ? router.run() : Router(fabric, other[i]).run();
      routed[i].order = other[i].order;
      routed[i].tie_break = other[i].tie_break;
      routed[i].tie_slack = other[i].tie_slack;
      estimate[i] =
          estimate_ebb(fabric, routed[i].lfts, hosts, options.estimate_runs, options.estimate_seed);
    });
    std::size_t best = 0;
    for (std::size_t i = 1; i < candidates; ++i)
      if (estimate[i] > estimate[best]) best = i;
    result = std::move(routed[best]);
    result.estimate_switches = estimate[0];
    result.estimate_interleaved = estimate[1];
    result.estimate_port_order = estimate[2];
    result.estimate_loose_ties = estimate[3];
  } else {
    result = router.run();
    result.order = first.order;
    result.tie_break = first.tie_break;
    result.tie_slack = first.tie_slack;
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace psssp
