// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Text form of LayerTable; the format is described in layer_table_io.h.
#include "layer_table_io.h"

#include <algorithm>
#include <ostream>

#include "formats/fabric_io.h"
#include "formats/line_scanner.h"

namespace psssp {
namespace {

using formats::parse_number;

constexpr char kDigits[] = "0123456789abcdef";

std::vector<NodeId> switches_by_guid(const Fabric& fabric) {
  std::vector<NodeId> order = fabric.switches();
  std::stable_sort(order.begin(), order.end(),
                   [&](NodeId a, NodeId b) { return fabric.node(a).guid < fabric.node(b).guid; });
  return order;
}

}  // namespace

void write_layer_table(std::ostream& out, const Fabric& fabric, const LayerTable& table) {
  out << "psssp-layers 1\n";
  out << "layers " << table.layers_used() << " lids " << table.lid_count() << "\n";
  std::string row(table.lid_count(), '0');
  for (NodeId sw : switches_by_guid(fabric)) {
    if (!table.has_switch(sw)) continue;
    bool any = false;
    for (std::size_t lid = 0; lid < table.lid_count(); ++lid) {
      const std::uint8_t layer = table.get(sw, static_cast<Lid>(lid));
      row[lid] = kDigits[layer & 15];
      any = any || layer != 0;
    }
    if (!any) continue;  // missing rows read back as layer 0
    out << "switch " << formats::guid_string(fabric.node(sw).guid) << ' ' << row << '\n';
  }
}

LayerTable parse_layer_table(std::string_view content, const std::string& source,
                             const Fabric& fabric) {
  LayerTable table(fabric);
  std::vector<bool> seen(fabric.node_count(), false);
  unsigned layers = 0;
  int header = 0;  // header lines read so far
  formats::LineScanner lines(content);
  std::string_view line;
  while (lines.next(line)) {
    const std::string_view text = formats::strip_comment(line);
    if (text.empty()) continue;
    auto bad = [&](const std::string& what) {
      formats::fail(source, lines.line_number(), what, line);
    };
    const auto fields = formats::split_words(text);
    if (header == 0) {
      if (fields.size() != 2 || fields[0] != "psssp-layers")
        bad("expected the \"psssp-layers 1\" header");
      if (fields[1] != "1") bad("unsupported layer table version");
      header = 1;
      continue;
    }
    if (header == 1) {
      if (fields.size() != 4 || fields[0] != "layers" || fields[2] != "lids")
        bad("expected \"layers L lids N\"");
      const auto l = parse_number(fields[1], kSlCount);
      if (!l || *l == 0) bad("layer count not in 1..16");
      const auto n = parse_number(fields[3], UINT32_MAX);
      if (!n) bad("bad LID count");
      if (*n != table.lid_count())
        bad("table has " + std::to_string(*n) + " LIDs, the fabric " +
            std::to_string(table.lid_count()) + " (max LID + 1)");
      layers = static_cast<unsigned>(*l);
      header = 2;
      continue;
    }
    if (fields.size() != 3 || fields[0] != "switch") bad("expected \"switch GUID LAYERS\"");
    const auto guid = parse_number(fields[1], UINT64_MAX);
    if (!guid) bad("bad switch GUID");
    const auto sw = fabric.find_by_guid(*guid);
    if (!sw || !fabric.node(*sw).is_switch()) bad("no switch with this GUID in the fabric");
    if (seen[*sw]) bad("second row for this switch");
    seen[*sw] = true;
    const std::string_view row = fields[2];
    if (row.size() != table.lid_count())
      bad("row has " + std::to_string(row.size()) + " layers, expected " +
          std::to_string(table.lid_count()));
    for (std::size_t lid = 0; lid < row.size(); ++lid) {
      const char c = row[lid];
      const int layer = c >= '0' && c <= '9'   ? c - '0'
                        : c >= 'a' && c <= 'f' ? c - 'a' + 10
                        : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                               : -1;
      if (layer < 0 || static_cast<unsigned>(layer) >= layers)
        bad("LID " + std::to_string(lid) + ": layer '" + std::string(1, row[lid]) + "' not in 0.." +
            std::to_string(layers - 1));
      table.set(*sw, static_cast<Lid>(lid), static_cast<std::uint8_t>(layer));
    }
  }
  if (header < 2)
    throw InputError(source, lines.line_number(), "missing \"psssp-layers 1\" / \"layers\" header");
  return table;
}

LayerTable read_layer_table(const std::string& path, const Fabric& fabric) {
  return parse_layer_table(read_file(path), path, fabric);
}

}  // namespace psssp
