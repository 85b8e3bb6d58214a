// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The root switches of a fat tree found in a captured fabric, for the engines
// that need them (OpenSM's ftree and updn take a root GUID file).
//
// Rule: leaves are the switches with at least half of their cabled ports on
// hosts (if no switch has that many, every switch with a host). A switch's
// level is its distance in switch hops from the nearest leaf; the roots are
// the switches of the highest level. A few hosts on a spine do not make it a
// leaf, and a missing cable changes no level while a second path remains.
#pragma once

#include <vector>

#include "fabric.h"

namespace psssp {

// Root switches in node order; empty when the fabric has no switch or no
// host, or every switch is a leaf (one level: no tree to speak of).
std::vector<NodeId> fat_tree_roots(const Fabric& fabric);

// Roots for up*/down* routing (OpenSM's updn, ftree's root file): the fat
// tree's, or for a one-level fabric of several switches the one with the
// most switch cables.
std::vector<NodeId> updown_roots(const Fabric& fabric);

}  // namespace psssp
