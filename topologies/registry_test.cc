// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "registry.h"

#include <gtest/gtest.h>

#include "builder.h"

namespace psssp::topo {
namespace {

using Map = std::map<std::string, std::string>;

TEST(Registry, OptionsReachTheFamily) {
  Params p(Map{{"dims", "8x8"}, {"hosts-per-switch", "4"}});
  const TopologySpec spec = generate("torus", p);
  EXPECT_EQ(spec.switches.size(), 64u);
  EXPECT_EQ(spec.switches[0].hosts, 4u);
}

TEST(Registry, UnknownFamilyOrOptionIsAnError) {
  Params p;
  EXPECT_THROW(generate("butterfly", p), std::invalid_argument);
  Params typo(Map{{"dim", "8x8"}});
  EXPECT_THROW(generate("torus", typo), std::invalid_argument);
  Params bad(Map{{"k", "four"}});
  EXPECT_THROW(generate("kary-ntree", bad), std::invalid_argument);
}

// psssp-topo offers a family exactly the options its maker reads.
TEST(Registry, KeysAreTheOptionsEachFamilyReads) {
  for (const FamilyInfo& f : families()) {
    Params p;
    f.make(p);
    std::set<std::string> used = p.used();
    used.erase("seed");  // a global option of psssp-topo
    EXPECT_EQ(used, std::set<std::string>(f.keys.begin(), f.keys.end())) << f.name;
  }
}

TEST(Registry, SeedChangesRandomRegular) {
  Params a(Map{{"seed", "1"}}), b(Map{{"seed", "2"}});
  EXPECT_NE(build_fabric(generate("random-regular", a)).node(0).ports[2].remote,
            build_fabric(generate("random-regular", b)).node(0).ports[2].remote);
}

}  // namespace
}  // namespace psssp::topo
