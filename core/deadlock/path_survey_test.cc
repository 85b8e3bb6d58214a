// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "path_survey.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "testing/topologies.h"

namespace psssp::deadlock {
namespace {

// What the survey must equal: walk_route per route, one dependency per
// consecutive pair of switch-to-switch hops.
std::size_t walked(const DependencySlots& slots, const RouteTracer& tracer, NodeId source, Lid dlid,
                   std::vector<std::uint8_t>& marked, WalkEnd& end) {
  std::vector<Hop> hops;
  end = walk_route(tracer, source, dlid, hops);
  std::size_t n = 0;
  for (std::size_t i = 1; i < hops.size(); ++i)
    if (hops[i].to_switch && hops[i - 1].to_switch) {
      marked[slots.slot(hops[i].sw, hops[i].in_port, hops[i].out_port)] = 1;
      ++n;
    }
  return n;
}

// The LFT entries of every switch row for dlid, as the layer assignment
// hands them to the survey.
std::vector<std::uint8_t> column_of(const RouteTracer& tracer, Lid dlid) {
  std::vector<std::uint8_t> column(tracer.switch_count(), 0);
  if (dlid < tracer.lid_limit())
    for (std::uint32_t row = 0; row < column.size(); ++row)
      column[row] = tracer.lfts().at(row, dlid);
  return column;
}

// Every switch as a source, every LID (and one past the tables) as a
// destination: counts, ends and marked slots agree.
std::size_t expect_same_as_walks(const Fabric& f, const ForwardingTables& lfts) {
  const DependencySlots slots(f);
  const RouteTracer tracer(f, lfts);
  PathSurvey survey(f, slots, tracer), unmarked(f, slots, tracer);  // the latter marks nothing
  std::vector<std::uint8_t> by_survey(slots.size(), 0), by_walk(slots.size(), 0);
  std::size_t deps = 0;
  for (unsigned dlid = 1; dlid <= f.max_lid() + 1u; ++dlid) {
    const std::vector<std::uint8_t> column = column_of(tracer, static_cast<Lid>(dlid));
    survey.begin(static_cast<Lid>(dlid), column.data());
    unmarked.begin(static_cast<Lid>(dlid), column.data());
    for (NodeId sw : f.switches()) {
      WalkEnd a = WalkEnd::delivered, b = WalkEnd::delivered, c = WalkEnd::delivered;
      const std::size_t n = survey.count(sw, &by_survey, a);
      EXPECT_EQ(n, walked(slots, tracer, sw, static_cast<Lid>(dlid), by_walk, b))
          << "switch " << sw << " LID " << dlid;
      EXPECT_EQ(a, b) << "switch " << sw << " LID " << dlid;
      EXPECT_EQ(unmarked.count(sw, nullptr, c), n) << "switch " << sw << " LID " << dlid;
      EXPECT_EQ(c, a);
      deps += n;
    }
  }
  EXPECT_TRUE(by_survey == by_walk);
  return deps;
}

TEST(PathSurvey, EqualsWalksOnTorusAndTree) {
  EXPECT_GT(expect_same_as_walks(testing::grid({4, 4}, true, 2),
                                 testing::min_hop_lfts(testing::grid({4, 4}, true, 2))),
            0u);
  const Fabric tree = testing::fat_tree(4, 2, 3);
  EXPECT_GT(expect_same_as_walks(tree, testing::min_hop_lfts(tree)), 0u);
}

// Min-hop tables of a line of four switches with one host each (grid({4},
// false, 1)), broken: a loop s1 <-> s2 toward h3, a black hole at s2 toward
// h1, a port without a cable at s3 toward h1.
ForwardingTables broken_line_tables(const Fabric& f) {
  ForwardingTables lfts = testing::min_hop_lfts(f);
  const Lid far = f.node(*f.find_by_name("h-3")).ports[1].lid;
  const Lid near = f.node(*f.find_by_name("h-1")).ports[1].lid;
  lfts.set(*f.find_by_name("sw-2"), far, 2);
  lfts.set(*f.find_by_name("sw-1"), far, 3);
  lfts.set(*f.find_by_name("sw-2"), near, kNoPath);
  lfts.set(*f.find_by_name("sw-3"), near, 9);
  return lfts;
}

TEST(PathSurvey, EqualsWalksOnLoopsBlackHolesAndDeadPorts) {
  const Fabric f = testing::grid({4}, false, 1);
  const ForwardingTables lfts = broken_line_tables(f);
  const Lid far = f.node(*f.find_by_name("h-3")).ports[1].lid;
  const Lid near = f.node(*f.find_by_name("h-1")).ports[1].lid;
  expect_same_as_walks(f, lfts);
  const DependencySlots slots(f);
  const RouteTracer tracer(f, lfts);
  PathSurvey survey(f, slots, tracer);
  std::vector<std::uint8_t> marked(slots.size(), 0);
  WalkEnd end = WalkEnd::delivered;
  const std::vector<std::uint8_t> far_column = column_of(tracer, far);
  const std::vector<std::uint8_t> near_column = column_of(tracer, near);
  survey.begin(far, far_column.data());
  survey.count(*f.find_by_name("sw-0"), &marked, end);
  EXPECT_EQ(end, WalkEnd::loop);
  survey.begin(near, near_column.data());
  survey.count(*f.find_by_name("sw-2"), &marked, end);
  EXPECT_EQ(end, WalkEnd::unrouted);
  survey.count(*f.find_by_name("sw-3"), &marked, end);
  EXPECT_EQ(end, WalkEnd::broken);
}

// The switch-to-switch channels of a delivered route (the switch and port
// each leaves by toward another switch), or nothing for one not delivered.
std::optional<std::vector<std::pair<NodeId, PortNum>>> channels(const RouteTracer& tracer,
                                                                NodeId source, Lid dlid) {
  std::vector<Hop> hops;
  if (walk_route(tracer, source, dlid, hops) != WalkEnd::delivered) return std::nullopt;
  std::vector<std::pair<NodeId, PortNum>> out;
  for (const Hop& h : hops)
    if (h.to_switch) out.emplace_back(h.sw, h.out_port);
  return out;
}

// Groups of the LIDs delivered at each switch, ascending; same_route_as()
// of every route equals the first earlier LID of its group whose walk from
// the same switch leaves every switch by the same port. Returns the routes
// that repeat one. in_order: the group's first LID counted off its tree
// (count_tree) and its later LIDs in that order (count_every_switch),
// nothing marked, as the layer assignment does where every switch is a
// source, the counts checked against walks; `ordered` adds up the switches
// counted in order for later LIDs, `trees` the first LIDs counted off
// their trees.
std::size_t expect_repeats_as_walks_say(const Fabric& f, const ForwardingTables& lfts,
                                        std::size_t max_group = 0, bool in_order = false,
                                        std::size_t* ordered = nullptr,
                                        std::size_t* trees = nullptr) {
  const DependencySlots slots(f);
  const RouteTracer tracer(f, lfts);
  std::map<NodeId, std::vector<Lid>> at;
  for (unsigned dlid = 1; dlid <= f.max_lid(); ++dlid) {
    const PortRef p = f.port_of_lid(static_cast<Lid>(dlid));
    if (!p.valid()) continue;
    at[f.node(p.node).is_switch() ? p.node : f.port(p).remote.node].push_back(
        static_cast<Lid>(dlid));
  }
  if (max_group == 0)
    for (const auto& [sw, lids] : at) max_group = std::max(max_group, lids.size());
  PathSurvey survey(f, slots, tracer, max_group);
  std::vector<std::uint8_t> marked(slots.size(), 0);
  std::size_t repeats = 0;
  for (const auto& [sw, lids] : at) {
    std::vector<std::vector<std::uint8_t>> columns;
    for (const Lid dlid : lids) columns.push_back(column_of(tracer, dlid));
    // Every switch as a source, LID by LID as the layer assignment goes.
    std::map<NodeId, std::vector<std::uint8_t>> got;
    survey.begin_group();
    for (std::size_t j = 0; j < lids.size(); ++j) {
      survey.begin(lids[j], columns[j].data());
      // Counted at every switch: what the layer assignment reads off
      // without count() (read_off) must be what count() says.
      bool read_off = false, tree = false;
      if (in_order && j == 0) {
        read_off = tree = survey.count_tree();
        if (trees) *trees += tree;
      }
      if (in_order && j > 0) {
        const std::size_t n = survey.count_every_switch();
        if (ordered) *ordered += n;
        read_off = n == tracer.switch_count();
      }
      // read_off() of every switch at once, as the layer assignment reads it.
      std::vector<std::uint32_t> rows;
      for (const NodeId source : f.switches()) rows.push_back(tracer.row_of(source));
      std::vector<std::uint8_t> length(rows.size(), 0xEE), repeat(rows.size(), PathSurvey::kOwn),
          seen(256, 0);
      if (read_off)
        survey.read_off(rows.data(), rows.size(), length.data(), repeat.data(), seen.data());
      std::size_t i = 0;
      for (const NodeId source : f.switches()) {
        WalkEnd end = WalkEnd::delivered, walk_end = WalkEnd::delivered;
        const std::size_t n = survey.count(source, in_order ? nullptr : &marked, end);
        if (read_off) {
          const std::size_t len = std::min<std::size_t>(n, 255);
          const bool repeats_one = survey.same_route_as() != PathSurvey::kOwn;
          EXPECT_EQ(std::size_t{length[i]}, repeats_one ? 0 : len) << "switch " << source;
          EXPECT_EQ(int{repeat[i]}, int{survey.same_route_as()}) << "switch " << source;
          EXPECT_EQ(int{seen[len]}, 1) << "switch " << source;
        }
        ++i;
        std::vector<std::uint8_t> unused(slots.size(), 0);
        EXPECT_EQ(n, walked(slots, tracer, source, lids[j], unused, walk_end))
            << "switch " << source << " LID " << lids[j];
        EXPECT_EQ(end, walk_end);
        got[source].push_back(survey.same_route_as());
      }
      if (in_order && j == 0 && !tree) survey.keep_order();
    }
    for (const NodeId source : f.switches())
      for (std::size_t j = 0; j < lids.size(); ++j) {
        std::uint8_t want = PathSurvey::kOwn;
        const auto mine = channels(tracer, source, lids[j]);
        for (std::size_t i = 0; mine && j < max_group && i < j && want == PathSurvey::kOwn; ++i)
          if (channels(tracer, source, lids[i]) == mine) want = static_cast<std::uint8_t>(i);
        EXPECT_EQ(int{got[source][j]}, int{want}) << "switch " << source << " LID " << lids[j];
        repeats += want != PathSurvey::kOwn;
      }
  }
  return repeats;
}

TEST(PathSurvey, EverySwitchsDependenciesAreThoseOfTheRoutesFromEverySwitch) {
  // Where every switch is a source the union needs no walks: on a torus,
  // and on a line with a loop, a black hole and a port without a cable,
  // the next-two-hops union equals what the walks from every switch mark.
  const Fabric torus = testing::grid({4, 4}, true, 2);
  const Fabric line = testing::grid({4}, false, 1);
  const ForwardingTables broken = broken_line_tables(line);
  for (const auto& [f, lfts] :
       {std::pair<const Fabric&, ForwardingTables>{torus, testing::min_hop_lfts(torus)},
        {line, broken}}) {
    const DependencySlots slots(f);
    const RouteTracer tracer(f, lfts);
    PathSurvey survey(f, slots, tracer);
    std::vector<std::uint8_t> walked(slots.size(), 0), direct(slots.size(), 0);
    for (unsigned dlid = 1; dlid <= f.max_lid() + 1u; ++dlid) {
      const std::vector<std::uint8_t> column = column_of(tracer, static_cast<Lid>(dlid));
      survey.begin(static_cast<Lid>(dlid), column.data());
      for (const NodeId sw : f.switches()) {
        WalkEnd end = WalkEnd::delivered;
        survey.count(sw, &walked, end);
      }
      mark_every_switchs_dependencies(slots, tracer, static_cast<Lid>(dlid), column.data(), direct);
    }
    EXPECT_GT(std::count(walked.begin(), walked.end(), 1), 0);
    EXPECT_TRUE(direct == walked);
  }
}

TEST(PathSurvey, RepeatedRoutesAreThoseThatWalkTheSameChannels) {
  // A torus (3 LIDs per switch), a two-level tree with two cables between
  // each leaf and spine and two LIDs per host port (routes to the LIDs of
  // one leaf take the same switches over different cables), and a line with
  // a loop and a black hole (never a repeat).
  const Fabric torus = testing::grid({4, 4}, true, 2);
  EXPECT_GT(expect_repeats_as_walks_say(torus, testing::min_hop_lfts(torus)), 50u);
  const Fabric tree = testing::with_lids(topo::fattree2(4, 3, 2, 2, 0), 1);
  EXPECT_GT(expect_repeats_as_walks_say(tree, testing::min_hop_lfts(tree)), 50u);
  const Fabric line = testing::grid({4}, false, 2);
  ForwardingTables lfts = testing::min_hop_lfts(line);
  const Lid far = line.node(*line.find_by_name("h-6")).ports[1].lid;
  const Lid near = line.node(*line.find_by_name("h-2")).ports[1].lid;
  lfts.set(*line.find_by_name("sw-2"), far, 4);  // back to sw-1, which sends it on
  lfts.set(*line.find_by_name("sw-1"), far, 3);
  lfts.set(*line.find_by_name("sw-0"), near, kNoPath);
  EXPECT_GT(expect_repeats_as_walks_say(line, lfts), 0u);
}

TEST(PathSurvey, CountingInTheFirstLidsOrderGivesWhatWalksGive) {
  // A torus with minimal routes: every later LID is counted in order.
  const Fabric torus = testing::grid({4, 4}, true, 2);
  std::size_t ordered = 0, trees = 0;
  EXPECT_GT(
      expect_repeats_as_walks_say(torus, testing::min_hop_lfts(torus), 0, true, &ordered, &trees),
      50u);
  EXPECT_EQ(ordered, 16u * 16 * 2);  // 16 groups of 3 LIDs, 16 switches
  EXPECT_EQ(trees, 16u);             // every group's first LID off its tree
  // A line where one LID's route from sw-2 turns back to sw-1 (longer than
  // the first LID's): counting in order stops there, walks do the rest.
  const Fabric line = testing::grid({4}, false, 2);
  ForwardingTables lfts = testing::min_hop_lfts(line);
  const Lid far = line.node(*line.find_by_name("h-7")).ports[1].lid;
  lfts.set(*line.find_by_name("sw-2"), far, 4);  // back to sw-1, which sends it on
  ordered = trees = 0;
  EXPECT_GT(expect_repeats_as_walks_say(line, lfts, 0, true, &ordered, &trees), 0u);
  EXPECT_GT(ordered, 0u);
  EXPECT_LT(ordered, 4u * 4 * 2);  // 4 groups of 3 LIDs, 4 switches
  EXPECT_EQ(trees, 4u);
}

TEST(PathSurvey, TreesWithALoopOrABlackHoleAreLeftToWalks) {
  // The loop and black hole of broken_line_tables: count_tree() counts
  // nothing there, and count() then tells why, as without it.
  const Fabric f = testing::grid({4}, false, 1);
  const ForwardingTables lfts = broken_line_tables(f);
  const DependencySlots slots(f);
  const RouteTracer tracer(f, lfts);
  PathSurvey survey(f, slots, tracer, 2);
  const Lid far = f.node(*f.find_by_name("h-3")).ports[1].lid;
  const Lid near = f.node(*f.find_by_name("h-1")).ports[1].lid;
  const std::vector<std::uint8_t> far_column = column_of(tracer, far);
  const std::vector<std::uint8_t> near_column = column_of(tracer, near);
  WalkEnd end = WalkEnd::delivered;
  survey.begin_group();
  survey.begin(far, far_column.data());
  EXPECT_FALSE(survey.count_tree());
  survey.count(*f.find_by_name("sw-0"), nullptr, end);
  EXPECT_EQ(end, WalkEnd::loop);
  survey.begin_group();
  survey.begin(near, near_column.data());
  EXPECT_FALSE(survey.count_tree());
  survey.count(*f.find_by_name("sw-2"), nullptr, end);
  EXPECT_EQ(end, WalkEnd::unrouted);
  // Minimal tables: every first LID off its tree, with the walks' counts.
  const ForwardingTables good = testing::min_hop_lfts(f);
  const RouteTracer good_tracer(f, good);
  PathSurvey good_survey(f, slots, good_tracer, 2);
  for (const Lid dlid : {far, near}) {
    const std::vector<std::uint8_t> column = column_of(good_tracer, dlid);
    good_survey.begin_group();
    good_survey.begin(dlid, column.data());
    ASSERT_TRUE(good_survey.count_tree());
    std::vector<std::uint32_t> rows;
    for (const NodeId sw : f.switches()) rows.push_back(good_tracer.row_of(sw));
    std::vector<std::uint8_t> length(rows.size()), repeat(rows.size()), seen(256, 0);
    good_survey.read_off(rows.data(), rows.size(), length.data(), repeat.data(), seen.data());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      std::vector<std::uint8_t> unused(slots.size(), 0);
      WalkEnd walk_end = WalkEnd::delivered;
      EXPECT_EQ(std::size_t{length[i]},
                walked(slots, good_tracer, f.switches()[i], dlid, unused, walk_end));
      EXPECT_EQ(repeat[i], PathSurvey::kOwn);  // the group's first LID repeats none
    }
  }
}

TEST(PathSurvey, LidsBeyondTheGroupSizeRepeatNothing) {
  // Groups of 7 LIDs (a switch and 6 hosts) compared only in their first 3.
  const Fabric torus = testing::grid({4, 4}, true, 6);
  EXPECT_GT(expect_repeats_as_walks_say(torus, testing::min_hop_lfts(torus), 3), 10u);
}

TEST(PathSurvey, WithoutGroupsNoRouteRepeats) {
  const Fabric f = testing::grid({4, 4}, true, 2);
  const ForwardingTables lfts = testing::min_hop_lfts(f);
  const DependencySlots slots(f);
  const RouteTracer tracer(f, lfts);
  PathSurvey survey(f, slots, tracer);
  std::vector<std::uint8_t> marked(slots.size(), 0);
  for (unsigned dlid = 1; dlid <= f.max_lid(); ++dlid) {
    const std::vector<std::uint8_t> column = column_of(tracer, static_cast<Lid>(dlid));
    survey.begin(static_cast<Lid>(dlid), column.data());
    for (const NodeId sw : f.switches()) {
      WalkEnd end = WalkEnd::delivered;
      survey.count(sw, &marked, end);
      EXPECT_EQ(survey.same_route_as(), PathSurvey::kOwn);
    }
  }
}

}  // namespace
}  // namespace psssp::deadlock
