// Reader for LFT dumps, bound to a fabric. Accepted layouts, one table per
// switch:
//   opensm-lfts.dump  "Unicast lids [0-6] of switch Lid 1 guid 0x... ('desc'):"
//                     "0x0001 000 # Switch portguid 0x...: 'desc'"
//                     "6 lids dumped"
//   dump_fts/ibroute  "Unicast lids [0x0-0x6] of switch Lid 3 guid 0x... (desc):"
//                     or "... of switch DR path slid 0; dlid 0; 0,3 guid 0x... (desc):"
//                     "  Lid  Out   Destination" / "       Port     Info "
//                     "0x0004 001 : (Channel Adapter portguid 0x...: 'desc')"
//                     "0x0005 003 : (path #2 out of 4: portguid 0x...)"
//                     "0x0001 003 " (-n), "6 valid lids dumped "
// Entries naming a port GUID are moved to that port's LID range in the
// fabric exactly as OpenSM's file engine does (remap_lid in osm_ucast_file.c).
#include "formats/lft_io.h"
#include "line_scanner.h"

namespace psssp {
namespace {

using formats::Cursor;
using formats::starts_with;
using formats::trim;

class LftReader {
 public:
  LftReader(std::string_view content, const std::string& source, const Fabric& fabric)
      : content_(content),
        source_(source),
        fabric_(fabric),
        tables_(fabric),
        seen_(fabric.node_count(), 0) {}

  ForwardingTables read() {
    formats::LineScanner lines(content_);
    std::string_view raw;
    bool any = false;
    while (lines.next(raw)) {
      line_no_ = lines.line_number();
      line_ = raw;
      const std::string_view t = trim(raw);
      if (t.empty() || t[0] == '#') continue;
      if (starts_with(t, "Unicast lids")) {
        header(t);
        any = true;
      } else if (starts_with(t, "0x")) {
        if (current_ == kNoNode) error("LFT entry outside a switch table");
        entry(t);
      } else if (starts_with(t, "Lid ") || starts_with(t, "Port ")) {
        if (current_ == kNoNode) error("column header outside a switch table");
      } else if (t.size() > 11 && t.substr(t.size() - 11) == "lids dumped") {
        if (current_ == kNoNode) error("footer outside a switch table");
        current_ = kNoNode;
      } else {
        error("unrecognised line");
      }
    }
    if (!any) throw InputError(source_ + ": no \"Unicast lids\" switch tables found");
    return std::move(tables_);
  }

 private:
  [[noreturn]] void error(const std::string& message) {
    formats::fail(source_, line_no_, message, line_);
  }

  void header(std::string_view t) {
    Cursor c(t);
    c.consume("Unicast lids");
    c.skip_space();
    if (!c.consume('[') || !c.number(0xFFFF) || !c.consume('-') || !c.number(0xFFFF) ||
        !c.consume(']'))
      error("bad LID range in table header");
    c.skip_space();
    if (!c.consume("of switch")) error("expected \"of switch\" in table header");
    const std::string_view rest = c.rest();
    NodeId sw = kNoNode;
    const auto guid_at = rest.find(" guid 0x");
    if (guid_at != std::string_view::npos) {
      Cursor g(rest.substr(guid_at + 6));
      const auto guid = g.hex_0x();
      if (!guid) error("bad switch GUID");
      const auto node = fabric_.find_by_guid(*guid);
      if (!node)
        error("unknown switch GUID " + formats::guid_string(*guid) + " (not in the fabric)");
      sw = *node;
    } else {
      // Without a GUID only a "Lid N" header identifies the switch.
      Cursor l(rest);
      l.skip_space();
      if (!l.consume("Lid")) error("table header names neither a switch GUID nor a LID");
      l.skip_space();
      const auto lid = l.decimal(kMaxUnicastLid);
      if (!lid) error("bad switch LID");
      const PortRef owner = fabric_.port_of_lid(static_cast<Lid>(*lid));
      if (!owner.valid()) error("no switch has LID " + std::to_string(*lid) + " in the fabric");
      sw = owner.node;
    }
    if (!fabric_.node(sw).is_switch()) error(describe_node(fabric_, sw) + " is not a switch");
    if (seen_[sw]) error("second table for switch " + describe_node(fabric_, sw));
    seen_[sw] = 1;
    current_ = sw;
  }

  void entry(std::string_view t) {
    Cursor c(t);
    const auto lid = c.hex_0x(0xFFFF);
    if (!lid || !c.skip_space()) error("bad LID");
    const auto port = c.decimal(255);
    if (!port) error("bad output port");
    const Node& sw = fabric_.node(current_);
    if (*port != kNoPath && *port > sw.num_ports())
      error("port " + std::to_string(*port) + " beyond the " + std::to_string(sw.num_ports()) +
            " ports of " + describe_node(fabric_, current_));
    c.skip_space();
    const std::string_view note = c.rest();
    if (!note.empty() && note[0] != ':' && note[0] != '#') error("unexpected text after the port");
    std::optional<Guid> guid;
    const auto guid_at = note.find("portguid 0x");
    if (guid_at != std::string_view::npos) {
      Cursor g(note.substr(guid_at + 9));
      guid = g.hex_0x();
      if (!guid) error("bad port GUID");
    }
    std::uint64_t target = *lid;
    if (guid) {
      const auto ref = fabric_.find_port_by_guid(*guid);
      if (!ref) error("unknown port GUID " + formats::guid_string(*guid) + " (not in the fabric)");
      const Port& dest = fabric_.port(*ref);
      if (dest.lid == 0) error("port " + formats::guid_string(*guid) + " has no LID in the fabric");
      // OpenSM's file engine (remap_lid): a LID outside the port's current
      // range keeps its offset within the LMC block.
      if (*lid < dest.lid || *lid >= dest.lid + dest.lid_count())
        target = dest.lid + (*lid & (dest.lid_count() - 1));
    }
    if (target >= tables_.lid_count())
      error("LID " + std::to_string(target) + " beyond the fabric's highest LID " +
            std::to_string(fabric_.max_lid()));
    tables_.set(current_, static_cast<Lid>(target), static_cast<PortNum>(*port));
  }

  std::string_view content_;
  const std::string& source_;
  const Fabric& fabric_;
  ForwardingTables tables_;
  std::vector<char> seen_;
  NodeId current_ = kNoNode;
  std::size_t line_no_ = 0;
  std::string_view line_;
};

}  // namespace

ForwardingTables parse_lfts(std::string_view content, const std::string& source,
                            const Fabric& fabric) {
  return LftReader(content, source, fabric).read();
}

ForwardingTables read_lfts(const std::string& path, const Fabric& fabric) {
  return parse_lfts(read_file(path), path, fabric);
}

}  // namespace psssp
