// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// ibsim net file writer. ibsim (sim_net.c) takes node GUIDs from
// "switchguid=0x.." / "caguid=0x.." / "rtguid=0x.." lines: each sets the GUID
// of the next record of that type. A switch's ports all carry the node GUID;
// CA port p gets node GUID + p. LIDs are not written: the SM assigns them.
#include <cinttypes>
#include <cstdio>
#include <ostream>
#include <string>

#include "fabric_io.h"

namespace psssp {
namespace {

constexpr std::size_t kIbsimIdMax = 64;  // NODEIDLEN 65 in ibsim, NodeDescription 64 bytes

// ibsim default capacities (ibsim -N/-S/-P raise them).
constexpr std::size_t kIbsimNodes = 2048, kIbsimSwitches = 256, kIbsimPorts = 13312;

// ibsim reserves '#' and '@' in node ids; descriptions are quoted, so only
// '"' (and line breaks) cannot appear in them.
void check_text(const Node& node, const std::string& text, bool is_name) {
  const char* forbidden = is_name ? "\"#@\n\r" : "\"\n\r";
  if (text.empty() || text.size() > kIbsimIdMax ||
      text.find_first_of(forbidden) != std::string::npos)
    throw FabricError(std::string(is_name ? "node name" : "node description") + " \"" + text +
                      "\" cannot go into an ibsim net file (1-64 characters, no " +
                      (is_name ? "\" # @" : "\"") + ")" +
                      (is_name ? "" : " of \"" + node.name + "\""));
}

std::string hex(Guid guid) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, guid);
  return buf;
}

// A cable's rate as ibsim's port options: "w=" enabled-width mask (1x 1,
// 4x 2, 8x 4, 12x 8, 2x 16), "s=" enabled-speed mask (SDR 1, DDR 2, QDR 4),
// "e=" extended-speed mask (FDR 1, EDR 2, HDR 4). Both ends get the same
// single-bit masks: ibsim runs a cable at the highest rate both ends enable,
// and when OpenSM writes PortInfo it sets both ends from one end's masks.
struct IbsimRate {
  int width = 0, speed = 0, ext = 0;  // 0 = leave ibsim's default
  LinkSpeed modelled = LinkSpeed::unknown;
};

int ibsim_width(LinkWidth w) {
  switch (w) {
    case LinkWidth::x1:
      return 1;
    case LinkWidth::x2:
      return 16;
    case LinkWidth::x4:
      return 2;
    case LinkWidth::x8:
      return 4;
    case LinkWidth::x12:
      return 8;
    default:
      return 0;
  }
}

// ibsim 0.10 has no NDR or XDR, and its FDR10 is invisible to PortInfo (ibnetdiscover
// reads QDR): those cables run at the nearest rate ibsim has.
IbsimRate ibsim_rate(LinkRate rate) {
  IbsimRate r;
  r.width = ibsim_width(rate.width);
  switch (rate.speed) {
    case LinkSpeed::sdr:
      return r.speed = 1, r.modelled = LinkSpeed::sdr, r;
    case LinkSpeed::ddr:
      return r.speed = 2, r.modelled = LinkSpeed::ddr, r;
    case LinkSpeed::qdr:
    case LinkSpeed::fdr10:
      return r.speed = 4, r.modelled = LinkSpeed::qdr, r;
    case LinkSpeed::fdr:
      return r.speed = 4, r.ext = 1, r.modelled = LinkSpeed::fdr, r;
    case LinkSpeed::edr:
      return r.speed = 4, r.ext = 2, r.modelled = LinkSpeed::edr, r;
    case LinkSpeed::hdr:
    case LinkSpeed::ndr:
    case LinkSpeed::xdr:
      return r.speed = 4, r.ext = 4, r.modelled = LinkSpeed::hdr, r;
    default:
      return r;
  }
}

// Both ends must state the same rate, or ibsim finds no common width/speed.
LinkRate cable_rate(const Fabric& fabric, PortRef a, PortRef b) {
  const LinkRate ra = fabric.port(a).rate, rb = fabric.port(b).rate;
  const bool a_first = a.node < b.node || (a.node == b.node && a.port < b.port);
  const LinkRate& first = a_first ? ra : rb;
  const LinkRate& second = a_first ? rb : ra;
  return first != LinkRate{} ? first : second;
}

void write_record(std::ostream& out, const Fabric& fabric, NodeId id, NetWriteReport& report) {
  const Node& node = fabric.node(id);
  check_text(node, node.name, true);
  if (!node.description.empty()) check_text(node, node.description, false);
  const char* guid_key = node.type == NodeType::switch_node ? "switchguid"
                         : node.type == NodeType::ca        ? "caguid"
                                                            : "rtguid";
  if (node.guid != 0) out << guid_key << '=' << hex(node.guid) << '\n';
  out << node_type_name(node.type) << '\t' << unsigned{node.num_ports()} << " \"" << node.name
      << '"';
  if (!node.description.empty()) out << "\t# \"" << node.description << '"';
  out << '\n';
  for (PortNum p = 1; p <= node.num_ports(); ++p) {
    const Port& port = node.ports[p];
    if (!port.connected()) continue;
    const Node& far = fabric.node(port.remote.node);
    out << '[' << unsigned{p} << "]\t\"" << far.name << "\"[" << unsigned{port.remote.port} << ']';
    const LinkRate rate = cable_rate(fabric, {id, p}, port.remote);
    const IbsimRate r = ibsim_rate(rate);
    if (r.width) out << "\tw=" << r.width;
    if (r.speed) out << "\ts=" << r.speed;
    if (r.ext) out << "\te=" << r.ext;
    out << '\n';
    const bool first_end =
        id < port.remote.node || (id == port.remote.node && p < port.remote.port);
    if (first_end && r.modelled != rate.speed && rate.speed != LinkSpeed::unknown) {
      const LinkRate as{rate.width, r.modelled};
      ++report.substituted[rate.to_string() + " as " + as.to_string()];
    }
  }
  out << '\n';
}

}  // namespace

NetWriteReport write_ibsim_net(std::ostream& out, const Fabric& fabric) {
  NetWriteReport report;
  std::size_t switches = 0, ports = 0, cables = 0;
  NodeId first = kNoNode;  // the record written first: where ibsim attaches the SM
  for (NodeId id = 0; id < fabric.node_count(); ++id) {
    const Node& n = fabric.node(id);
    switches += n.is_switch();
    ports += n.ports.size() - (n.is_switch() ? 0 : 1);
    for (PortNum p = 1; p <= n.num_ports(); ++p) {
      const PortRef r = n.ports[p].remote;
      if (!r.valid()) continue;
      cables += r.node > id || (r.node == id && r.port > p);
    }
    // ibsim attaches the SM to the first record's first port (port 1 of a
    // CA): a CA whose port 1 is cabled, or the SM would sit on a dead port.
    if (first == kNoNode && n.type == NodeType::ca && n.num_ports() >= 1 &&
        n.ports[1].remote.valid())
      first = id;
  }
  out << "# ibsim net file: " << switches << " switches, " << fabric.node_count() - switches
      << " other nodes, " << cables << " cables\n";
  if (fabric.node_count() > kIbsimNodes || switches > kIbsimSwitches || ports > kIbsimPorts)
    out << "# needs: ibsim -N " << fabric.node_count() << " -S " << switches << " -P " << ports
        << '\n';
  out << '\n';
  if (first != kNoNode) write_record(out, fabric, first, report);
  for (NodeId id = 0; id < fabric.node_count(); ++id)
    if (id != first) write_record(out, fabric, id, report);
  return report;
}

}  // namespace psssp
