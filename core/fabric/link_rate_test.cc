// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "link_rate.h"

#include <gtest/gtest.h>

namespace psssp {
namespace {

TEST(LinkRate, ParsesEveryWidthAndSpeed) {
  EXPECT_EQ(LinkRate::parse("4xQDR"), (LinkRate{LinkWidth::x4, LinkSpeed::qdr}));
  EXPECT_EQ(LinkRate::parse("12xEDR"), (LinkRate{LinkWidth::x12, LinkSpeed::edr}));
  EXPECT_EQ(LinkRate::parse("1xSDR"), (LinkRate{LinkWidth::x1, LinkSpeed::sdr}));
  EXPECT_EQ(LinkRate::parse("4xFDR10"), (LinkRate{LinkWidth::x4, LinkSpeed::fdr10}));
  EXPECT_EQ(LinkRate::parse("8xNDR"), (LinkRate{LinkWidth::x8, LinkSpeed::ndr}));
  EXPECT_EQ(LinkRate::parse("4xXDR"), (LinkRate{LinkWidth::x4, LinkSpeed::xdr}));
  EXPECT_DOUBLE_EQ(LinkRate::parse("4xXDR")->gbps(), 800.0);
  EXPECT_EQ(LinkRate::parse("4x??"), (LinkRate{LinkWidth::x4, LinkSpeed::unknown}));
  EXPECT_EQ(LinkRate::parse("??"), LinkRate{});
}

TEST(LinkRate, RejectsMalformed) {
  EXPECT_FALSE(LinkRate::parse("3xQDR"));
  EXPECT_FALSE(LinkRate::parse("4xQQR"));
  EXPECT_FALSE(LinkRate::parse("xQDR"));
  EXPECT_FALSE(LinkRate::parse("4QDR"));
  EXPECT_FALSE(LinkRate::parse(""));
}

TEST(LinkRate, DataRates) {
  EXPECT_DOUBLE_EQ((LinkRate{LinkWidth::x4, LinkSpeed::qdr}).gbps(), 32.0);
  EXPECT_DOUBLE_EQ((LinkRate{LinkWidth::x4, LinkSpeed::edr}).gbps(), 100.0);
  EXPECT_DOUBLE_EQ((LinkRate{LinkWidth::x12, LinkSpeed::sdr}).gbps(), 24.0);
  EXPECT_GT(LinkRate{}.gbps(), 0.0);
}

TEST(LinkRate, PrintsBack) {
  EXPECT_EQ((LinkRate{LinkWidth::x4, LinkSpeed::fdr}).to_string(), "4xFDR");
  EXPECT_EQ((LinkRate{LinkWidth::x4, LinkSpeed::unknown}).to_string(), "4x??");
}

}  // namespace
}  // namespace psssp
