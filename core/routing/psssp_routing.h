// P-SSSP: one shortest-path search per destination LID over the switch graph,
// edge weight = load already placed on the link; the search tree, written in
// reverse, becomes every switch's LFT entry for that LID; then the tree's
// links take on the load of the sources routed through them.
#pragma once

#include <string>
#include <vector>

#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"

namespace psssp {

struct RoutingOptions {
  // Minimal-hop mode balances only among shortest paths (as OpenSM's sssp).
  // Otherwise paths may be up to max_extra_hops longer than the shortest.
  bool minimal = true;
  unsigned max_extra_hops = 2;
  // Weight = load / capacity (Gb/s) instead of the plain route count.
  bool capacity_weights = false;
  // Switch port-0 LIDs are always routed; with this they also add load.
  bool switch_lids_load = false;
  // Port GUIDs from a cn_guid_file-style list: routed first (priority) or the
  // only sources of load (only).
  std::vector<Guid> guid_list;
  enum class GuidListMode { priority, only } guid_list_mode = GuidListMode::priority;
  unsigned threads = 1;
};

struct RoutingResult {
  ForwardingTables lfts;
  std::vector<double> channel_load;     // routes per fabric channel (sources x paths)
  std::vector<std::string> unreachable; // messages: destinations some switch cannot reach
  double seconds = 0.0;                 // compute time
};

// Throws FabricError if the fabric cannot be routed at all (no switches).
RoutingResult route_psssp(const Fabric& fabric, const RoutingOptions& options);

}  // namespace psssp
