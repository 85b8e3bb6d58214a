// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "min_hop_matrix.h"

#include <algorithm>
#include <string>

#include "parallel/run_workers.h"
#include "parallel/thread_count.h"

namespace psssp::routing {

namespace {
constexpr unsigned kMaxStoredHops = 254;  // OpenSM stores hop counts in a byte; 255 = none
}

MinHopMatrix::MinHopMatrix(const Fabric& fabric, unsigned threads) {
  const std::vector<NodeId>& switches = fabric.switches();
  switch_count_ = static_cast<std::uint32_t>(switches.size());
  dense_of_.assign(fabric.node_count(), kNone);
  PortNum widest = 0;
  for (std::uint32_t s = 0; s < switch_count_; ++s) {
    dense_of_[switches[s]] = s;
    widest = std::max(widest, fabric.node(switches[s]).num_ports());
  }
  stride_ = static_cast<std::size_t>(widest) + 1;
  num_ports_.resize(switch_count_);
  guid_.resize(switch_count_);
  links_.assign(switch_count_ * stride_, Link{});
  target_of_.assign(switch_count_, kNone);
  for (std::uint32_t s = 0; s < switch_count_; ++s) {
    const Node& node = fabric.node(switches[s]);
    num_ports_[s] = node.num_ports();
    guid_[s] = node.guid;
    for (PortNum p = 1; p <= node.num_ports(); ++p) {
      const Port& port = node.ports[p];
      if (!port.connected()) continue;
      const std::uint32_t r = dense_of_[port.remote.node];
      if (r == kNone || r == s) continue;  // a CA, a router, or a loop back into this switch
      links_[s * stride_ + p] = Link{r, port.healthy};
    }
    if (node.ports[0].lid != 0) {
      target_of_[s] = static_cast<std::uint32_t>(target_lid_.size());
      target_lid_.push_back(node.ports[0].lid);
      target_sw_.push_back(s);
    }
  }

  // least(s, T): 0 at T; 1 on any switch cabled to T; then outwards over
  // healthy cables only (they are the same in both directions).
  const std::size_t n = switch_count_;
  least_.assign(target_lid_.size() * n, kNoHops);
  const unsigned workers = parallel::effective_threads(threads);
  std::vector<std::vector<std::uint32_t>> queues(workers);
  parallel::parallel_for(target_lid_.size(), workers, [&](std::size_t t, unsigned w) {
    std::uint8_t* least = &least_[t * n];
    std::vector<std::uint32_t>& queue = queues[w];
    queue.clear();
    const std::uint32_t root = target_sw_[t];
    least[root] = 0;
    for (std::size_t p = 1; p <= num_ports_[root]; ++p) {
      const Link& l = links(root)[p];
      if (l.remote != kNone && least[l.remote] == kNoHops) {
        least[l.remote] = 1;
        queue.push_back(l.remote);
      }
    }
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const std::uint32_t r = queue[head];
      const unsigned next = least[r] + 1u;
      if (next > kMaxStoredHops) break;  // BFS order: every later vertex is as far
      for (std::size_t p = 1; p <= num_ports_[r]; ++p) {
        const Link& l = links(r)[p];
        if (l.remote != kNone && l.healthy && least[l.remote] == kNoHops) {
          least[l.remote] = static_cast<std::uint8_t>(next);
          queue.push_back(l.remote);
        }
      }
    }
  });
}

std::vector<std::uint8_t> MinHopMatrix::changed_entries(const MinHopMatrix& before) const {
  const std::size_t n = switch_count_;
  const std::size_t targets = target_lid_.size();
  if (before.guid_ != guid_ || before.num_ports_ != num_ports_ || before.stride_ != stride_ ||
      before.target_lid_ != target_lid_ || before.target_sw_ != target_sw_)
    return std::vector<std::uint8_t>(targets * n, 1);
  std::vector<std::uint8_t> changed(targets * n, 0);
  // entries(s, t) reads s's cables and least(r, t) of each switch r they reach.
  std::vector<std::vector<std::uint32_t>> readers(n);  // r -> the switches cabled to r
  for (std::uint32_t s = 0; s < n; ++s) {
    bool cables_changed = false;
    for (std::size_t p = 1; p <= num_ports_[s]; ++p) {
      const Link& l = links(s)[p];
      cables_changed = cables_changed || l != before.links(s)[p];
      if (l.remote != kNone) readers[l.remote].push_back(s);
    }
    if (cables_changed)
      for (std::size_t t = 0; t < targets; ++t) changed[t * n + s] = 1;
  }
  for (std::size_t t = 0; t < targets; ++t) {
    const std::uint8_t* now = &least_[t * n];
    const std::uint8_t* then = &before.least_[t * n];
    for (std::uint32_t r = 0; r < n; ++r)
      if (now[r] != then[r])
        for (std::uint32_t s : readers[r]) changed[t * n + s] = 1;
  }
  return changed;
}

std::uint32_t MinHopMatrix::dense(NodeId sw) const {
  if (sw >= dense_of_.size() || dense_of_[sw] == kNone)
    throw FabricError("node " + std::to_string(sw) + " is not a switch of the hop matrix");
  return dense_of_[sw];
}

std::uint8_t MinHopMatrix::least_hops(NodeId sw, std::size_t t) const {
  return least_[t * switch_count_ + dense(sw)];
}

void MinHopMatrix::entries(NodeId sw, std::size_t t, std::uint8_t* out) const {
  const std::uint32_t s = dense(sw);
  const std::uint32_t target = target_sw_[t];
  const std::uint8_t* least = &least_[t * switch_count_];
  out[0] = s == target ? 0 : kNoHops;
  for (std::size_t p = 1; p <= num_ports_[s]; ++p) {
    const Link& l = links(s)[p];
    std::uint8_t hops = kNoHops;
    if (l.remote == target) {
      hops = 1;  // any cable to the target's switch, healthy or not
    } else if (l.remote != kNone && l.healthy && least[l.remote] != kNoHops &&
               least[l.remote] + 1u <= kMaxStoredHops) {
      hops = static_cast<std::uint8_t>(least[l.remote] + 1u);
    }
    out[p] = hops;
  }
}

}  // namespace psssp::routing
