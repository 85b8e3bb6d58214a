// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Random regular switch graph by the Steger-Wormald pairing: join random free
// stubs of distinct, not yet adjacent switches; restart when stuck or when the
// result is disconnected. Deterministic for a seed (see rng.h).
#include <algorithm>
#include <set>
#include <stdexcept>
#include <utility>

#include "families.h"
#include "rng.h"

namespace psssp::topo {
namespace {

using Edge = std::pair<std::size_t, std::size_t>;

bool connected(std::size_t n, const std::vector<Edge>& edges) {
  std::vector<std::vector<std::size_t>> adj(n);
  for (const auto& [u, v] : edges) {
    adj[u].push_back(v);
    adj[v].push_back(u);
  }
  std::vector<bool> seen(n, false);
  std::vector<std::size_t> stack{0};
  seen[0] = true;
  std::size_t reached = 1;
  while (!stack.empty()) {
    const std::size_t u = stack.back();
    stack.pop_back();
    for (std::size_t v : adj[u])
      if (!seen[v]) seen[v] = true, ++reached, stack.push_back(v);
  }
  return reached == n;
}

// One pairing attempt; empty when it got stuck.
std::vector<Edge> try_pairing(std::size_t n, unsigned degree, Rng& rng) {
  std::vector<std::size_t> stubs;
  for (std::size_t v = 0; v < n; ++v) stubs.insert(stubs.end(), degree, v);
  std::set<Edge> adjacent;
  std::vector<Edge> edges;
  while (!stubs.empty()) {
    bool placed = false;
    for (std::size_t tries = 0; tries < 50 * stubs.size() && !placed; ++tries) {
      const std::size_t i = rng.below(stubs.size()), j = rng.below(stubs.size());
      const std::size_t u = std::min(stubs[i], stubs[j]), v = std::max(stubs[i], stubs[j]);
      if (u == v || adjacent.count({u, v})) continue;
      adjacent.insert({u, v});
      edges.push_back({u, v});
      for (std::size_t k : {std::max(i, j), std::min(i, j)}) {
        stubs[k] = stubs.back();
        stubs.pop_back();
      }
      placed = true;
    }
    if (!placed) return {};
  }
  return edges;
}

}  // namespace

TopologySpec random_regular(unsigned switches, unsigned degree, unsigned hosts_per_switch,
                            std::uint64_t seed) {
  if (switches < 2 || degree < 1 || degree >= switches)
    throw std::invalid_argument("random-regular: need 1 <= degree < switches");
  if (std::size_t{switches} * degree % 2 != 0)
    throw std::invalid_argument("random-regular: switches * degree must be even");
  if (switches > 2 && degree < 2)
    throw std::invalid_argument("random-regular: degree 1 is disconnected");
  if (switches > 100000) throw std::invalid_argument("random-regular: too many switches");
  Rng rng(seed);
  std::vector<Edge> edges;
  for (int attempt = 0; attempt < 1000 && edges.empty(); ++attempt) {
    edges = try_pairing(switches, degree, rng);
    if (!edges.empty() && !connected(switches, edges)) edges.clear();
  }
  if (edges.empty()) throw std::invalid_argument("random-regular: no connected graph found");
  std::sort(edges.begin(), edges.end());  // port order by neighbour index

  TopologySpec spec;
  spec.family = "random-regular";
  for (unsigned s = 0; s < switches; ++s)
    spec.switches.push_back({"rr-" + std::to_string(s), hosts_per_switch, degree});
  for (const auto& [u, v] : edges) spec.cables.push_back({u, v, 0, 0});
  return spec;
}

}  // namespace psssp::topo
