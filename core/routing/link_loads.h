// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The weight property of the search: per forward edge, the routes and the
// distinct destinations placed on it so far, and the weight derived from them.
#pragma once

#include <cstdint>
#include <vector>

#include "psssp_routing.h"
#include "routing_graph.h"
#include "search_kernels.h"

namespace psssp::routing {

// Whether loads are weighed by capacity: RoutingOptions::capacity, where
// automatic means the switch cables do not all have the same rate.
bool uses_capacity(const RoutingGraph& graph, const RoutingOptions& options);

class LinkLoads {
 public:
  LinkLoads(const RoutingGraph& graph, const RoutingOptions& options);

  const double* weights() const { return weight_.data(); }
  const std::vector<double>& routes() const { return routes_; }
  const std::vector<double>& destinations() const { return dests_; }
  // After apply_tree: per vertex of that tree, the sources routed through it.
  const double* subtree_sources() const { return sub_.data(); }

  // Adds (sign = +1) or removes (sign = -1) one destination's tree: every
  // switch u sends its own sources plus everything routed through it to its
  // next hop. root_sources: sources on the destination's own switch (they use
  // no switch link). Returns the number of sources that reach the root.
  double apply_tree(const SearchTree& tree, const std::uint32_t* sources_at,
                    std::uint32_t root_sources, double sign);

  // Adds routes and destination counts per edge summed elsewhere (several
  // threads' trees at once).
  void add_totals(const std::vector<double>& routes, const std::vector<double>& dests);

  // The state of another LinkLoads of the same graph and options.
  void copy_from(const LinkLoads& other) {
    routes_ = other.routes_;
    dests_ = other.dests_;
    weight_ = other.weight_;
    penalty_ = other.penalty_;
    penalized_ = other.penalized_;
  }

  // Extra weight on every edge of `tree` until clear_penalties(): the LIDs of
  // one LMC range avoid each other's paths.
  void penalize(const SearchTree& tree, double amount);
  void clear_penalties();

 private:
  void refresh(EdgeId e) {
    weight_[e] = (routes_[e] + dest_weight_ * dests_[e] + penalty_[e]) * scale_[e];
  }

  const RoutingGraph& graph_;
  double dest_weight_;
  std::vector<double> scale_;  // 1, or (largest capacity / capacity) with capacity weights
  std::vector<double> routes_;
  std::vector<double> dests_;
  std::vector<double> weight_;
  std::vector<double> penalty_;
  std::vector<EdgeId> penalized_;
  std::vector<double> sub_;  // scratch: sources routed through each vertex
};

}  // namespace psssp::routing
