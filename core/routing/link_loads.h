// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The weight property of the search: per forward edge, the routes and the
// distinct destinations placed on it so far, and the weight derived from them.
//
// With capacity weights a route counts by the rate it can use: at most its
// source's and its destination's cable rate, as a fraction of the fastest
// switch cable (a route to a 1x host adds a quarter of what a route to a 4x
// host adds). The weight is then the load a route of the destination's rate
// class would meet after joining, divided by the edge's capacity, so an idle
// slow cable is not free: one weight array per class of destination rate.
#pragma once

#include <cstdint>
#include <vector>

#include "destinations.h"
#include "psssp_routing.h"
#include "routing_graph.h"
#include "search_kernels.h"

namespace psssp::routing {

// Whether loads are weighed by capacity: RoutingOptions::capacity, where
// automatic means the switch cables do not all have the same rate.
bool uses_capacity(const RoutingGraph& graph, const RoutingOptions& options);

class LinkLoads {
 public:
  LinkLoads(const RoutingGraph& graph, const RoutingOptions& options,
            const RoutingProblem& problem);

  // Whether loads are weighed by capacity (uses_capacity at construction).
  bool weighs_capacity() const { return by_demand_; }
  // The weights a search toward `d` uses (per its demand class).
  const double* weights(const Destination& d) const {
    return weight_.data() + class_of(d) * edges_;
  }
  // Route counts (not demand-weighted): the load reported and the
  // incremental router's own bookkeeping.
  const std::vector<double>& routes() const { return routes_; }
  const std::vector<double>& destinations() const { return dests_; }
  // After apply_tree: per vertex of that tree, the sources routed through it.
  const double* subtree_sources() const { return sub_.data(); }

  // Adds (sign = +1) or removes (sign = -1) the tree of destination `d`:
  // every switch u sends its own sources plus everything routed through it
  // to its next hop. root_sources: sources on the destination's own switch
  // (they use no switch link). Returns the number of sources that reach the
  // root.
  double apply_tree(const SearchTree& tree, const Destination& d, const std::uint32_t* sources_at,
                    std::uint32_t root_sources, double sign);

  // Adds routes and destination counts per edge summed elsewhere (the
  // parallel-cable alignment, a routing's last step). The demand of capacity
  // weights is not known from route counts and is left as it was: no search
  // may follow.
  void add_totals(const std::vector<double>& routes, const std::vector<double>& dests);

  // The state of another LinkLoads of the same graph and options.
  void copy_from(const LinkLoads& other) {
    routes_ = other.routes_;
    demand_ = other.demand_;
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
  std::size_t class_of(const Destination& d) const { return by_demand_ ? d.demand_class : 0; }
  void refresh(EdgeId e) {
    const double load =
        (by_demand_ ? demand_[e] : routes_[e]) + dest_weight_ * dests_[e] + penalty_[e];
    for (std::size_t c = 0; c < classes_; ++c)
      weight_[c * edges_ + e] = (load + class_route_[c]) * scale_[e];
  }

  const RoutingGraph& graph_;
  double dest_weight_;
  bool by_demand_ = false;  // capacity weights: demand_ instead of routes_
  std::size_t edges_;
  std::size_t classes_ = 1;
  std::vector<double> class_route_;  // per class: one route's demand (0 without capacity)
  // Per class and vertex: the demand of the vertex's sources toward a
  // destination of the class (sum of min(source, destination rate) / top).
  std::vector<double> source_demand_;
  std::vector<double> scale_;  // 1, or (largest capacity / capacity) with capacity weights
  std::vector<double> routes_;
  std::vector<double> demand_;  // capacity weights: routes weighed by their demand
  std::vector<double> dests_;
  std::vector<double> weight_;
  std::vector<double> penalty_;
  std::vector<EdgeId> penalized_;
  std::vector<double> sub_;         // scratch: sources routed through each vertex
  std::vector<double> sub_demand_;  // scratch: their demand
};

}  // namespace psssp::routing
