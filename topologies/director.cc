// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Director switches as ibnetdiscover sees them: per chassis, line chips
// L01.. (hosts and bundle cables on ports 1..external_ports, internal cables
// above) and fabric chips S01.. (line chip l on ports l*c+1 .. l*c+c, c the
// internal cables per line/fabric pair), chassis joined by cable bundles.
#include <cstdint>
#include <stdexcept>
#include <utility>

#include "builder.h"
#include "families.h"

namespace psssp::topo {
namespace {

constexpr std::size_t kMaxSwitches = 100000;

[[noreturn]] void fail(const std::string& what) {
  throw std::invalid_argument("director: " + what);
}

std::string chip_name(const DirectorParams& p, std::size_t chassis, char kind, std::size_t index) {
  std::string number = std::to_string(index + 1);
  if (number.size() < 2) number.insert(0, "0");
  return "MF0;dir" + std::to_string(chassis + 1) + ":" + p.model + "/" + kind + number + "/U1";
}

// Internal cables between each line chip and each fabric chip.
unsigned check_chips(const DirectorParams& p) {
  if (p.chassis == 0 || p.line_chips == 0 || p.fabric_chips == 0 || p.chip_ports == 0 ||
      p.external_ports == 0)
    fail(
        "--chassis, --line-chips, --fabric-chips, --chip-ports and --external-ports must be "
        "positive");
  if (p.chip_ports > kMaxSwitchPorts)
    fail("--chip-ports " + std::to_string(p.chip_ports) + " exceeds the " +
         std::to_string(kMaxSwitchPorts) + " ports a switch can have");
  if (p.external_ports >= p.chip_ports)
    fail("--external-ports " + std::to_string(p.external_ports) + " leaves no internal port on a " +
         std::to_string(p.chip_ports) + "-port chip");
  const unsigned internal = p.chip_ports - p.external_ports;
  if (internal % p.fabric_chips != 0)
    fail("the " + std::to_string(internal) +
         " internal ports of a line chip (--chip-ports minus --external-ports) do not split "
         "evenly over " +
         std::to_string(p.fabric_chips) + " fabric chips");
  const unsigned cables = internal / p.fabric_chips;
  if (std::size_t{p.line_chips} * cables > p.chip_ports)
    fail("a fabric chip needs " + std::to_string(std::size_t{p.line_chips} * cables) + " ports (" +
         std::to_string(p.line_chips) + " line chips x " + std::to_string(cables) +
         " cables), more than --chip-ports " + std::to_string(p.chip_ports));
  if (std::size_t{p.chassis} * (p.line_chips + p.fabric_chips) > kMaxSwitches)
    fail("more than 100000 switches");
  return cables;
}

// Bundle cables chassis c needs: the most any chassis needs is checked
// before the pairs are listed.
std::size_t bundle_ports(const DirectorParams& p, std::size_t c) {
  const std::size_t n = p.chassis, k = p.bundle;
  if (n < 2) return 0;
  if (p.join == DirectorJoin::mesh) return (n - 1) * k;
  if (p.join == DirectorJoin::ring && n > 2) return 2 * k;
  return (c == 0 || c == n - 1) ? k : 2 * k;
}

// Chassis pairs joined by a bundle. A ring of two chassis is the chain.
std::vector<std::pair<std::size_t, std::size_t>> chassis_pairs(const DirectorParams& p) {
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  const std::size_t n = p.chassis;
  if (p.join == DirectorJoin::mesh) {
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = a + 1; b < n; ++b) pairs.emplace_back(a, b);
    return pairs;
  }
  for (std::size_t a = 0; a + 1 < n; ++a) pairs.emplace_back(a, a + 1);
  if (p.join == DirectorJoin::ring && n > 2) pairs.emplace_back(n - 1, 0);
  return pairs;
}

}  // namespace

TopologySpec director(const DirectorParams& p) {
  const unsigned cables = check_chips(p);
  const std::size_t line_ports = std::size_t{p.line_chips} * p.external_ports;
  if (p.chassis > 1 && p.bundle == 0) fail("--bundle must be positive to join chassis");
  for (std::size_t c = 0; c < p.chassis; ++c)
    if (bundle_ports(p, c) > line_ports)
      fail("chassis dir" + std::to_string(c + 1) + " needs " + std::to_string(bundle_ports(p, c)) +
           " external ports for its bundles (--bundle " + std::to_string(p.bundle) +
           "), its line chips have " + std::to_string(line_ports));

  const std::size_t per_chassis = std::size_t{p.line_chips} + p.fabric_chips;
  auto line = [&](std::size_t c, std::size_t l) { return c * per_chassis + l; };
  auto fabric = [&](std::size_t c, std::size_t f) { return c * per_chassis + p.line_chips + f; };

  // Bundle cables go round-robin over each chassis' line chips.
  std::vector<std::pair<std::size_t, std::size_t>> bundles;
  std::vector<unsigned> trunks(p.chassis * per_chassis, 0);  // bundle cables per line chip
  // Chassis a line chip has bundle cables to: a pair's cables come in one
  // run, so a peer other than the last one is a new one.
  std::vector<std::size_t> peers(trunks.size(), 0), last_peer(trunks.size(), SIZE_MAX);
  auto add_trunk = [&](std::size_t chip, std::size_t peer) {
    ++trunks[chip];
    if (last_peer[chip] != peer) ++peers[chip];
    last_peer[chip] = peer;
  };
  std::vector<std::size_t> next_line(p.chassis, 0);
  for (const auto& [a, b] : chassis_pairs(p))
    for (unsigned k = 0; k < p.bundle; ++k) {
      const std::size_t la = line(a, next_line[a]++ % p.line_chips);
      const std::size_t lb = line(b, next_line[b]++ % p.line_chips);
      add_trunk(la, b);
      add_trunk(lb, a);
      bundles.emplace_back(la, lb);
    }

  TopologySpec spec;
  spec.family = "director";
  for (std::size_t c = 0; c < p.chassis; ++c) {
    for (std::size_t l = 0; l < p.line_chips; ++l) {
      const unsigned left = p.external_ports - trunks[line(c, l)];
      const std::string name = chip_name(p, c, 'L', l);
      if (p.hosts_per_line != DirectorParams::kAllFree && p.hosts_per_line > left)
        fail("--hosts-per-line " + std::to_string(p.hosts_per_line) + " does not fit: line chip " +
             name + " has " + std::to_string(left) + " external ports left after the bundles");
      const unsigned hosts = p.hosts_per_line == DirectorParams::kAllFree ? left : p.hosts_per_line;
      spec.switches.push_back({name, hosts, p.chip_ports - hosts});
    }
    for (std::size_t f = 0; f < p.fabric_chips; ++f)
      spec.switches.push_back({chip_name(p, c, 'S', f), 0, p.chip_ports});
  }
  // Roots for updn. Line chips are one rank below the fabric chips and
  // bundle cables join chips of equal rank, which up*/down* crosses in one
  // direction only: with the fabric chips of all chassis as roots, hosts
  // reach another chassis only where their line chip or the far one has a
  // cable to it. So all fabric chips when every line chip with hosts has a
  // cable to every other chassis, else those of the middle chassis, right
  // above all of its line chips, from where up*/down* reaches everything.
  bool all_fabric_chips = true;
  for (std::size_t i = 0; i < spec.switches.size(); ++i)
    if (spec.switches[i].hosts > 0 && peers[i] + 1 < p.chassis) all_fabric_chips = false;
  for (std::size_t c = 0; c < p.chassis; ++c)
    if (all_fabric_chips || c == (p.chassis - 1) / 2)
      for (std::size_t f = 0; f < p.fabric_chips; ++f) spec.roots.push_back(fabric(c, f));
  // Slots count from the host ports: a line chip's internal cables sit above
  // its external ports, its bundle cables right after its hosts.
  for (std::size_t c = 0; c < p.chassis; ++c)
    for (unsigned l = 0; l < p.line_chips; ++l) {
      const unsigned above = p.external_ports - spec.switches[line(c, l)].hosts;
      for (unsigned f = 0; f < p.fabric_chips; ++f)
        for (unsigned k = 0; k < cables; ++k)
          spec.cables.push_back(
              {line(c, l), fabric(c, f), above + 1 + f * cables + k, l * cables + k + 1});
    }
  std::vector<unsigned> next_slot(trunks.size(), 0);
  for (const auto& [a, b] : bundles) spec.cables.push_back({a, b, ++next_slot[a], ++next_slot[b]});
  return spec;
}

}  // namespace psssp::topo
