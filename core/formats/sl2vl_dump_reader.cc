// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Reader of opensm-sl2vl.dump; the format is described in sl2vl_dump_reader.h.
#include "sl2vl_dump_reader.h"

#include <optional>

#include "formats/fabric_io.h"
#include "formats/line_scanner.h"

namespace psssp {
namespace {

using formats::excerpt;
using formats::fail;
using formats::parse_number;
using formats::split_words;

struct Block {
  NodeId node = kNoNode;
  bool is_switch = false;
};

// "Switch 0x0002c90000000001, base LID 1, \"desc\"" -> the node.
Block parse_header(std::string_view line, const std::string& source, std::size_t number,
                   const Fabric& fabric) {
  const auto at = line.find(" 0x");
  if (at == std::string_view::npos) fail(source, number, "expected a port header", line);
  const std::string_view type = line.substr(0, at);
  if (type != "Switch" && type != "Channel Adapter" && type != "Router")
    fail(source, number, "unknown node type \"" + excerpt(type) + "\"", line);
  const auto comma = line.find(',', at);
  if (comma == std::string_view::npos) fail(source, number, "expected ',' after the GUID", line);
  const auto guid = parse_number(line.substr(at + 1, comma - at - 1), UINT64_MAX);
  if (!guid) fail(source, number, "bad port GUID", line);
  if (line.substr(comma, 11) != ", base LID ")
    fail(source, number, "expected \", base LID\" after the GUID", line);
  Block block;
  if (const auto port = fabric.find_port_by_guid(*guid)) {
    block.node = port->node;
  } else if (const auto node = fabric.find_by_guid(*guid)) {
    block.node = *node;
  } else {
    fail(source, number, "no port with GUID " + std::string(line.substr(at + 1, comma - at - 1)),
         line);
  }
  block.is_switch = fabric.node(block.node).is_switch();
  if (block.is_switch != (type == "Switch"))
    fail(source, number, "node type does not match the fabric's", line);
  return block;
}

}  // namespace

Sl2VlTables parse_sl2vl_dump(std::string_view content, const std::string& source,
                             const Fabric& fabric) {
  Sl2VlTables tables;
  std::optional<Block> block;
  formats::LineScanner lines(content);
  std::string_view line;
  while (lines.next(line)) {
    const std::size_t number = lines.line_number();
    const std::string_view text = formats::strip_comment(line);
    if (line.find_first_not_of(" \t") == std::string_view::npos ||
        line[line.find_first_not_of(" \t")] == '#')
      continue;
    if (text.find(" 0x") != std::string_view::npos) {
      block = parse_header(line, source, number, fabric);
      continue;
    }
    if (!block) fail(source, number, "table row before any port header", line);
    const auto colon = text.find(':');
    if (colon == std::string_view::npos) fail(source, number, "expected \"in out : VLs\"", line);
    const auto ports = split_words(text.substr(0, colon));
    const auto vls = split_words(text.substr(colon + 1));
    if (ports.size() != 2) fail(source, number, "expected an in port and an out port", line);
    if (vls.size() != kSlCount) fail(source, number, "expected 16 VLs", line);
    const Node& node = fabric.node(block->node);
    const auto in = parse_number(ports[0], node.num_ports());
    const auto out = parse_number(ports[1], node.num_ports());
    if (!in || !out)
      fail(source, number,
           "port outside 0.." + std::to_string(node.num_ports()) + " of " +
               describe_node(fabric, block->node),
           line);
    if (!block->is_switch && (*in != 0 || *out != 0))
      fail(source, number, "a CA or router block has only the \"0 0\" row", line);
    SlVlMap map{};
    for (unsigned sl = 0; sl < kSlCount; ++sl) {
      const auto vl = parse_number(vls[sl], kVlCount - 1);
      if (!vl) fail(source, number, "VL outside 0..15 for SL " + std::to_string(sl), line);
      map[sl] = static_cast<std::uint8_t>(*vl);
    }
    if (block->is_switch)
      tables.set(fabric, block->node, static_cast<PortNum>(*in), static_cast<PortNum>(*out), map);
  }
  return tables;
}

Sl2VlTables read_sl2vl_dump(const std::string& path, const Fabric& fabric) {
  return parse_sl2vl_dump(read_file(path), path, fabric);
}

}  // namespace psssp
