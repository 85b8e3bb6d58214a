// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Rank neighbours (RoutingOptions::neighbour_window): the trees of the LIDs
// next to a LID in the hosts' order weigh extra on its search.
#include <algorithm>
#include <cmath>

#include "router.h"

namespace psssp::routing {

bool Router::single_lids() const {
  return std::all_of(problem_.destinations.begin(), problem_.destinations.end(),
                     [&](const Destination& d) { return fabric_.port(d.port).lid_count() == 1; });
}

void Router::rank_destinations() {
  if (!single_lids()) return;  // a port's LIDs keep apart by their own penalties
  neighbour_tree_ = SearchTree(graph_.vertex_count);
  const auto& dests = problem_.destinations;
  // A port's place among the load sources, by its channel (one per port).
  std::vector<std::size_t> place(fabric_.channel_count(), problem_.source_ports.size());
  for (std::size_t s = 0; s < problem_.source_ports.size(); ++s)
    place[fabric_.channel(problem_.source_ports[s])] = s;
  std::vector<std::pair<std::size_t, std::size_t>> keyed;  // (place, destination)
  for (std::size_t i = 0; i < dests.size(); ++i)
    if (dests[i].loads && dests[i].vertex != kNoVertexId)
      keyed.emplace_back(place[fabric_.channel(dests[i].port)], i);
  std::sort(keyed.begin(), keyed.end());
  rank_of_.assign(dests.size(), kNotRanked);
  by_rank_.clear();
  for (const auto& [source, i] : keyed) {
    rank_of_[i] = by_rank_.size();
    by_rank_.push_back(i);
  }
  weighs_.assign(by_rank_.size(), 0);
  routed_.assign(by_rank_.size(), 0);
}

// Only the ranks whose wish changed rebuild a tree: moving the window by one
// place costs about four trees, not twice the window.
void Router::weigh_window(std::size_t i, bool first_pass) {
  if (by_rank_.empty() || rank_of_[i] == kNotRanked) return;
  const std::size_t window = options_.neighbour_window, at = rank_of_[i];
  const double amount = std::max(1.0, std::round(options_.neighbour_penalty * lmc_penalty()));
  const std::size_t lo = at >= window ? at - window : 0;
  const std::size_t hi = std::min(by_rank_.size(), at + window + 1);
  const auto set = [&](std::size_t k, bool want) {
    if (static_cast<bool>(weighs_[k]) == want) return;
    const Destination& n = problem_.destinations[by_rank_[k]];
    tree_from_columns(n, layers_of(n), neighbour_tree_);
    loads_.penalize(neighbour_tree_, want ? amount : -amount);
    weighs_[k] = want;
  };
  for (std::size_t k = window_lo_; k < window_hi_; ++k)
    if (k < lo || k >= hi || k == at) set(k, false);
  for (std::size_t k = lo; k < hi; ++k) set(k, k != at && (!first_pass || routed_[k]));
  window_lo_ = lo;
  window_hi_ = hi;
}

void Router::clear_window() {
  loads_.clear_penalties();
  std::fill(weighs_.begin(), weighs_.end(), 0);
  window_lo_ = window_hi_ = 0;
}

std::size_t Router::refine_by_rank() {
  std::size_t changed = 0;
  for (const std::size_t i : by_rank_) {
    const Destination& d = problem_.destinations[i];
    const Layers layers = layers_of(d);
    weigh_window(i, false);
    tree_from_columns(d, layers, tree_);
    add_tree(d, -1);
    if (reroute(d, layers, tree_, loads_.weights(d), scratch_column_, false) == Reroute::changed) {
      std::copy(scratch_column_.begin(), scratch_column_.end(), column(d.lid));
      ++changed;
    }
    add_tree(d, +1);
  }
  clear_window();
  return changed;
}

}  // namespace psssp::routing
