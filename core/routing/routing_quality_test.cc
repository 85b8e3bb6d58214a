// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Quality guards with the internal eBB estimator (testing/routing_support.h):
// the defaults must beat an OpenSM-sssp-like configuration and reach d-mod-k
// (ftree) on a fat tree whose cabling and LIDs are in real-world disorder.
#include <gtest/gtest.h>

#include "psssp_routing.h"
#include "testing/routing_support.h"

namespace psssp {
namespace {

RoutingOptions sssp_like() {
  RoutingOptions o;
  o.order = RoutingOptions::Order::lid;
  o.tie_break = RoutingOptions::TieBreak::first;
  o.refine_passes = 0;
  return o;
}

TEST(RoutingQuality, FatTreeReachesDmodk) {
  const auto t = testing::make_kary_ntree(4, 3, 0, 42);
  const double ours = testing::estimate_ebb(t.fabric, route_psssp(t.fabric, {}).lfts, 400);
  const double sssp = testing::estimate_ebb(t.fabric, route_psssp(t.fabric, sssp_like()).lfts, 400);
  // d-mod-k on a 4-ary 3-tree: 0.797 with this estimator (bench_route quality).
  EXPECT_GT(ours, 0.78);
  EXPECT_GT(ours, sssp + 0.02);
}

TEST(RoutingQuality, NotWorseThanSsspLikeElsewhere) {
  for (const Fabric& f : {testing::make_torus({4, 4, 4}, 2, 0, 5),
                          testing::make_torus({4, 4, 4}, 2), testing::make_random(48, 6, 6, 3)}) {
    const double ours = testing::estimate_ebb(f, route_psssp(f, {}).lfts, 400);
    const double sssp = testing::estimate_ebb(f, route_psssp(f, sssp_like()).lfts, 400);
    EXPECT_GE(ours, sssp - 0.002);
  }
}

// Endpoint affinity (full effort) against plain P-SSSP (fast) on the direct
// topologies where dimension-order routing used to win (psssp-route.md).
TEST(RoutingQuality, EndpointAffinityBeatsPlainOnTori) {
  for (const Fabric& f : {testing::make_torus({4, 4, 4}, 2), testing::make_torus({8, 8}, 4)}) {
    RoutingOptions fast;
    fast.effort = RoutingOptions::Effort::fast;
    fast.order = RoutingOptions::Order::switches;  // plain P-SSSP alone, no port-order candidate
    const double ours = testing::estimate_ebb(f, route_psssp(f, {}).lfts, 400);
    const double plain = testing::estimate_ebb(f, route_psssp(f, fast).lfts, 400);
    EXPECT_GT(ours, plain + 0.01);
  }
}

}  // namespace
}  // namespace psssp
