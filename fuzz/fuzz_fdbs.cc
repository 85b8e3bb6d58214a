// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Fuzzes the opensm.fdbs reader bound to a real captured fabric (LMC 2).
// What it accepts must survive write_lfts and a parse of that unchanged.
#include <cstdlib>
#include <sstream>

#include "formats/lft_io.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  testdata_fabric("tree2-lmc2.ibnetdiscover");  // read before the first input
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const psssp::Fabric* fabric = &testdata_fabric("tree2-lmc2.ibnetdiscover");
  expect_clean([&] {
    const psssp::ForwardingTables tables = psssp::parse_fdbs(as_text(data, size), "fuzz", *fabric);
    std::ostringstream out;
    psssp::write_lfts(out, *fabric, tables);
    if (!(psssp::parse_lfts(out.str(), "written", *fabric) == tables)) std::abort();
  });
  return 0;
}
