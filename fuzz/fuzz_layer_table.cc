// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Fuzzes the layer table reader bound to a real captured fabric (two
// switches, LIDs 1..6). What it accepts must survive write_layer_table and a
// second parse unchanged, and answer every lookup with a layer of 0..15.
#include <cstdlib>
#include <sstream>

#include "formats/layer_table_io.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  testdata_fabric("2sw2path4hca.ibnetdiscover");  // read before the first input
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const psssp::Fabric* fabric = &testdata_fabric("2sw2path4hca.ibnetdiscover");
  expect_clean([&] {
    const psssp::LayerTable table = psssp::parse_layer_table(as_text(data, size), "fuzz", *fabric);
    for (unsigned slid = 0; slid <= table.lid_count(); ++slid)
      for (unsigned dlid = 0; dlid <= table.lid_count(); ++dlid)
        if (table.layer(static_cast<psssp::Lid>(slid), static_cast<psssp::Lid>(dlid)) >=
            psssp::kSlCount)
          std::abort();
    std::ostringstream out;
    psssp::write_layer_table(out, *fabric, table);
    if (!(psssp::parse_layer_table(out.str(), "written", *fabric) == table)) std::abort();
  });
  return 0;
}
