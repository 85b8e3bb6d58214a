// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// apply_rates: each cable's width and speed from another description of the
// same machine. A replay in ibsim cannot run every rate a capture holds
// (ibsim 0.10 has no NDR); scoring the replayed tables on the captured rates
// keeps the comparison on the machine that exists.
#include <map>
#include <utility>

#include "fabric_io.h"

namespace psssp {

RateTransfer apply_rates(Fabric& fabric, const Fabric& source) {
  // Cable ends by (node GUID, port number): the names a replay keeps.
  std::map<std::pair<Guid, PortNum>, LinkRate> rates;
  for (const Node& n : source.nodes())
    for (PortNum p = 1; p <= n.num_ports(); ++p)
      if (n.ports[p].connected() && n.guid) rates[{n.guid, p}] = n.ports[p].rate;
  RateTransfer result;
  for (NodeId id = 0; id < fabric.node_count(); ++id) {
    Node& n = fabric.node(id);
    for (PortNum p = 1; p <= n.num_ports(); ++p) {
      Port& port = n.ports[p];
      if (!port.connected()) continue;
      const bool first_end =
          id < port.remote.node || (id == port.remote.node && p < port.remote.port);
      const auto it = rates.find({n.guid, p});
      if (it == rates.end()) {
        result.unmatched += first_end;
        continue;
      }
      result.changed += first_end && port.rate != it->second;
      port.rate = it->second;
      result.matched += first_end;
    }
  }
  return result;
}

}  // namespace psssp
