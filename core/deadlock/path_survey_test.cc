// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "path_survey.h"

#include <gtest/gtest.h>

#include "topologies/test_topologies.h"

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
  PathSurvey survey(f, slots, tracer);
  std::vector<std::uint8_t> by_survey(slots.size(), 0), by_walk(slots.size(), 0);
  std::size_t deps = 0;
  for (unsigned dlid = 1; dlid <= f.max_lid() + 1u; ++dlid) {
    const std::vector<std::uint8_t> column = column_of(tracer, static_cast<Lid>(dlid));
    survey.begin(static_cast<Lid>(dlid), column.data());
    for (NodeId sw : f.switches()) {
      WalkEnd a = WalkEnd::delivered, b = WalkEnd::delivered;
      const std::size_t n = survey.count(sw, by_survey, a);
      EXPECT_EQ(n, walked(slots, tracer, sw, static_cast<Lid>(dlid), by_walk, b))
          << "switch " << sw << " LID " << dlid;
      EXPECT_EQ(a, b) << "switch " << sw << " LID " << dlid;
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

TEST(PathSurvey, EqualsWalksOnLoopsBlackHolesAndDeadPorts) {
  const Fabric f = testing::grid({4}, false, 1);
  ForwardingTables lfts = testing::min_hop_lfts(f);
  const Lid far = f.node(*f.find_by_name("h-3")).ports[1].lid;
  const Lid near = f.node(*f.find_by_name("h-1")).ports[1].lid;
  // A loop s1 <-> s2 toward h3, a black hole at s2 toward h1, a port without
  // a cable at s3 toward h1.
  lfts.set(*f.find_by_name("sw-2"), far, 2);
  lfts.set(*f.find_by_name("sw-1"), far, 3);
  lfts.set(*f.find_by_name("sw-2"), near, kNoPath);
  lfts.set(*f.find_by_name("sw-3"), near, 9);
  expect_same_as_walks(f, lfts);
  const DependencySlots slots(f);
  const RouteTracer tracer(f, lfts);
  PathSurvey survey(f, slots, tracer);
  std::vector<std::uint8_t> marked(slots.size(), 0);
  WalkEnd end = WalkEnd::delivered;
  const std::vector<std::uint8_t> far_column = column_of(tracer, far);
  const std::vector<std::uint8_t> near_column = column_of(tracer, near);
  survey.begin(far, far_column.data());
  survey.count(*f.find_by_name("sw-0"), marked, end);
  EXPECT_EQ(end, WalkEnd::loop);
  survey.begin(near, near_column.data());
  survey.count(*f.find_by_name("sw-2"), marked, end);
  EXPECT_EQ(end, WalkEnd::unrouted);
  survey.count(*f.find_by_name("sw-3"), marked, end);
  EXPECT_EQ(end, WalkEnd::broken);
}

}  // namespace
}  // namespace psssp::deadlock
