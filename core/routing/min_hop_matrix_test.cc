// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "min_hop_matrix.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <utility>

#include "testing/routing_support.h"

namespace psssp {
namespace {

using routing::kNoHops;
using routing::MinHopMatrix;

// OpenSM's own procedure, transcribed step by step as a reference: per
// switch and LID a row of hops by port, slot 0 keeping the least. First each
// switch's own LID and its switch neighbours (any cable), then relaxation
// through healthy cables until nothing changes.
struct Reference {
  std::vector<std::vector<std::vector<std::uint8_t>>> hops;  // [switch pos][lid][port]

  explicit Reference(const Fabric& f) {
    const auto& sws = f.switches();
    const std::size_t lids = f.max_lid() + 1u;
    std::vector<std::size_t> pos(f.node_count(), SIZE_MAX);
    for (std::size_t i = 0; i < sws.size(); ++i) pos[sws[i]] = i;
    hops.resize(sws.size());
    for (std::size_t i = 0; i < sws.size(); ++i)
      hops[i].assign(lids, std::vector<std::uint8_t>(f.node(sws[i]).ports.size(), kNoHops));
    auto set = [&](std::size_t i, Lid lid, PortNum port, unsigned h) {
      if (lid == 0 || lid >= lids) return;
      hops[i][lid][port] = static_cast<std::uint8_t>(h);
      if (hops[i][lid][0] > h) hops[i][lid][0] = static_cast<std::uint8_t>(h);
    };
    auto remote_switch = [&](NodeId sw, PortNum p) -> std::size_t {
      const Port& port = f.node(sw).ports[p];
      if (!port.connected() || port.remote.node == sw) return SIZE_MAX;
      return pos[port.remote.node];
    };
    for (std::size_t i = 0; i < sws.size(); ++i) {
      set(i, f.node(sws[i]).ports[0].lid, 0, 0);
      for (PortNum p = 1; p < f.node(sws[i]).ports.size(); ++p) {
        const std::size_t r = remote_switch(sws[i], p);
        if (r != SIZE_MAX) set(i, f.node(sws[r]).ports[0].lid, p, 1);
      }
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t i = 0; i < sws.size(); ++i)
        for (PortNum p = 1; p < f.node(sws[i]).ports.size(); ++p) {
          const std::size_t r = remote_switch(sws[i], p);
          if (r == SIZE_MAX || !f.node(sws[i]).ports[p].healthy) continue;
          for (const NodeId t : sws) {
            const Lid lid = f.node(t).ports[0].lid;
            if (lid == 0) continue;
            const unsigned least = hops[r][lid][0];
            if (least == kNoHops) continue;
            if (least + 1 < hops[i][lid][p]) {
              set(i, lid, p, least + 1);
              changed = true;
            }
          }
        }
    }
  }
};

// The matrix must give exactly the reference's entries, and the reference's
// rows must hold nothing for LIDs that are not switch base LIDs.
void expect_same_as_reference(const Fabric& f, unsigned threads) {
  const MinHopMatrix m(f, threads);
  const Reference ref(f);
  const auto& sws = f.switches();
  std::vector<bool> is_column(f.max_lid() + 1u, false);
  for (std::size_t t = 0; t < m.target_count(); ++t) is_column[m.target_lid(t)] = true;
  std::size_t columns = 0;
  for (const NodeId sw : sws) columns += f.node(sw).ports[0].lid != 0;
  ASSERT_EQ(m.target_count(), columns);
  std::vector<std::uint8_t> row;
  for (std::size_t i = 0; i < sws.size(); ++i) {
    const Node& n = f.node(sws[i]);
    row.assign(n.ports.size(), 0);
    for (std::size_t t = 0; t < m.target_count(); ++t) {
      const Lid lid = m.target_lid(t);
      m.entries(sws[i], t, row.data());
      for (PortNum p = 1; p < n.ports.size(); ++p)
        ASSERT_EQ(row[p], ref.hops[i][lid][p]) << n.name << " LID " << lid << " port " << int(p);
      ASSERT_EQ(row[0], n.ports[0].lid == lid ? 0 : kNoHops) << n.name << " LID " << lid;
      ASSERT_EQ(m.least_hops(sws[i], t), ref.hops[i][lid][0]) << n.name << " LID " << lid;
    }
    for (unsigned lid = 1; lid <= f.max_lid(); ++lid) {
      if (is_column[lid]) continue;
      for (const std::uint8_t h : ref.hops[i][lid]) ASSERT_EQ(h, kNoHops) << n.name << " " << lid;
    }
  }
}

TEST(MinHopMatrix, FatTreeMatchesOpenSmProcedure) {
  testing::KaryNtree t = testing::make_kary_ntree(3, 3, 1, 5);
  expect_same_as_reference(t.fabric, 1);
  expect_same_as_reference(t.fabric, 4);
}

TEST(MinHopMatrix, KnownValuesOnAFatTree) {
  // 2-ary 2-tree: leaves reach each other in 2 hops over either spine; a
  // leaf's own LID costs 2 via a spine and back.
  testing::KaryNtree t = testing::make_kary_ntree(2, 2);
  const Fabric& f = t.fabric;
  const MinHopMatrix m(f, 1);
  const NodeId leaf0 = t.level[0][0], leaf1 = t.level[0][1];
  std::size_t col_leaf1 = SIZE_MAX, col_leaf0 = SIZE_MAX;
  for (std::size_t c = 0; c < m.target_count(); ++c) {
    if (m.target_lid(c) == f.node(leaf1).ports[0].lid) col_leaf1 = c;
    if (m.target_lid(c) == f.node(leaf0).ports[0].lid) col_leaf0 = c;
  }
  ASSERT_NE(col_leaf1, SIZE_MAX);
  std::vector<std::uint8_t> row(f.node(leaf0).ports.size());
  m.entries(leaf0, col_leaf1, row.data());
  EXPECT_EQ(m.least_hops(leaf0, col_leaf1), 2);
  EXPECT_EQ(row[0], kNoHops);
  EXPECT_EQ(row[1], kNoHops);  // hosts
  EXPECT_EQ(row[2], kNoHops);
  EXPECT_EQ(row[3], 2);  // up ports
  EXPECT_EQ(row[4], 2);
  m.entries(leaf0, col_leaf0, row.data());
  EXPECT_EQ(row[0], 0);
  EXPECT_EQ(row[3], 2);
  EXPECT_EQ(m.least_hops(leaf0, col_leaf0), 0);
}

// Random switch graphs with what real subnets have: parallel cables,
// unhealthy cables, a cable looping back into its switch, a switch without
// a LID, a part cut off from the rest, LMC on hosts.
Fabric random_fabric(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Fabric f;
  const unsigned switches = 14, ports = 8;
  for (unsigned s = 0; s < switches; ++s)
    f.add_node(NodeType::switch_node, "s" + std::to_string(s), ports);
  auto free_port = [&](NodeId n) -> PortNum {
    for (PortNum p = 1; p <= ports; ++p)
      if (!f.node(n).ports[p].connected()) return p;
    return 0;
  };
  // Switches 12 and 13 form their own island.
  for (unsigned c = 0; c < 30; ++c) {
    const NodeId a = static_cast<NodeId>(rng() % 12), b = static_cast<NodeId>(rng() % 12);
    if (a == b) continue;
    const PortNum pa = free_port(a), pb = free_port(b);
    if (!pa || !pb) continue;
    f.connect(PortRef{a, pa}, PortRef{b, pb});
    f.connect(PortRef{a, pa}, PortRef{b, pb});  // a no-op, as readers do
    if (rng() % 5 == 0) f.port({a, pa}).healthy = f.port({b, pb}).healthy = false;
    if (rng() % 7 == 0 && free_port(a) && free_port(b)) {
      const PortNum qa = free_port(a), qb = free_port(b);
      f.connect(PortRef{a, qa}, PortRef{b, qb});  // a parallel cable
    }
  }
  f.connect(PortRef{12, 1}, PortRef{13, 1});
  std::vector<PortNum> spare;  // a cable from switch 3 back into itself
  for (PortNum p = 1; p <= ports; ++p)
    if (!f.node(3).ports[p].connected()) spare.push_back(p);
  if (spare.size() >= 2) f.connect(PortRef{3, spare[0]}, PortRef{3, spare[1]});
  for (unsigned s = 0; s < switches; ++s) {
    if (s == 5) continue;  // no hosts
    const NodeId h = f.add_node(NodeType::ca, "h" + std::to_string(s), 1);
    const PortNum p = free_port(s);
    if (p) f.connect(PortRef{h, 1}, PortRef{s, p});
  }
  testing::assign_guids(f);
  testing::assign_lids(f, 1);
  f.node(7).ports[0].lid = 0;  // a switch without a LID
  f.index();
  return f;
}

TEST(MinHopMatrix, RandomFabricsMatchOpenSmProcedure) {
  for (std::uint64_t seed = 1; seed <= 25; ++seed) {
    SCOPED_TRACE(seed);
    expect_same_as_reference(random_fabric(seed), 3);
  }
}

TEST(MinHopMatrix, UnhealthyCableOnlyAsTheLastHop) {
  // s0 - s1 ~ s2 - s3 in a line, s1 ~ s2 unhealthy. OpenSM still counts it
  // towards the switch at its far end (its first step), never further.
  Fabric f;
  for (int s = 0; s < 4; ++s) f.add_node(NodeType::switch_node, "s" + std::to_string(s), 4);
  f.connect(PortRef{0, 1}, PortRef{1, 1});
  f.connect(PortRef{1, 2}, PortRef{2, 1});
  f.connect(PortRef{2, 2}, PortRef{3, 1});
  f.port({1, 2}).healthy = f.port({2, 1}).healthy = false;
  testing::assign_guids(f);
  testing::assign_lids(f);
  const MinHopMatrix m(f, 1);
  ASSERT_EQ(m.target_count(), 4u);
  auto column = [&](NodeId sw) {
    std::size_t c = 0;
    while (m.target_lid(c) != f.node(sw).ports[0].lid) ++c;
    return c;
  };
  std::uint8_t row[5];
  m.entries(1, column(2), row);
  EXPECT_EQ(row[2], 1);  // across the unhealthy cable to its far end
  EXPECT_EQ(row[1], 3);  // back via s0, whose path ends on that cable
  EXPECT_EQ(m.least_hops(0, column(2)), 2);
  EXPECT_EQ(m.least_hops(3, column(1)), 2);
  m.entries(1, column(3), row);
  EXPECT_EQ(row[2], kNoHops);  // s3 is beyond the unhealthy cable
  EXPECT_EQ(m.least_hops(1, column(3)), kNoHops);
  EXPECT_EQ(m.least_hops(0, column(3)), kNoHops);
  expect_same_as_reference(f, 1);
}

// Every entry that differs between `before` and `after` is among those
// after.changed_entries(before) names; returns how many it names.
std::size_t expect_changes_named(const Fabric& before, const Fabric& after) {
  const MinHopMatrix a(before, 1), b(after, 2);
  const std::vector<std::uint8_t> changed = b.changed_entries(a);
  const std::size_t n = b.switch_count();
  EXPECT_EQ(changed.size(), n * b.target_count());
  std::vector<std::uint8_t> was(64), now(64);
  for (NodeId sw : after.switches()) {
    const std::uint32_t s = b.switch_index(sw);
    for (std::size_t t = 0; t < b.target_count(); ++t) {
      a.entries(sw, t, was.data());
      b.entries(sw, t, now.data());
      const std::size_t ports = after.node(sw).ports.size();
      if (!std::equal(was.begin(), was.begin() + ports, now.begin())) {
        EXPECT_EQ(changed[t * n + s], 1) << "switch " << sw << " target " << t;
      }
    }
  }
  return static_cast<std::size_t>(std::count(changed.begin(), changed.end(), 1));
}

// A switch-to-switch cable of `f` chosen by `pick`, both ends.
std::pair<PortRef, PortRef> switch_cable(const Fabric& f, std::size_t pick) {
  std::vector<std::pair<PortRef, PortRef>> cables;
  for (NodeId sw : f.switches())
    for (PortNum p = 1; p <= f.node(sw).num_ports(); ++p) {
      const Port& port = f.node(sw).ports[p];
      if (port.connected() && port.remote.node > sw && f.node(port.remote.node).is_switch())
        cables.push_back({PortRef{sw, p}, port.remote});
    }
  return cables.at(pick % cables.size());
}

TEST(MinHopMatrix, ChangedEntriesAfterAFaultAreFewAndComplete) {
  testing::KaryNtree t = testing::make_kary_ntree(4, 3);
  Fabric faulty = t.fabric;
  const auto cable = switch_cable(faulty, 17);
  faulty.port(cable.first).healthy = faulty.port(cable.second).healthy = false;
  const std::size_t all =
      MinHopMatrix(t.fabric, 1).switch_count() * MinHopMatrix(t.fabric, 1).target_count();
  EXPECT_EQ(expect_changes_named(t.fabric, t.fabric), 0u);  // nothing changed, nothing named
  const std::size_t down = expect_changes_named(t.fabric, faulty);
  const std::size_t up = expect_changes_named(faulty, t.fabric);
  EXPECT_GT(down, 0u);
  EXPECT_LT(down, all / 4) << "a single fault should leave most rows as they were";
  EXPECT_EQ(up, down);
}

TEST(MinHopMatrix, ChangedEntriesOnRandomFabrics) {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE(seed);
    const Fabric f = random_fabric(seed);
    Fabric g = f;
    const auto cable = switch_cable(g, seed);
    g.port(cable.first).healthy = !g.port(cable.first).healthy;
    g.port(cable.second).healthy = !g.port(cable.second).healthy;
    expect_changes_named(f, g);
    expect_changes_named(f, random_fabric(seed + 100));  // unrelated cabling, same switches
  }
}

TEST(MinHopMatrix, EverythingChangedWhenSwitchesDiffer) {
  const Fabric f = random_fabric(1);
  Fabric g = f;
  g.node(g.switches()[2]).guid ^= 0x100;  // another switch in that place
  const MinHopMatrix a(f, 1), b(g, 1);
  const std::vector<std::uint8_t> changed = b.changed_entries(a);
  EXPECT_EQ(std::count(changed.begin(), changed.end(), 1),
            static_cast<std::ptrdiff_t>(changed.size()));
}

TEST(MinHopMatrix, RejectsNonSwitches) {
  testing::KaryNtree t = testing::make_kary_ntree(2, 2);
  const MinHopMatrix m(t.fabric, 1);
  std::uint8_t row[8];
  EXPECT_THROW(m.entries(t.hosts[0], 0, row), FabricError);
}

}  // namespace
}  // namespace psssp
