// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "dump_fts_gaps.h"

#include <algorithm>
#include <unordered_map>

#include "formats/fabric_io.h"
#include "formats/line_scanner.h"

namespace psssp::sim {
namespace {

constexpr unsigned kLftBlock = 64;      // LIDs per LinearForwardingTable block
constexpr unsigned kSignedPorts = 127;  // the highest port a signed char holds

// The top LID of each switch table with dump_fts's hexadecimal header
// ("Unicast lids [0x0-0xc0] of switch ... guid 0x..."), by switch GUID.
std::unordered_map<Guid, unsigned> dump_fts_tops(const std::string& path) {
  std::unordered_map<Guid, unsigned> tops;
  const std::string text = read_file(path);
  formats::LineScanner lines(text);
  std::string_view line;
  while (lines.next(line)) {
    formats::Cursor c(formats::trim(line));
    if (!c.consume("Unicast lids [")) continue;
    if (!c.hex_0x(0xFFFF) || !c.consume('-')) continue;
    const auto top = c.hex_0x(0xFFFF);
    if (!top || !c.consume(']')) continue;
    const auto at = c.rest().find(" guid 0x");
    if (at == std::string_view::npos) continue;
    formats::Cursor g(c.rest().substr(at + 6));
    if (const auto guid = g.hex_0x()) tops[*guid] = static_cast<unsigned>(*top);
  }
  return tops;
}

std::string count(std::uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

DumpFtsGaps find_dump_fts_gaps(const Fabric& fabric, const CheckReport& report,
                               const std::string& routes) {
  DumpFtsGaps gaps;
  if (report.holes.empty()) return gaps;
  const auto tops = dump_fts_tops(routes);
  if (tops.empty()) return gaps;
  std::vector<Lid> top_lids;
  for (const CheckReport::Hole& h : report.holes) {
    const Node& sw = fabric.node(h.sw);
    const auto top = tops.find(sw.guid);
    if (top != tops.end() && top->second % kLftBlock == 0 && h.lid == top->second) {
      ++gaps.top_lid_entries;
      if (std::find(top_lids.begin(), top_lids.end(), h.lid) == top_lids.end())
        top_lids.push_back(h.lid);
    } else if (sw.num_ports() > kSignedPorts) {
      ++gaps.wide_port_entries;
    } else {
      return DumpFtsGaps{};  // a black hole dump_fts does not explain
    }
    gaps.pairs += h.pairs;
  }
  std::string what;
  if (gaps.top_lid_entries) {
    std::string lids;
    for (const Lid l : top_lids) lids += (lids.empty() ? "" : ", ") + std::to_string(l);
    what = count(gaps.top_lid_entries, "entry", "entries") + " at the switches' top LID (" + lids +
           ", a multiple of 64: dump_fts stops before that LID's block)";
  }
  if (gaps.wide_port_entries) {
    if (!what.empty()) what += " and ";
    what += count(gaps.wide_port_entries, "entry", "entries") +
            " on switches with more than 127 ports (dump_fts of infiniband-diags up to 62 "
            "reads ports above 127 as illegal and leaves them out)";
  }
  gaps.message = "dump_fts dropped " + what + "; the " + count(gaps.pairs, "pair", "pairs") +
                 " failing there may well be routed. Read the tables completely: OpenSM's "
                 "opensm-lfts.dump (written with log flag 0x40, e.g. opensm -D 0x43), or "
                 "dump_fts -a plus each top LID's block read with smpdump (as "
                 "check-fabric's read-back does)";
  return gaps;
}

}  // namespace psssp::sim
