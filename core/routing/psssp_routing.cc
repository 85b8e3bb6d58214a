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
  RoutingResult result = router.run();
  result.order = first.order;
  // Neither order wins everywhere (psssp-route.md, "Destination order"):
  // with full effort both are routed and the better estimate is kept.
  if (options.order == Order::automatic && result.full_effort) {
    RoutingOptions second = options;
    second.order = Order::interleaved;
    RoutingResult other = Router(fabric, second).run();
    const std::vector<PortRef>& hosts = router.load_sources();
    const double a =
        estimate_ebb(fabric, result.lfts, hosts, options.estimate_runs, options.estimate_seed);
    const double b =
        estimate_ebb(fabric, other.lfts, hosts, options.estimate_runs, options.estimate_seed);
    if (b > a) {
      result = std::move(other);
      result.order = Order::interleaved;
    }
    result.estimate_switches = a;
    result.estimate_interleaved = b;
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace psssp
