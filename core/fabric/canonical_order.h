// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Routing results depend on node order (it fixes tie-breaking), and a file
// lists nodes in whatever order its writer chose. Both the OpenSM plugin and
// the offline router therefore route a copy of the fabric with its nodes in
// ascending node-GUID order, so the same fabric gives the same tables.
#pragma once

#include "fabric.h"

namespace psssp {

// A re-indexed copy with nodes sorted by node GUID (ties, e.g. GUID 0, keep
// file order). Warnings are carried over.
Fabric sorted_by_guid(const Fabric& fabric);

}  // namespace psssp
