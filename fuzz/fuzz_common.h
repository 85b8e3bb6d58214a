// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Shared by the fuzz targets: what counts as an expected failure. Input
// errors and model errors are the readers' normal answers to bad input;
// anything else (a crash, a sanitizer report, another exception) is a bug.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

#include "fabric/fabric.h"
#include "formats/fabric_io.h"
#include "formats/lft_io.h"

template <typename F>
void expect_clean(F&& f) {
  try {
    f();
  } catch (const psssp::InputError&) {
  } catch (const psssp::FabricError&) {
  }
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A captured fabric from core/formats/testdata, read once, for the readers
// that are bound to a fabric (LFT dumps, SL-to-VL dumps, layer tables); one
// fabric per fuzz target: later calls return the first one read.
inline const psssp::Fabric& testdata_fabric(const char* name) {
  static const psssp::Fabric fabric =
      psssp::read_fabric(std::string(PSSSP_SOURCE_DIR "/core/formats/testdata/") + name);
  return fabric;
}

// The captured fabric the LFT readers' targets are bound to (LMC 2).
constexpr const char* kLftFabric = "tree2-lmc2.ibnetdiscover";

// What an LFT reader (`parse`: text, source, fabric -> tables) accepts must
// survive write_lfts and a parse of that with parse_lfts unchanged.
template <typename Parse>
void expect_lft_round_trip(Parse&& parse, const std::uint8_t* data, std::size_t size) {
  const psssp::Fabric& fabric = testdata_fabric(kLftFabric);
  expect_clean([&] {
    const psssp::ForwardingTables tables = parse(as_text(data, size), "fuzz", fabric);
    std::ostringstream out;
    psssp::write_lfts(out, fabric, tables);
    if (!(psssp::parse_lfts(out.str(), "written", fabric) == tables)) std::abort();
  });
}
