// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Fuzzes the ibsim net reader (includes disabled: no file access), then
// indexes what it accepted.
#include "fuzz_common.h"
#include "readers.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  expect_clean([&] {
    psssp::Fabric fabric =
        psssp::formats::parse_ibsim_net(as_text(data, size), "fuzz", /*allow_include=*/false);
    fabric.index();
  });
  return 0;
}
