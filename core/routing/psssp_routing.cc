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
  // with full effort both are routed and the better estimate is kept. Each
  // order is routed and estimated on a thread of its own.
  if (options.order == Order::automatic && router.prepare()) {
    const unsigned threads = parallel::effective_threads(options.threads);
    RoutingOptions second = options;
    second.order = Order::interleaved;
    if (threads > 1) second.threads = 1;  // it already runs beside the first
    const std::vector<PortRef>& hosts = router.load_sources();
    RoutingResult routed[2];
    double estimate[2];
    parallel::parallel_slices(2, threads, [&](std::size_t begin, std::size_t end, unsigned) {
      for (std::size_t i = begin; i < end; ++i) {
        routed[i] = i == 0 ? router.run() : Router(fabric, second).run();
        routed[i].order = i == 0 ? Order::switches : Order::interleaved;
        estimate[i] = estimate_ebb(fabric, routed[i].lfts, hosts, options.estimate_runs,
                                   options.estimate_seed);
      }
    });
    result = std::move(routed[estimate[1] > estimate[0] ? 1 : 0]);
    result.estimate_switches = estimate[0];
    result.estimate_interleaved = estimate[1];
  } else {
    result = router.run();
    result.order = first.order;
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace psssp
