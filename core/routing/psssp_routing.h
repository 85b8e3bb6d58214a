// P-SSSP: one shortest-path search per destination LID over the switch graph,
// edge weight = load already placed on the link; the search tree, written in
// reverse, becomes every switch's LFT entry for that LID; then the tree's
// links take on the load of the sources routed through them.
// The algorithm and its choices are described in psssp-route.md.
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
  // Non-minimal mode: cost of one hop, in routes (keeps idle links from
  // attracting detours; 0 < hop_weight).
  double hop_weight = 1.0;
  // Weight = load / capacity (Gb/s) instead of the plain route count.
  bool capacity_weights = false;
  // Switch port-0 LIDs are always routed; with this they also add load.
  bool switch_lids_load = false;
  // Port GUIDs from a cn_guid_file-style list: routed first (priority) or the
  // only sources and destinations of load (only).
  std::vector<Guid> guid_list;
  enum class GuidListMode { priority, only } guid_list_mode = GuidListMode::priority;
  // Worker threads (0 = hardware concurrency). The LFTs do not depend on it.
  unsigned threads = 1;

  // --- Tuning knobs; the defaults are the measured best (psssp-route.md). ---
  // Destination order: round-robin over destination switches (interleaved:
  // consecutive searches land in different subtrees), switch by switch
  // (switches: all ports of a switch in a row, as OpenSM's sssp), or LID order.
  enum class Order { interleaved, switches, lid } order = Order::switches;
  // Among equal-cost next hops: the lowest port (first); the candidate
  // (key mod count) in port order, key = the destination's rank on its
  // switch, spreading destinations like ftree's d-mod-k (dmodk); or that
  // candidate in the order of their paths from the destination (path): all
  // switches then prefer the same branch, whatever their port numbering, so
  // the routes to one destination converge early.
  enum class TieBreak { first, dmodk, path } tie_break = TieBreak::path;
  // Link weight = routes + dest_weight * (distinct load-carrying LIDs routed
  // over the link). Measured no gain over 0 (psssp-route.md); kept for
  // experiments.
  double dest_weight = 0.0;
  // Rip-up-and-reroute passes after the first: each load-carrying LID is
  // re-searched with its own load removed and everybody else's in place.
  unsigned refine_passes = 1;
  // Minimal mode only: search with Boost.Graph's Dijkstra on the shortest-path
  // DAG instead of the layered kernel. Identical LFTs, slower (bench_route).
  bool boost_kernel = false;
};

struct RoutingResult {
  ForwardingTables lfts;
  std::vector<double> channel_load;      // routes per fabric channel (sources x paths)
  std::vector<std::string> unreachable;  // messages: destinations some switch cannot reach
  double seconds = 0.0;                  // compute time
};

// Throws FabricError if the fabric cannot be routed at all (no switches).
RoutingResult route_psssp(const Fabric& fabric, const RoutingOptions& options);

}  // namespace psssp
