// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Reader of the unicast routes dump that OpenSM writes as opensm.fdbs (log
// flag 0x40, dump_ucast_routes in osm_dump.c) and ibdiagnet (ibutils) as
// ibdiagnet.fdbs, the file ibdmchk -f reads. One block per switch:
//   "dump_ucast_routes: Switch 0x0002c90000000001"   (ibdiagnet: the same
//                                                     after "osm_ucast_mgr_")
//   "LID    : Port : Hops : Optimal"
//   "0x0001 : UNREACHABLE"                           no port owns the LID, or
//                                                     no route (port 255)
//   "0x0004 : 001  : 01   : yes"
//   "0x0009 : 003  : 03   : No 2 hop path possible via port 4!"
//   "0x000C : 002  : HOPS UNKNOWN"
// LIDs are hexadecimal (upper case), ports decimal; ibdiagnet ends each
// block with an empty line. No port GUIDs: LIDs are taken as they are.
#include "formats/lft_io.h"
#include "line_scanner.h"

namespace psssp {
namespace {

using formats::Cursor;
using formats::starts_with;
using formats::trim;

constexpr std::string_view kSwitchMark = "dump_ucast_routes: Switch ";
constexpr std::string_view kIbdiagnetPrefix = "osm_ucast_mgr_";

class FdbsReader {
 public:
  FdbsReader(std::string_view content, const std::string& source, const Fabric& fabric)
      : lines_(content),
        source_(source),
        fabric_(fabric),
        tables_(fabric),
        seen_(fabric.node_count()) {}

  ForwardingTables read() {
    bool any = false;
    while (lines_.next(line_)) {
      const std::string_view t = trim(line_);
      if (t.empty()) continue;
      const auto mark = t.find(kSwitchMark);
      if (mark != std::string_view::npos && (mark == 0 || t.substr(0, mark) == kIbdiagnetPrefix)) {
        header(t.substr(mark + kSwitchMark.size()));
        any = true;
      } else if (starts_with(t, "LID ")) {
        if (current_ == kNoNode) error("column header outside a switch block");
      } else if (starts_with(t, "0x")) {
        if (current_ == kNoNode) error("route outside a switch block");
        entry(t);
      } else {
        error("unrecognised line");
      }
    }
    if (!any) throw InputError(source_ + ": no \"dump_ucast_routes: Switch\" blocks found");
    return std::move(tables_);
  }

 private:
  [[noreturn]] void error(const std::string& message) {
    formats::fail(source_, lines_.line_number(), message, line_);
  }

  void header(std::string_view rest) {
    Cursor c(rest);
    const auto guid = c.hex_0x();
    c.skip_space();
    if (!guid || !c.at_end()) error("bad switch GUID");
    const auto node = fabric_.find_by_guid(*guid);
    if (!node) error("unknown switch GUID " + formats::guid_string(*guid) + " (not in the fabric)");
    if (!fabric_.node(*node).is_switch()) error(describe_node(fabric_, *node) + " is not a switch");
    if (seen_[*node]) error("second block for switch " + describe_node(fabric_, *node));
    seen_[*node] = 1;
    current_ = *node;
  }

  void entry(std::string_view t) {
    Cursor c(t);
    const auto lid = c.hex_0x(0xFFFF);
    c.skip_space();
    if (!lid || !c.consume(':')) error("bad LID");
    c.skip_space();
    if (c.consume("UNREACHABLE")) {
      c.skip_space();
      if (!c.at_end()) error("unexpected text after UNREACHABLE");
      return;
    }
    const auto port = c.decimal(255);
    if (!port) error("bad output port");
    c.skip_space();
    if (!c.consume(':')) error("expected \": HOPS\" after the port");
    c.skip_space();
    if (!c.consume("HOPS UNKNOWN")) {
      if (!c.decimal(255)) error("bad hop count");
      c.skip_space();
      if (!c.consume(':')) error("expected \": Optimal\" after the hop count");
      c.skip_space();
      if (!c.consume("yes") && !c.consume("No ")) error("expected \"yes\" or \"No ...\"");
    }
    const Node& sw = fabric_.node(current_);
    if (*port != kNoPath && *port > sw.num_ports())
      error("port " + std::to_string(*port) + " beyond the " + std::to_string(sw.num_ports()) +
            " ports of " + describe_node(fabric_, current_));
    if (*lid >= tables_.lid_count())
      error("LID " + std::to_string(*lid) + " beyond the fabric's highest LID " +
            std::to_string(fabric_.max_lid()));
    tables_.set(current_, static_cast<Lid>(*lid), static_cast<PortNum>(*port));
  }

  formats::LineScanner lines_;
  std::string_view line_;
  const std::string& source_;
  const Fabric& fabric_;
  ForwardingTables tables_;
  std::vector<char> seen_;
  NodeId current_ = kNoNode;
};

}  // namespace

bool is_fdbs(std::string_view content) {
  formats::LineScanner lines(content);
  std::string_view line;
  while (lines.next(line)) {
    std::string_view t = trim(line);
    if (t.empty()) continue;
    if (starts_with(t, kIbdiagnetPrefix)) t.remove_prefix(kIbdiagnetPrefix.size());
    return starts_with(t, kSwitchMark);
  }
  return false;
}

ForwardingTables parse_fdbs(std::string_view content, const std::string& source,
                            const Fabric& fabric) {
  return FdbsReader(content, source, fabric).read();
}

}  // namespace psssp
