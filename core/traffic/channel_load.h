// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The eBB kernels shared by the router's estimate and the simulator's
// scorer: count the flows on every directed channel, give each flow
// 1 / (largest count on its path), or with capacities its smallest Gb/s per
// flow relative to its injection, and sum over the flows.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fabric/fabric.h"

namespace psssp {

// The paths of `count` flows: flow i uses channels[begin[i] .. end[i]).
struct FlowPaths {
  const ChannelId* channels = nullptr;
  const std::uint32_t* begin = nullptr;
  const std::uint32_t* end = nullptr;
  std::size_t count = 0;
};

// The largest load on the channels [first, last) of one path, at least 1
// (counts of 16 or 32 bits).
template <typename Load>
std::uint32_t max_load(const ChannelId* first, const ChannelId* last, const Load* load) {
  std::uint32_t worst = 1;
  for (const ChannelId* c = first; c < last; ++c) worst = std::max<std::uint32_t>(worst, load[*c]);
  return worst;
}

// ++load[c] for every channel c of every path.
void add_channel_loads(const FlowPaths& paths, std::uint32_t* load);

// load[c] = 0 for every channel of every path (a clean counter for the next run).
void clear_channel_loads(const FlowPaths& paths, std::uint32_t* load);

// The sum over flows, in flow order, of 1 / (largest load on the path); an
// empty path counts as load 1. Callers that must match bit for bit sum in
// this one order.
double sum_of_shares(const FlowPaths& paths, const std::uint32_t* load);

// Per directed channel, the Gb/s of the port that sends on it (the
// capacities of sum_of_capacity_shares).
std::vector<double> channel_gbps(const Fabric& fabric);

// The capacity-aware sum (the scorer's cap-eBB): a flow's share on a
// channel is gbps[c] / load there; it takes its path's smallest, divided by
// injection[i] (its source cable's Gb/s) and capped at 1; an empty path
// counts 1.
double sum_of_capacity_shares(const FlowPaths& paths, const std::uint32_t* load, const double* gbps,
                              const double* injection);

}  // namespace psssp
