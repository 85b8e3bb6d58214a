// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// apply_lid_file: the LIDs OpenSM really assigned, from its opensm-subnet.lst
// dump or its guid2lid cache ("0x<port guid> 0x<first lid> 0x<last lid>").
#include <unordered_map>

#include "fabric_io.h"
#include "line_scanner.h"
#include "readers.h"

namespace psssp {
namespace {

struct LidRange {
  Lid lid = 0;
  std::uint8_t lmc = 0;
  bool has_lmc = false;
};

std::unordered_map<Guid, LidRange> read_guid2lid(std::string_view content,
                                                 const std::string& source) {
  std::unordered_map<Guid, LidRange> out;
  formats::LineScanner lines(content);
  std::string_view line;
  while (lines.next(line)) {
    const std::string_view t = formats::trim(line);
    if (t.empty() || t[0] == '#') continue;
    formats::Cursor c(t);
    const auto guid = c.hex_0x();
    c.skip_space();
    const auto first = c.number(kMaxUnicastLid);
    c.skip_space();
    const auto last = c.number(kMaxUnicastLid);
    c.skip_space();
    if (!guid || !first || !last || !c.at_end())
      formats::fail(source, lines.line_number(), "expected \"0xGUID LID LID\"", t);
    if (*guid == 0 || *first == 0 || *last < *first)
      formats::fail(source, lines.line_number(), "bad GUID or LID range", t);
    const auto count = *last - *first + 1;
    std::uint8_t lmc = 0;
    while ((1u << lmc) < count) ++lmc;
    if ((1u << lmc) != count || lmc > 7 || (*first & (count - 1)) != 0)
      formats::fail(source, lines.line_number(), "LID range is not an aligned LMC block", t);
    if (!out.emplace(*guid, LidRange{static_cast<Lid>(*first), lmc, true}).second)
      formats::fail(source, lines.line_number(), "port GUID listed twice", t);
  }
  return out;
}

std::unordered_map<Guid, LidRange> read_subnet_lst_lids(std::string_view content,
                                                        const std::string& source) {
  const Fabric lst = formats::parse_subnet_lst(content, source);
  std::unordered_map<Guid, LidRange> out;
  for (const Node& n : lst.nodes())
    for (PortNum p = 0; p < n.ports.size(); ++p)
      if (n.ports[p].guid && n.ports[p].lid && (p != 0 || n.is_switch()))
        out.emplace(n.ports[p].guid, LidRange{n.ports[p].lid, 0, false});
  return out;
}

}  // namespace

void apply_lid_file(Fabric& fabric, const std::string& path) {
  const std::string content = read_file(path);
  const std::string first_line = content.substr(0, content.find('\n'));
  const std::string_view first = formats::trim(first_line);
  const auto lids = formats::starts_with(first, "{") ? read_subnet_lst_lids(content, path)
                                                     : read_guid2lid(content, path);
  // The file is the authority: a LID the fabric file guessed must not clash
  // with one the file assigns, so every LID is replaced.
  std::size_t matched = 0;
  for (NodeId id = 0; id < fabric.node_count(); ++id) {
    Node& n = fabric.node(id);
    for (PortNum p = 0; p < n.ports.size(); ++p) {
      Port& port = n.ports[p];
      const bool lid_port = n.is_switch() ? p == 0 : p != 0;
      const auto it = lid_port && port.guid ? lids.find(port.guid) : lids.end();
      if (it == lids.end()) {
        port.lid = 0;
        continue;
      }
      port.lid = it->second.lid;
      if (it->second.has_lmc) port.lmc = it->second.lmc;
      ++matched;
    }
  }
  if (matched < lids.size())
    fabric.warnings.push_back(path + ": " + std::to_string(lids.size() - matched) +
                              " port GUIDs are not in the fabric");
  try {
    fabric.index();
  } catch (const FabricError& e) {
    throw InputError(path + ": " + e.what());
  }
  check_lid_alignment(fabric, path);
  std::size_t missing = 0;
  for (const Node& n : fabric.nodes())
    for (PortNum p = 1; p < n.ports.size(); ++p)
      if (!n.is_switch() && n.ports[p].connected() && n.ports[p].lid == 0) ++missing;
  if (missing)
    fabric.warnings.push_back(path + ": " + std::to_string(missing) +
                              " cabled CA ports have no LID in this file");
}

}  // namespace psssp
