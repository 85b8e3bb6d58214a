// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "guid_list.h"

#include <gtest/gtest.h>

#include "fabric_io.h"

namespace psssp {
namespace {

TEST(GuidList, ReadsOpenSmStyleLists) {
  const auto guids = parse_guid_list(
      "# compute nodes\n0002c903000e0b72\n0x0002C903000E0B73  # with prefix\n\n  ff\r\n", "cn");
  EXPECT_EQ(guids, (std::vector<Guid>{0x0002c903000e0b72, 0x0002c903000e0b73, 0xff}));
}

TEST(GuidList, RejectsMalformedLinesWithFileAndLine) {
  for (const char* bad : {"0x12\nnot-a-guid\n", "0x12\n0x\n", "0x12\n0\n", "0x12\n12 34\n",
                          "0x12\n00000000000000001\n"}) {
    try {
      parse_guid_list(bad, "cn");
      FAIL() << "accepted: " << bad;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("cn:2: not a GUID: '", 0), 0u) << e.what();
    }
  }
}

}  // namespace
}  // namespace psssp
