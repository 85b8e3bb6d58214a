// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "layer_spread.h"

#include <algorithm>
#include <cstdint>

namespace psssp::deadlock {
namespace {

void balance(PathTable& paths, LayerOptions::Order order, unsigned n, unsigned k,
             std::vector<std::size_t>& load) {
  std::vector<unsigned> group(n), members(k, 1);
  for (unsigned l = 0; l < n; ++l) {
    if (l < k) {
      group[l] = l;
      continue;
    }
    unsigned best = 0;
    for (unsigned i = 1; i < k; ++i)
      if (load[i] * members[best] > load[best] * members[i]) best = i;
    group[l] = best;
    ++members[best];
  }
  std::vector<std::size_t> target(k);
  for (unsigned i = 0; i < k; ++i) target[i] = (load[i] + members[i] - 1) / members[i];
  std::vector<std::vector<unsigned>> layers_of_group(k);
  for (unsigned l = 0; l < n; ++l) layers_of_group[group[l]].push_back(l);
  paths.for_each(order, [&](std::size_t s, std::size_t d) {
    std::uint8_t& layer = paths.layer[paths.index(s, d)];
    const unsigned from = layer;
    const std::size_t share = target[group[from]];
    if (load[from] <= share) return;
    // The emptiest layer of the group that stays within the share (ties:
    // lowest), scanned without a data-dependent branch per layer.
    unsigned to = n;
    std::size_t emptiest = SIZE_MAX;
    for (const unsigned l : layers_of_group[group[from]]) {
      const bool fits = l != from && load[l] + paths.weight[s] <= share;
      const std::size_t at = fits ? load[l] : SIZE_MAX;
      to = at < emptiest ? l : to;
      emptiest = at < emptiest ? at : emptiest;
    }
    if (to == n) return;
    layer = static_cast<std::uint8_t>(to);
    load[from] -= paths.weight[s];
    load[to] += paths.weight[s];
  });
}

}  // namespace

std::vector<std::size_t> spread_layers(PathTable& paths, LayerOptions::Order order, unsigned n,
                                       unsigned needed, bool balance_layers) {
  std::vector<std::size_t> load(n, 0);
  for (std::size_t d = 0; d < paths.dests; ++d)  // sums: any order will do
    for (std::size_t s = 0; s < paths.sources; ++s)
      if (paths.length[paths.index(s, d)] != 0)
        load[paths.layer[paths.index(s, d)]] += paths.weight[s];
  if (balance_layers && n > 1) balance(paths, order, n, needed, load);
  // Routes without switch-to-switch dependencies fit in any layer.
  for (std::size_t d = 0; d < paths.dests; ++d)
    for (std::size_t s = 0; s < paths.sources; ++s) {
      if (paths.length[paths.index(s, d)] != 0) continue;
      unsigned to = 0;
      if (balance_layers)
        for (unsigned l = 1; l < n; ++l)
          if (load[l] < load[to]) to = l;
      paths.layer[paths.index(s, d)] = static_cast<std::uint8_t>(to);
      load[to] += paths.weight[s];
    }
  return load;
}

std::vector<std::size_t> deal_one_layer(const PathTable& paths,
                                        const std::vector<SourceSwitch>& sources,
                                        const std::vector<Lid>& dests, unsigned n,
                                        LayerTable& table) {
  std::vector<std::size_t> load(n, 0);
  const std::size_t whole = dests.size() / n, rest = dests.size() % n;
  for (std::size_t s = 0; s < sources.size(); ++s) {
    const NodeId node = sources[s].node;
    unsigned layer = static_cast<unsigned>(s % n);
    for (unsigned l = 0; l < n; ++l)  // layers layer .. layer + rest - 1 get one more
      load[l] += paths.weight[s] * (whole + ((l + n - layer) % n < rest ? 1 : 0));
    for (const Lid dlid : dests) {
      table.set(node, dlid, static_cast<std::uint8_t>(layer));
      if (++layer == n) layer = 0;
    }
  }
  return load;
}

void write_layer_table(const PathTable& paths, const std::vector<SourceSwitch>& sources,
                       const std::vector<Lid>& dests, LayerTable& table) {
  // 64 switches at a time: each cache line of the destination-major layers
  // is read once.
  for (std::size_t s0 = 0; s0 < sources.size(); s0 += 64) {
    const std::size_t s1 = std::min(sources.size(), s0 + 64);
    for (std::size_t d = 0; d < dests.size(); ++d)
      for (std::size_t s = s0; s < s1; ++s)
        table.set(sources[s].node, dests[d], paths.layer[paths.index(s, d)]);
  }
}

}  // namespace psssp::deadlock
