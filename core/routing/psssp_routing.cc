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
  // with full effort both are routed and the better estimate is kept. The
  // two routings, then the two estimates, run side by side.
  if (options.order == Order::automatic && router.prepare()) {
    const unsigned threads = routing::effective_threads(options.threads);
    RoutingOptions second = options;
    second.order = Order::interleaved;
    if (threads > 1) second.threads = 1;  // it already runs beside the first
    RoutingResult other;
    routing::parallel_slices(2, threads, [&](std::size_t begin, std::size_t end, unsigned) {
      for (std::size_t i = begin; i < end; ++i) {
        if (i == 0) result = router.run();
        if (i == 1) other = Router(fabric, second).run();
      }
    });
    const std::vector<PortRef>& hosts = router.load_sources();
    double estimate[2];
    routing::parallel_slices(2, threads, [&](std::size_t begin, std::size_t end, unsigned) {
      for (std::size_t i = begin; i < end; ++i)
        estimate[i] = estimate_ebb(fabric, i == 0 ? result.lfts : other.lfts, hosts,
                                   options.estimate_runs, options.estimate_seed);
    });
    result.order = Order::switches;
    if (estimate[1] > estimate[0]) {
      result = std::move(other);
      result.order = Order::interleaved;
    }
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
