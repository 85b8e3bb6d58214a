// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Fuzzes the opensm-sl2vl.dump reader bound to a real captured fabric (two
// switches, four HCAs). What it accepts must map every (switch, in port,
// out port, SL) to a VL of 0..15.
#include <cstdlib>

#include "formats/sl2vl_dump_reader.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  testdata_fabric("2sw2path4hca.ibnetdiscover");  // read before the first input
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const psssp::Fabric* fabric = &testdata_fabric("2sw2path4hca.ibnetdiscover");
  expect_clean([&] {
    const psssp::Sl2VlTables tables = psssp::parse_sl2vl_dump(as_text(data, size), "fuzz", *fabric);
    for (psssp::NodeId sw : fabric->switches()) {
      const auto ports = static_cast<unsigned>(fabric->node(sw).num_ports());
      for (unsigned in = 0; in <= ports; ++in)
        for (unsigned out = 0; out <= ports; ++out)
          for (unsigned sl = 0; sl < psssp::kSlCount; ++sl)
            if (tables.vl(sw, static_cast<psssp::PortNum>(in), static_cast<psssp::PortNum>(out),
                          static_cast<std::uint8_t>(sl)) >= psssp::kVlCount)
              std::abort();
    }
  });
  return 0;
}
