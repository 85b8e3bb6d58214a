// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Reader for OpenSM's opensm-subnet.lst: one line per cabled port, from the
// port's end, e.g.
//   { CA Ports:02 SystemGUID:... NodeGUID:... PortGUID:... VenID:000000
//     DevID:0000 Rev:000000A1 {Hca1} LID:0002 PN:01 } { SW-SM Ports:08 ...
//     {Switch1} LID:0001 PN:01 } PHY=4x LOG=ACT SPD=2.5
// (one line). Nodes are named like ibnetdiscover ids ("S-<guid>", "H-<guid>").
// The file has no LMC; a switch's LID is its port 0's.
#include <cinttypes>
#include <cstdio>
#include <unordered_map>

#include "line_scanner.h"
#include "node_records.h"
#include "readers.h"

namespace psssp::formats {
namespace {

struct PortEnd {
  NodeType type = NodeType::ca;
  PortNum num_ports = 0;
  Guid system_guid = 0, node_guid = 0, port_guid = 0;
  std::string description;
  Lid lid = 0;
  PortNum port = 0;
};

class SubnetLstReader {
 public:
  SubnetLstReader(std::string_view content, const std::string& source)
      : content_(content), source_(source) {}

  Fabric read() {
    LineScanner lines(content_);
    std::string_view line;
    while (lines.next(line)) {
      where_ = Where{&source_, lines.line_number(), std::string(line)};
      if (trim(line).empty()) continue;
      Cursor c(line);
      const PortEnd a = end(c);
      const PortEnd b = end(c);
      const Link link = tail(c);
      const NodeId na = node_for(a);
      const NodeId nb = node_for(b);
      if (a.port > fabric_.node(na).num_ports()) error("port number beyond the node's port count");
      if (b.port > fabric_.node(nb).num_ports())
        error("remote port number beyond the node's port count");
      set_port(na, a);
      set_port(nb, b);
      try {
        fabric_.connect(PortRef{na, a.port}, PortRef{nb, b.port}, link.rate);
      } catch (const FabricError& e) {
        error(std::string("inconsistent link ends: ") + e.what());
      }
      // A down link is still cabled but carries no routes.
      if (!link.up) {
        fabric_.port(PortRef{na, a.port}).healthy = false;
        fabric_.port(PortRef{nb, b.port}).healthy = false;
      }
    }
    if (fabric_.node_count() == 0) throw InputError(source_, lines.line_number(), "no links found");
    return std::move(fabric_);
  }

 private:
  struct Link {
    LinkRate rate;
    bool up = true;
  };

  [[noreturn]] void error(const std::string& message) { fail_at(where_, message); }

  std::uint64_t field(Cursor& c, std::string_view name, std::uint64_t max) {
    c.skip_space();
    if (!c.consume(name) || !c.consume(':')) error("missing " + std::string(name) + ":");
    const auto v = c.hex_digits(max);
    if (!v || (!c.at_end() && !is_space(c.peek()))) error("bad " + std::string(name) + " value");
    return *v;
  }

  PortEnd end(Cursor& c) {
    PortEnd e;
    c.skip_space();
    if (!c.consume('{')) error("expected '{' opening a port");
    c.skip_space();
    const std::string_view type = c.word();
    if (type == "SW" || type == "SW-SM")
      e.type = NodeType::switch_node;
    else if (type == "CA" || type == "CA-SM")
      e.type = NodeType::ca;
    else if (type == "Rt" || type == "Rt-SM")
      e.type = NodeType::router;
    else
      error("unknown node type \"" + excerpt(type) + "\"");
    const auto ports = field(c, "Ports", 0xFF);
    if (ports < 1 || ports > kMaxPorts) error("port count outside 1..254");
    e.num_ports = static_cast<PortNum>(ports);
    e.system_guid = field(c, "SystemGUID", UINT64_MAX);
    e.node_guid = field(c, "NodeGUID", UINT64_MAX);
    e.port_guid = field(c, "PortGUID", UINT64_MAX);
    if (e.node_guid == 0 || e.port_guid == 0) error("zero GUID");
    field(c, "VenID", UINT64_MAX);
    field(c, "DevID", UINT64_MAX);
    field(c, "Rev", UINT64_MAX);
    c.skip_space();
    // The description may hold braces: it ends at the last "} LID:" of this port.
    if (!c.consume('{')) error("missing {node description}");
    const std::string_view rest = c.rest();
    const auto close = rest.find("} LID:");
    if (close == std::string_view::npos) error("unterminated {node description}");
    e.description = std::string(rest.substr(0, close));
    c.skip(close + 1);
    const auto lid = field(c, "LID", 0xFFFF);
    if (lid > kMaxUnicastLid) error("LID outside the unicast range");
    e.lid = static_cast<Lid>(lid);
    const auto pn = field(c, "PN", 0xFF);
    if (pn < 1 || pn > kMaxPorts) error("port number outside 1..254");
    e.port = static_cast<PortNum>(pn);
    c.skip_space();
    if (!c.consume('}')) error("expected '}' closing a port");
    return e;
  }

  Link tail(Cursor& c) {
    Link link;
    c.skip_space();
    if (!c.consume("PHY=")) error("missing PHY=");
    const std::string_view phy = c.word();
    c.skip_space();
    if (!c.consume("LOG=")) error("missing LOG=");
    const std::string_view log = c.word();
    c.skip_space();
    if (!c.consume("SPD=")) error("missing SPD=");
    const std::string_view spd = c.word();
    static const std::unordered_map<std::string_view, LinkWidth> kWidths{
        {"1x", LinkWidth::x1}, {"2x", LinkWidth::x2},   {"4x", LinkWidth::x4},
        {"8x", LinkWidth::x8}, {"12x", LinkWidth::x12}, {"??", LinkWidth::unknown}};
    // OpenSM prints the active speed in Gb/s per lane, or FDR10.
    static const std::unordered_map<std::string_view, LinkSpeed> kSpeeds{
        {"2.5", LinkSpeed::sdr}, {"5", LinkSpeed::ddr},       {"10", LinkSpeed::qdr},
        {"14", LinkSpeed::fdr},  {"FDR10", LinkSpeed::fdr10}, {"25", LinkSpeed::edr},
        {"50", LinkSpeed::hdr},  {"100", LinkSpeed::ndr},     {"??", LinkSpeed::unknown}};
    const auto w = kWidths.find(phy);
    if (w == kWidths.end()) error("bad PHY width \"" + excerpt(phy) + "\"");
    const auto s = kSpeeds.find(spd);
    if (s == kSpeeds.end()) error("bad SPD speed \"" + excerpt(spd) + "\"");
    if (log != "ACT" && log != "ARM" && log != "INI" && log != "DWN")
      error("bad LOG state \"" + excerpt(log) + "\"");
    link.rate = LinkRate{w->second, s->second};
    link.up = log != "DWN";
    c.skip_space();
    if (!c.at_end()) error("unexpected text after SPD=");
    return link;
  }

  NodeId node_for(const PortEnd& e) {
    const auto it = by_guid_.find(e.node_guid);
    if (it != by_guid_.end()) {
      const Node& n = fabric_.node(it->second);
      if (n.type != e.type || n.num_ports() != e.num_ports)
        error("node " + guid_string(e.node_guid) + " differs from its earlier lines");
      return it->second;
    }
    char name[24];
    std::snprintf(name, sizeof name, "%c-%016" PRIx64,
                  e.type == NodeType::switch_node ? 'S'
                  : e.type == NodeType::ca        ? 'H'
                                                  : 'R',
                  e.node_guid);
    NodeId id = 0;
    try {
      id = fabric_.add_node(e.type, name, e.num_ports);
    } catch (const FabricError& err) {
      error(err.what());
    }
    Node& n = fabric_.node(id);
    n.guid = e.node_guid;
    n.system_image_guid = e.system_guid;
    n.description = e.description;
    by_guid_.emplace(e.node_guid, id);
    return id;
  }

  void set_port(NodeId id, const PortEnd& e) {
    Node& n = fabric_.node(id);
    Port& id_port = n.is_switch() ? n.ports[0] : n.ports[e.port];
    if ((id_port.guid && id_port.guid != e.port_guid) || (id_port.lid && id_port.lid != e.lid))
      error("port GUID or LID of " + guid_string(e.node_guid) + " differs from its earlier lines");
    id_port.guid = e.port_guid;
    id_port.lid = e.lid;
  }

  std::string_view content_;
  const std::string& source_;
  Where where_;
  Fabric fabric_;
  std::unordered_map<Guid, NodeId> by_guid_;
};

}  // namespace

Fabric parse_subnet_lst(std::string_view content, const std::string& source) {
  return SubnetLstReader(content, source).read();
}

}  // namespace psssp::formats
