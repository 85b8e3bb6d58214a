// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Link width and speed of an InfiniBand cable, and the data rate they give.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace psssp {

enum class LinkWidth : std::uint8_t { unknown = 0, x1 = 1, x2 = 2, x4 = 4, x8 = 8, x12 = 12 };

enum class LinkSpeed : std::uint8_t { unknown, sdr, ddr, qdr, fdr10, fdr, edr, hdr, ndr, xdr };

struct LinkRate {
  LinkWidth width = LinkWidth::unknown;
  LinkSpeed speed = LinkSpeed::unknown;

  // Data rate in Gb/s after line encoding (4xQDR = 32). Unknown width or
  // speed count as 4x and QDR, the most common values, so that capacity
  // arithmetic never divides by zero.
  double gbps() const;
  // "4xQDR"; unknown parts print as "?" ("4x??" for an unknown speed).
  std::string to_string() const;
  // Parses "4xQDR", "12xEDR", "4x??", "??". Returns nullopt on anything else.
  static std::optional<LinkRate> parse(std::string_view text);

  bool operator==(const LinkRate& o) const { return width == o.width && speed == o.speed; }
  bool operator!=(const LinkRate& o) const { return !(*this == o); }
};

std::string_view speed_name(LinkSpeed speed);  // "QDR", "??" for unknown
std::optional<LinkSpeed> parse_speed(std::string_view name);

}  // namespace psssp
