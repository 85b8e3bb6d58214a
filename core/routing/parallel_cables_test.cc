// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Parallel-cable alignment (parallel_cables.h) through route_psssp.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "psssp_routing.h"
#include "testing/routing_support.h"
#include "topologies/failures.h"

namespace psssp {
namespace {

Fabric two_level(unsigned leaves, unsigned hosts, unsigned spines, unsigned cables) {
  Fabric f = topo::build_fabric(topo::fattree2(leaves, hosts, spines, cables, 0));
  testing::assign_lids(f);
  return f;
}

// The next switch of an LFT entry, and the entry's position among the
// switch's cables to that switch (ports in order).
struct Hop {
  NodeId next = kNoNode;
  unsigned index = 0, bundle = 0;
};

Hop hop(const Fabric& f, NodeId sw, PortNum port) {
  Hop h;
  const Node& node = f.node(sw);
  if (port == 0 || port >= node.ports.size() || !node.ports[port].usable()) return h;
  h.next = node.ports[port].remote.node;
  for (PortNum p = 1; p < node.ports.size(); ++p)
    if (node.ports[p].usable() && node.ports[p].remote.node == h.next) {
      if (p < port) ++h.index;
      ++h.bundle;
    }
  return h;
}

// One destination order for both: the automatic order picks the order by
// the estimated eBB, which the alignment itself changes.
RoutingOptions aligned_options(bool align = true) {
  RoutingOptions o;
  o.order = RoutingOptions::Order::switches;
  o.align_parallel_cables = align;
  return o;
}
RoutingOptions unaligned() { return aligned_options(false); }

bool has_hosts(const Fabric& f, NodeId sw) {
  for (const Port& p : f.node(sw).ports)
    if (p.usable() && !f.node(p.remote.node).is_switch()) return true;
  return false;
}

// The switch a LID terminates at: its own, or the one its CA is cabled to.
NodeId lid_switch(const Fabric& f, Lid lid) {
  const PortRef owner = f.port_of_lid(lid);
  if (!owner.valid()) return kNoNode;
  return f.node(owner.node).is_switch() ? owner.node : f.port(owner).remote.node;
}

// On a two-level tree: every entry of a leaf whose route crosses a spine on
// two bundles (of sizes n and a multiple of n), the second into the LID's
// leaf, uses cable (i mod n), i being the spine's cable index; returns how
// many entries that covers.
std::size_t expect_aligned(const Fabric& f, const ForwardingTables& lfts) {
  std::size_t checked = 0;
  for (const NodeId u : f.switches())
    for (Lid lid = 1; lid <= f.max_lid(); ++lid) {
      const Hop first = hop(f, u, lfts.get(u, lid));
      if (first.next == kNoNode || first.bundle < 2 || has_hosts(f, first.next)) continue;
      const Hop second = hop(f, first.next, lfts.get(first.next, lid));
      if (second.next == kNoNode || second.next != lid_switch(f, lid) ||
          second.bundle % first.bundle != 0)
        continue;
      EXPECT_EQ(first.index, second.index % first.bundle)
          << "switch " << u << " LID " << lid << " bundles " << first.bundle << "/"
          << second.bundle;
      ++checked;
    }
  return checked;
}

TEST(ParallelCables, AlignedOnTwoLevelTrees) {
  for (const auto& [cables, spines] : {std::pair{2u, 4u}, std::pair{4u, 2u}, std::pair{3u, 3u}}) {
    const Fabric f = two_level(12, 24, spines, cables);
    const RoutingResult aligned = route_psssp(f, aligned_options());
    const RoutingResult plain = route_psssp(f, unaligned());
    // Every leaf's entry for every host and the switch of another leaf.
    EXPECT_EQ(expect_aligned(f, aligned.lfts), 12u * 11u * (24u + 1u));
    // Only cables change: the next switch of every entry is the routed one.
    for (const NodeId u : f.switches())
      for (Lid lid = 1; lid <= f.max_lid(); ++lid)
        ASSERT_EQ(hop(f, u, aligned.lfts.get(u, lid)).next, hop(f, u, plain.lfts.get(u, lid)).next);
    // No cable busier than before, and the channel loads are the tables'.
    const auto max_load = [](const RoutingResult& r) {
      return *std::max_element(r.channel_load.begin(), r.channel_load.end());
    };
    EXPECT_LE(max_load(aligned), max_load(plain) * 1.01 + 1.0);
    const double ebb_aligned = testing::estimate_ebb(f, aligned.lfts, 2000);
    const double ebb_plain = testing::estimate_ebb(f, plain.lfts, 2000);
    EXPECT_GE(ebb_aligned, ebb_plain) << cables << " cables, " << spines << " spines";
  }
}

// Switches with hosts are level 0, their hostless neighbours level 1, and
// so on (a fat tree's levels).
std::map<NodeId, unsigned> levels(const Fabric& f) {
  std::map<NodeId, unsigned> level;
  std::vector<NodeId> frontier;
  for (const NodeId sw : f.switches())
    if (has_hosts(f, sw)) {
      level[sw] = 0;
      frontier.push_back(sw);
    }
  for (unsigned l = 1; !frontier.empty(); ++l) {
    std::vector<NodeId> next;
    for (const NodeId u : frontier)
      for (const Port& p : f.node(u).ports)
        if (p.usable() && f.node(p.remote.node).is_switch() && !level.count(p.remote.node)) {
          level[p.remote.node] = l;
          next.push_back(p.remote.node);
        }
    frontier.swap(next);
  }
  return level;
}

// 4 pods of 4 leaves x 16 hosts, 2 aggregation switches per pod, each with
// 2 cables to each leaf and to each of its 2 core switches (4:1 at the
// leaves).
Fabric three_level() {
  Fabric f = topo::build_fabric(topo::fattree3(4, 4, 16, 2, 2, 2, 0));
  testing::assign_lids(f);
  return f;
}

TEST(ParallelCables, MirroredAtTheTopOfThreeLevelTrees) {
  // An aggregation switch's cable up to a core is the one the core takes
  // down toward the LID (mod the bundle), as ftree routes.
  const Fabric f = three_level();
  const std::map<NodeId, unsigned> level = levels(f);
  const RoutingResult aligned = route_psssp(f, aligned_options());
  const RoutingResult plain = route_psssp(f, unaligned());
  std::size_t checked = 0;
  for (const NodeId u : f.switches())
    for (Lid lid = 1; lid <= f.max_lid(); ++lid) {
      const Hop up = hop(f, u, aligned.lfts.get(u, lid));
      if (up.next == kNoNode || level.at(u) != 1 || level.at(up.next) != 2 ||
          lid_switch(f, lid) == up.next)
        continue;
      const Hop down = hop(f, up.next, aligned.lfts.get(up.next, lid));
      ASSERT_NE(down.next, kNoNode);
      ASSERT_EQ(level.at(down.next), 1u);
      EXPECT_EQ(up.index, down.index % up.bundle) << "switch " << u << " LID " << lid;
      ++checked;
    }
  // Every aggregation switch's entry for the hosts of the 3 other pods
  // (the routes to switch LIDs count too, where they cross a core).
  EXPECT_GE(checked, 8u * 3u * 64u);
  const double ebb_aligned = testing::estimate_ebb(f, aligned.lfts, 2000);
  const double ebb_plain = testing::estimate_ebb(f, plain.lfts, 2000);
  EXPECT_GT(ebb_aligned, ebb_plain);
}

TEST(ParallelCables, LidsSharingACableIntoTheirLeafShareTheCore) {
  // top_regroup.h: the routes from the other pods to all LIDs that enter
  // their leaf over one cable come down through one core.
  const Fabric f = three_level();
  const std::map<NodeId, unsigned> level = levels(f);
  const RoutingResult grouped = route_psssp(f, aligned_options());
  const RoutingResult plain = route_psssp(f, unaligned());
  std::map<ChannelId, std::set<NodeId>> cores_of_entry;  // entry cable -> cores above it
  for (const PortRef src : f.host_ports())
    for (const PortRef dst : f.host_ports()) {
      std::vector<ChannelId> path;
      ASSERT_EQ(testing::trace_route(f, grouped.lfts, src, f.port(dst).lid, &path),
                TraceStatus::delivered);
      // host -> leaf -> agg -> core -> agg -> leaf -> host: 6 channels.
      if (path.size() != 6) continue;
      const NodeId core = f.channel_port(path[3]).node;
      ASSERT_EQ(level.at(core), 2u);
      cores_of_entry[path[4]].insert(core);
    }
  EXPECT_EQ(cores_of_entry.size(), 64u);  // 16 leaves x 2 aggregation switches x 2 cables
  for (const auto& [entry, cores] : cores_of_entry) EXPECT_EQ(cores.size(), 1u);
  const auto max_load = [](const RoutingResult& r) {
    return *std::max_element(r.channel_load.begin(), r.channel_load.end());
  };
  EXPECT_LE(max_load(grouped), max_load(plain));
  EXPECT_GT(testing::estimate_ebb(f, grouped.lfts, 2000),
            testing::estimate_ebb(f, plain.lfts, 2000));
}

void expect_reported_loads_match(const Fabric& f);

TEST(ParallelCables, TreeWithFailedCablesDeliversOnMinimalPaths) {
  // 10% of the switch cables gone: bundles of unequal sizes, cores missing
  // from some aggregation switches. Every host pair is delivered, on a path
  // as short as the unaligned routing's. (The regroup is undone on such a
  // tree, its busiest cable would grow; the mirror still moves cables.)
  Fabric f = three_level();
  topo::fail_cables(f, 0.10, 3);
  const RoutingResult grouped = route_psssp(f, aligned_options());
  const RoutingResult plain = route_psssp(f, unaligned());
  std::size_t differ = 0;
  for (const PortRef src : f.host_ports())
    for (const PortRef dst : f.host_ports()) {
      if (src == dst) continue;
      std::vector<ChannelId> path, plain_path;
      ASSERT_EQ(testing::trace_route(f, grouped.lfts, src, f.port(dst).lid, &path),
                TraceStatus::delivered);
      ASSERT_EQ(testing::trace_route(f, plain.lfts, src, f.port(dst).lid, &plain_path),
                TraceStatus::delivered);
      ASSERT_EQ(path.size(), plain_path.size());
      differ += path != plain_path;
    }
  EXPECT_GT(differ, 0u);
}

// The channel loads the router reports are those of its tables after the
// alignment moved routes between cables.
TEST(ParallelCables, ReportedLoadsMatchTheTables) {
  // A two-level tree (cables aligned) and a three-level one (cores regrouped
  // too).
  for (const Fabric& f : {two_level(6, 18, 2, 4), three_level()}) expect_reported_loads_match(f);
}

void expect_reported_loads_match(const Fabric& f) {
  const RoutingResult r = route_psssp(f, aligned_options());
  const RoutingResult plain = route_psssp(f, unaligned());
  std::size_t moved = 0;
  for (const NodeId u : f.switches())
    for (Lid lid = 1; lid <= f.max_lid(); ++lid)
      moved += r.lfts.get(u, lid) != plain.lfts.get(u, lid);
  ASSERT_GT(moved, 0u);
  std::vector<double> traced(f.channel_count(), 0.0);
  for (const PortRef src : f.host_ports())
    for (const PortRef dst : f.host_ports()) {
      if (src == dst) continue;
      std::vector<ChannelId> path;
      ASSERT_EQ(testing::trace_route(f, r.lfts, src, f.port(dst).lid, &path),
                TraceStatus::delivered);
      for (const ChannelId c : path) traced[c] += 1.0;
    }
  for (ChannelId c = 0; c < f.channel_count(); ++c) {
    const PortRef at = f.channel_port(c);
    if (!f.node(at.node).is_switch() || at.port == 0) continue;
    const Port& port = f.node(at.node).ports[at.port];
    if (!port.usable() || !f.node(port.remote.node).is_switch()) continue;
    EXPECT_DOUBLE_EQ(r.channel_load[c], traced[c]) << "channel " << c;
  }
}

// Without bundles nothing changes.
TEST(ParallelCables, NoBundlesNoChange) {
  const Fabric f = testing::make_torus({4, 4}, 2);
  EXPECT_EQ(route_psssp(f, {}).lfts.get(f.switches()[0], 1),
            route_psssp(f, unaligned()).lfts.get(f.switches()[0], 1));
  const auto t = testing::make_kary_ntree(4, 3);
  const RoutingResult a = route_psssp(t.fabric, {}), b = route_psssp(t.fabric, unaligned());
  for (const NodeId u : t.fabric.switches())
    for (Lid lid = 1; lid <= t.fabric.max_lid(); ++lid)
      ASSERT_EQ(a.lfts.get(u, lid), b.lfts.get(u, lid));
}

}  // namespace
}  // namespace psssp
