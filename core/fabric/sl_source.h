// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Where a route's service level comes from: the checker asks an SlSource for
// the SL of (source LID, destination LID). Implementations: UniformSl (one SL
// for everything), SlFile (a path-record style table) and LayerTable (the
// engine's virtual layers).
#pragma once

#include <cstdint>

#include "fabric.h"

namespace psssp {

constexpr unsigned kSlCount = 16;
constexpr unsigned kVlCount = 16;

class SlSource {
 public:
  virtual ~SlSource() = default;
  // The SL of the route from `slid` to `dlid` (0..15). Must be thread-safe.
  virtual std::uint8_t sl(Lid slid, Lid dlid) const = 0;
  // True when the SL depends only on the source switch and the destination,
  // so the checker may ask once per switch instead of once per source LID.
  virtual bool by_source_switch() const { return false; }
};

class UniformSl : public SlSource {
 public:
  explicit UniformSl(std::uint8_t sl = 0) : sl_(sl) {}
  std::uint8_t sl(Lid, Lid) const override { return sl_; }
  bool by_source_switch() const override { return true; }

 private:
  std::uint8_t sl_;
};

}  // namespace psssp
