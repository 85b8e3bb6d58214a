// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "side_files.h"

#include <gtest/gtest.h>

#include <sstream>

#include "builder.h"
#include "families.h"

namespace psssp::topo {
namespace {

TEST(SideFiles, RootGuidsAreTheTopSwitches) {
  const TopologySpec spec = kary_ntree(2, 3, 2);
  const Fabric f = build_fabric(spec);
  std::ostringstream out;
  write_root_guids(out, f, spec);
  EXPECT_EQ(out.str(),
            "0x5053570000000008\n0x5053570000000009\n0x505357000000000a\n0x505357000000000b\n");
  EXPECT_EQ(f.node(8).name, "core-0");
  const TopologySpec torus = grid({3, 3}, true, 1);
  EXPECT_THROW(write_root_guids(out, build_fabric(torus), torus), std::invalid_argument);
}

TEST(SideFiles, TorusConfSeedsEveryDimension) {
  const TopologySpec spec = grid({4, 3}, true, 2);
  const Fabric f = build_fabric(spec);
  std::ostringstream out;
  write_torus_conf(out, f, spec);
  const std::string text = out.str();
  EXPECT_NE(text.find("\ntorus 4 3 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("xp_link 0x5053570000000000 0x5053570000000001\n"), std::string::npos);
  EXPECT_NE(text.find("xm_link 0x5053570000000000 0x5053570000000003\n"), std::string::npos);
  EXPECT_NE(text.find("yp_link 0x5053570000000000 0x5053570000000004\n"), std::string::npos);
  EXPECT_NE(text.find("ym_link 0x5053570000000000 0x5053570000000008\n"), std::string::npos);
  const TopologySpec mesh = grid({2, 2, 2, 2}, false, 1);
  EXPECT_THROW(write_torus_conf(out, build_fabric(mesh), mesh), std::invalid_argument);
}

}  // namespace
}  // namespace psssp::topo
