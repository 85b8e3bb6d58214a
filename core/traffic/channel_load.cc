// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "channel_load.h"

#include <algorithm>

namespace psssp {

void add_channel_loads(const FlowPaths& paths, std::uint32_t* load) {
  for (std::size_t i = 0; i < paths.count; ++i)
    for (std::uint32_t k = paths.begin[i]; k < paths.end[i]; ++k) ++load[paths.channels[k]];
}

void clear_channel_loads(const FlowPaths& paths, std::uint32_t* load) {
  for (std::size_t i = 0; i < paths.count; ++i)
    for (std::uint32_t k = paths.begin[i]; k < paths.end[i]; ++k) load[paths.channels[k]] = 0;
}

double sum_of_shares(const FlowPaths& paths, const std::uint32_t* load) {
  double sum = 0.0;
  for (std::size_t i = 0; i < paths.count; ++i)
    sum += 1.0 / max_load(paths.channels + paths.begin[i], paths.channels + paths.end[i], load);
  return sum;
}

std::vector<double> channel_gbps(const Fabric& fabric) {
  std::vector<double> gbps(fabric.channel_count());
  for (ChannelId c = 0; c < gbps.size(); ++c)
    gbps[c] = fabric.port(fabric.channel_port(c)).rate.gbps();
  return gbps;
}

double sum_of_capacity_shares(const FlowPaths& paths, const std::uint32_t* load, const double* gbps,
                              const double* injection) {
  double sum = 0.0;
  for (std::size_t i = 0; i < paths.count; ++i) {
    double share = injection[i];
    for (std::uint32_t k = paths.begin[i]; k < paths.end[i]; ++k) {
      const ChannelId c = paths.channels[k];
      share = std::min(share, gbps[c] / std::max<std::uint32_t>(load[c], 1));
    }
    sum += share / injection[i];
  }
  return sum;
}

}  // namespace psssp
