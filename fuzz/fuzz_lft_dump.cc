// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Fuzzes the LFT dump reader bound to a real captured fabric (LMC 2). What
// it accepts must survive write_lfts and a second parse unchanged.
#include <cstdlib>
#include <memory>
#include <sstream>

#include "formats/lft_io.h"
#include "fuzz_common.h"

namespace {
std::unique_ptr<psssp::Fabric> fabric;
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fabric = std::make_unique<psssp::Fabric>(
      psssp::read_fabric(PSSSP_SOURCE_DIR "/core/formats/testdata/tree2-lmc2.ibnetdiscover"));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  expect_clean([&] {
    const psssp::ForwardingTables tables = psssp::parse_lfts(as_text(data, size), "fuzz", *fabric);
    std::ostringstream out;
    psssp::write_lfts(out, *fabric, tables);
    if (!(psssp::parse_lfts(out.str(), "written", *fabric) == tables)) std::abort();
  });
  return 0;
}
