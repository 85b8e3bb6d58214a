// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "link_rate.h"

#include <array>
#include <charconv>

namespace psssp {
namespace {

struct SpeedInfo {
  LinkSpeed speed;
  std::string_view name;
  double lane_gbps;  // per-lane data rate after encoding
};

constexpr std::array<SpeedInfo, 10> kSpeeds{{
    {LinkSpeed::unknown, "??", 8.0},
    {LinkSpeed::sdr, "SDR", 2.0},
    {LinkSpeed::ddr, "DDR", 4.0},
    {LinkSpeed::qdr, "QDR", 8.0},
    {LinkSpeed::fdr10, "FDR10", 10.0},
    {LinkSpeed::fdr, "FDR", 13.64},
    {LinkSpeed::edr, "EDR", 25.0},
    {LinkSpeed::hdr, "HDR", 50.0},
    {LinkSpeed::ndr, "NDR", 100.0},
    {LinkSpeed::xdr, "XDR", 200.0},
}};

bool valid_width(int w) { return w == 1 || w == 2 || w == 4 || w == 8 || w == 12; }

}  // namespace

std::string_view speed_name(LinkSpeed speed) {
  return kSpeeds[static_cast<std::size_t>(speed)].name;
}

std::optional<LinkSpeed> parse_speed(std::string_view name) {
  for (const auto& s : kSpeeds)
    if (s.name == name) return s.speed;
  return std::nullopt;
}

double LinkRate::gbps() const {
  const int lanes = width == LinkWidth::unknown ? 4 : static_cast<int>(width);
  return lanes * kSpeeds[static_cast<std::size_t>(speed)].lane_gbps;
}

std::string LinkRate::to_string() const {
  std::string out = width == LinkWidth::unknown ? "?" : std::to_string(static_cast<int>(width));
  out += 'x';
  out += speed_name(speed);
  return out;
}

std::optional<LinkRate> LinkRate::parse(std::string_view text) {
  if (text == "??") return LinkRate{};
  const auto x = text.find('x');
  if (x == std::string_view::npos || x == 0) return std::nullopt;
  int w = 0;
  const auto width_text = text.substr(0, x);
  const auto [end, ec] =
      std::from_chars(width_text.data(), width_text.data() + width_text.size(), w);
  if (ec != std::errc() || end != width_text.data() + width_text.size() || !valid_width(w))
    return std::nullopt;
  const auto speed = parse_speed(text.substr(x + 1));
  if (!speed) return std::nullopt;
  return LinkRate{static_cast<LinkWidth>(w), *speed};
}

}  // namespace psssp
