// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The k-ary n-tree of the tests keeps its documented (w, l) port layout
// when built by the generator: bench_route's d-mod-k reference relies on it.
#include "testing/routing_support.h"

#include <gtest/gtest.h>

#include <set>

namespace psssp::testing {
namespace {

void expect_layout(unsigned k, unsigned n) {
  const KaryNtree t = make_kary_ntree(k, n);
  const Fabric& f = t.fabric;
  ASSERT_EQ(t.hosts.size(), t.level[0].size() * k);
  for (std::size_t h = 0; h < t.hosts.size(); ++h) {
    const PortRef leaf = f.node(t.hosts[h]).ports[1].remote;
    EXPECT_EQ(leaf.node, t.level[0][h / k]) << h;
    EXPECT_EQ(leaf.port, 1 + h % k) << h;
  }
  for (unsigned l = 0, pow = 1; l + 1 < n; ++l, pow *= k)
    for (unsigned w = 0; w < t.level[l].size(); ++w)
      for (unsigned m = 0; m < k; ++m) {
        const PortRef up = f.node(t.level[l][w]).ports[k + 1 + m].remote;
        const unsigned digit = (w / pow) % k;
        EXPECT_EQ(up.node, t.level[l + 1][w - digit * pow + m * pow]) << k << n << l << w << m;
        EXPECT_EQ(up.port, 1 + digit) << k << " " << n << " " << l << " " << w << " " << m;
      }
}

TEST(KaryNtree, GeneratedTreeHasTheDocumentedPortLayout) {
  expect_layout(2, 3);
  expect_layout(4, 3);
  expect_layout(3, 4);
}

TEST(KaryNtree, SeededTreeKeepsItsCablesOnOtherPorts) {
  const KaryNtree plain = make_kary_ntree(4, 3);
  const KaryNtree mixed = make_kary_ntree(4, 3, 0, 42);
  unsigned moved = 0;
  for (NodeId id = 0; id < plain.fabric.node_count(); ++id) {
    std::multiset<NodeId> a, b;
    for (const Port& p : plain.fabric.node(id).ports) a.insert(p.remote.node);
    for (const Port& p : mixed.fabric.node(id).ports) b.insert(p.remote.node);
    EXPECT_EQ(a, b) << id;
    for (PortNum p = 1; p <= plain.fabric.node(id).num_ports(); ++p)
      moved += plain.fabric.node(id).ports[p].remote != mixed.fabric.node(id).ports[p].remote;
  }
  EXPECT_GT(moved, plain.fabric.node_count());
}

}  // namespace
}  // namespace psssp::testing
