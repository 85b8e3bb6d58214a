// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// One LID's routes as its LFT column gives them, for the passes that edit
// columns after the search (top_regroup.h, tree_layout.h, parallel_cables.h):
// each switch's next hop and the sources routed through it, and the change
// of the link loads when some of its entries change.
//
//   LidTree tree(graph, sources_at);
//   tree.trace(order, reached, col);           // next(u), through(u)
//   set_entry(col, u, port, changes);           // edits, undoable
//   tree.add_change(order, reached, col, changes, first, route_delta, &dest_delta);
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "destinations.h"  // kNoVertexId
#include "routing_graph.h"

namespace psssp::routing {

// An LFT entry changed, and what it held before.
struct ColumnChange {
  PortNum* entry;
  PortNum old_port;
};

// Sets col[u] = port, recording the old entry when it changes.
void set_entry(PortNum* col, Vertex u, PortNum port, std::vector<ColumnChange>& changes);

// Restores the entries changed since changes[from], newest first.
void undo_changes(std::vector<ColumnChange>& changes, std::size_t from);

class LidTree {
 public:
  LidTree(const RoutingGraph& g, const std::uint32_t* sources_at);

  // order / reached: the LID's switch's BFS order (HopLayers): a switch's
  // next hop comes before it. The root routes nothing.
  void trace(const std::uint16_t* order, std::uint32_t reached, const PortNum* col);

  Vertex next(Vertex u) const { return next_[u]; }
  // Sources whose routes pass through u: its own and those of the switches
  // sending to it.
  double through(Vertex u) const { return through_[u]; }
  // Switches whose next hop is u.
  std::uint32_t relays(Vertex u) const { return relays_[u]; }

  // The LID's routes (and 1 destination, unless dest_delta is null) per
  // edge after changes[from..] minus before, into route_delta / dest_delta.
  // Leaves col as it is and the tree traced on the old entries.
  void add_change(const std::uint16_t* order, std::uint32_t reached, PortNum* col,
                  std::vector<ColumnChange>& changes, std::size_t from,
                  std::vector<double>& route_delta, std::vector<double>* dest_delta);

  // Traces col and adds sign x its routes (and destinations) per edge.
  void add_loads(const std::uint16_t* order, std::uint32_t reached, const PortNum* col, double sign,
                 std::vector<double>& route_delta, std::vector<double>* dest_delta);

 private:
  // trace, calling complete(u, edge, through) as each switch's subtree is
  // complete (before it adds to its next hop's).
  template <typename Complete>
  void trace_then(const std::uint16_t* order, std::uint32_t reached, const PortNum* col,
                  Complete&& complete);

  const RoutingGraph& g_;
  const std::uint32_t* sources_at_;
  std::vector<Vertex> next_;
  std::vector<EdgeId> edge_;  // to next_
  std::vector<double> through_;
  std::vector<std::uint32_t> relays_;
};

}  // namespace psssp::routing
