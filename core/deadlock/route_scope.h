// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The routes a credit-loop check follows.
#pragma once

namespace psssp::deadlock {

// Which routes make dependencies.
enum class RouteScope {
  from_hosts,  // every source host port (each LID of its LMC range) to every
               // LID a port owns: what the layer assignment makes deadlock-free
  hosts,       // host ports to host ports only (ibdmchk's default)
  all,         // from_hosts and every switch's own LIDs (port 0) to every LID
               // (ibdmchk -a)
};

}  // namespace psssp::deadlock
