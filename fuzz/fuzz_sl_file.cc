// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Fuzzes the SL file reader. What it accepts must answer every lookup with
// an SL of 0..15, and the default for routes it does not list.
#include <cstdlib>

#include "formats/sl_file_reader.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  expect_clean([&] {
    const psssp::SlFile sls = psssp::parse_sl_file(as_text(data, size), "fuzz", 9);
    if (sls.size() > size) std::abort();  // at least 5 bytes a route
    const psssp::Lid lids[] = {0, 1, 2, 11, 16, 0xBFFF, 0xC000, 0xFFFF};
    for (psssp::Lid slid : lids)
      for (psssp::Lid dlid : lids) {
        const std::uint8_t sl = sls.sl(slid, dlid);
        if (sl >= psssp::kSlCount) std::abort();
        // LID 0 and LIDs above 0xBFFF are never listed.
        const bool listable = slid != 0 && dlid != 0 && slid <= 0xBFFF && dlid <= 0xBFFF;
        if (!listable && sl != 9) std::abort();
      }
  });
  return 0;
}
