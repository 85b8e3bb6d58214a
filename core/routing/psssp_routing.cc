// Placeholder until the routing core lands.
#include "psssp_routing.h"

namespace psssp {

RoutingResult route_psssp(const Fabric& fabric, const RoutingOptions&) {
  throw FabricError("P-SSSP routing is not built yet (" + std::to_string(fabric.node_count()) +
                    " nodes)");
}

}  // namespace psssp
