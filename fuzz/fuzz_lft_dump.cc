// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Fuzzes the LFT dump reader bound to a real captured fabric (LMC 2); what it
// accepts must survive write_lfts and a second parse unchanged.
#include "fuzz_common.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  testdata_fabric(kLftFabric);  // read before the first input
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  expect_lft_round_trip(
      [](std::string_view text, const char* source, const psssp::Fabric& fabric) {
        return psssp::parse_lfts(text, source, fabric);
      },
      data, size);
  return 0;
}
