// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// fat_tree_roots on generated trees: the same switches the generator names
// as roots, also with hosts on spines and with cables missing.
#include "fabric/tree_roots.h"

#include <gtest/gtest.h>

#include <string>

#include "builder.h"
#include "failures.h"
#include "families.h"

namespace psssp::topo {
namespace {

std::vector<NodeId> spec_roots(const TopologySpec& spec) {
  return std::vector<NodeId>(spec.roots.begin(), spec.roots.end());  // NodeId = spec index
}

TEST(TreeRoots, GeneratedTreesAgreeWithTheGenerator) {
  for (const TopologySpec& spec :
       {kary_ntree(4, 2, 4), kary_ntree(4, 3, 4), kary_ntree(8, 3, 8), fattree2(6, 4, 3, 2, 0),
        fattree3(3, 2, 4, 2, 2, 1, 0), tapered_tree(4, 3, 6, 2), rail_optimized(2, 4, 4, 4, 1)}) {
    ASSERT_FALSE(spec.roots.empty()) << spec.family;
    EXPECT_EQ(fat_tree_roots(build_fabric(spec)), spec_roots(spec)) << spec.family;
  }
}

TEST(TreeRoots, HostsOnSpinesDoNotMakeThemLeaves) {
  const TopologySpec two = fattree2(8, 6, 4, 1, 2);
  EXPECT_EQ(fat_tree_roots(build_fabric(two)), spec_roots(two));
  const TopologySpec three = fattree3(2, 2, 4, 2, 2, 1, 1);
  EXPECT_EQ(fat_tree_roots(build_fabric(three)), spec_roots(three));
}

// A grown tree: leaves with fewer hosts than uplinks are leaves still, and
// the spines that hold a few hosts are not.
TEST(TreeRoots, GrownTreesAgreeWithTheGenerator) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    GrownTreeParams params;
    params.seed = seed;
    const TopologySpec spec = grown_tree(params);
    ASSERT_FALSE(spec.roots.empty());
    EXPECT_EQ(fat_tree_roots(build_fabric(spec)), spec_roots(spec)) << "seed " << seed;
  }
}

TEST(TreeRoots, MissingCablesKeepTheRoots) {
  const TopologySpec spec = kary_ntree(4, 3, 4);
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    Fabric f = build_fabric(spec);
    fail_cables(f, 0.1, seed);
    EXPECT_EQ(fat_tree_roots(f), spec_roots(spec)) << "seed " << seed;
  }
}

TEST(TreeRoots, NoTreeNoRoots) {
  Fabric single;
  const NodeId s = single.add_node(NodeType::switch_node, "s", 4);
  const NodeId h = single.add_node(NodeType::ca, "h", 1);
  single.connect({h, 1}, {s, 1});
  single.index();
  EXPECT_TRUE(fat_tree_roots(single).empty());  // one switch
  EXPECT_TRUE(fat_tree_roots(Fabric{}).empty());
}

// Every switch has hosts (one level, as public-1.topo): no fat tree, but one
// up*/down* root, the switch with the most switch cables.
TEST(TreeRoots, OneLevelGetsItsHub) {
  Fabric f;
  const NodeId a = f.add_node(NodeType::switch_node, "a", 8);
  const NodeId b = f.add_node(NodeType::switch_node, "b", 8);
  const NodeId c = f.add_node(NodeType::switch_node, "c", 8);
  f.connect({a, 1}, {b, 1});
  f.connect({b, 2}, {c, 1});
  for (NodeId s : {a, b, c})
    for (PortNum p = 5; p <= 8; ++p) {
      const NodeId h = f.add_node(NodeType::ca, "h" + std::to_string(s * 10 + p), 1);
      f.connect({h, 1}, {s, p});
    }
  f.index();
  EXPECT_TRUE(fat_tree_roots(f).empty());  // no tree
  EXPECT_EQ(updown_roots(f), std::vector<NodeId>{b});
}

}  // namespace
}  // namespace psssp::topo
