// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Fuzzes the subnet_lst reader, then indexes what it accepted.
#include "fuzz_common.h"
#include "readers.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  expect_clean([&] {
    psssp::Fabric fabric = psssp::formats::parse_subnet_lst(as_text(data, size), "fuzz");
    fabric.index();
  });
  return 0;
}
