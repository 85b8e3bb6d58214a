// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Reader for ibsim net files (ibsim-utils, sim_net.c). ibsim accepts a loose
// superset of ibnetdiscover syntax; this reader follows its rules:
//  - GUIDs: a "switchguid=", "caguid="/"hcaguids=" or "rtguid=" line sets the
//    next GUID of that node type ("=V" absolute, "+N" relative to the last
//    absolute value). Defaults: CAs 0x100000, switches 0x200000, routers 0.
//    A switch takes one GUID (node = system image = every port's GUID); a CA
//    or router with P ports takes P+1: node GUID G, port p's GUID G+p.
//  - Link width/speed: "w=MASK" / "s=MASK" / "e=MASK" on a port line
//    (PortInfo enable masks: width 1=1x 2=4x 4=8x 8=12x 16=2x, speed 1=SDR
//    2=DDR 4=QDR, extended speed 1=FDR 2=EDR 4=HDR), defaults from "width=" /
//    "speed=" / "extspeed=" lines (4x, SDR, none); or, as in ibnetdiscover
//    output, "lid N 4xQDR" at the end of a port line, which enables that
//    width and every speed up to that one. A cable runs at the highest width
//    and speed both ends enable, an extended speed before the others.
//  - A missing "[remote port]" means port 1; it must follow the closing quote
//    directly, as in ibsim.
// LIDs: the file may give them ("lid N lmc M" in a switch header comment or
// a CA port line). Ports without one get consecutive LIDs in file order
// (each switch's port 0, each cabled CA/router port), after the highest
// LID the file gives. OpenSM's own choice on a fresh fabric depends on its
// discovery order; apply_lid_file() loads the real assignment afterwards.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <list>

#include "line_scanner.h"
#include "node_records.h"
#include "readers.h"

namespace psssp::formats {
namespace {

constexpr int kMaxIncludeDepth = 9;  // ibsim's MAX_INCLUDE

struct PortMasks {
  int width = 0;
  int speed = 0;
  int ext = 0;
  Where where;
};

// ibsim's get_active_linkwidth: the widest width both ends enable.
LinkWidth common_width(int a, int b) {
  const int both = a & b;
  for (const auto& [bit, width] :
       {std::pair{8, LinkWidth::x12}, std::pair{4, LinkWidth::x8}, std::pair{2, LinkWidth::x4},
        std::pair{16, LinkWidth::x2}, std::pair{1, LinkWidth::x1}})
    if (both & bit) return width;
  return LinkWidth::unknown;
}

// ibsim's get_active_linkspeedext, then get_active_linkspeed.
LinkSpeed common_speed(const PortMasks& a, const PortMasks& b) {
  const int ext = a.ext & b.ext;
  if (ext & 4) return LinkSpeed::hdr;
  if (ext & 2) return LinkSpeed::edr;
  if (ext & 1) return LinkSpeed::fdr;
  const int speed = a.speed & b.speed;
  if (speed & 4) return LinkSpeed::qdr;
  if (speed & 2) return LinkSpeed::ddr;
  if (speed & 1) return LinkSpeed::sdr;
  return LinkSpeed::unknown;
}

class IbsimNetReader {
 public:
  explicit IbsimNetReader(bool allow_include) : allow_include_(allow_include) {}

  Fabric read(std::string_view content, const std::string& source) {
    parse(content, source, 0);
    if (records_.empty()) throw InputError(source, 1, "no Switch/Hca/Ca/Rt records found");
    Fabric fabric = records_.build(std::move(warnings_));
    set_rates(fabric);
    assign_lids(fabric);
    return fabric;
  }

 private:
  [[noreturn]] void error(const std::string& message) { fail_at(where_, message); }

  void parse(std::string_view content, const std::string& source, int depth) {
    const std::string& src = sources_.emplace_back(source);
    LineScanner lines(content);
    std::string_view line;
    bool have_line = lines.next(line);
    while (have_line) {
      where_ = Where{&src, lines.line_number(), std::string(line)};
      const std::string_view first = Cursor(line).word();
      if (first == "Switch" || first == "Hca" || first == "Ca" || first == "Rt") {
        header(line, first);
        // Port lines follow until a line that is neither a port nor a comment.
        while ((have_line = lines.next(line))) {
          where_ = Where{&src, lines.line_number(), std::string(line)};
          if (!line.empty() && line[0] == '#') continue;
          if (line.empty() || (line[0] != '[' && line[0] != '@')) break;
          port_line(line);
        }
        // ibsim's parser ends a record only at a blank line: the next record
        // (or a guid line) right after a port line is read as part of this
        // one, and ibsim refuses the file.
        if (have_line && !line.empty())
          warnings_.push_back(*where_.source + ":" + std::to_string(where_.line) +
                              ": no blank line before this line; ibsim will not load the file "
                              "(its records must be separated by blank lines)");
        finish_record();
        continue;  // the line that ended the record is read as a top-level line
      }
      top_level(line, source, depth);
      have_line = lines.next(line);
    }
  }

  void top_level(std::string_view line, const std::string& source, int depth) {
    Cursor c(line);
    if (c.consume("switchguid")) return guid_base(c, NodeType::switch_node);
    if (c.consume("hcaguids") || c.consume("caguid")) return guid_base(c, NodeType::ca);
    if (c.consume("rtguid")) return guid_base(c, NodeType::router);
    if (c.consume("width")) return set_mask(c, width_, 1, 31, "width");
    if (c.consume("speed")) return set_mask(c, speed_, 1, 7, "speed");
    if (c.consume("extspeed")) return set_mask(c, ext_, 0, 15, "extended speed");
    if (c.consume("include")) return include(c, source, depth);
    if (c.consume("module")) error("ibsim module prefixes are not supported");
    if (starts_with(line, "do")) {
      warnings_.push_back(*where_.source + ":" + std::to_string(where_.line) +
                          ": ibsim console command not simulated: " + excerpt(line));
      return;
    }
    if (!line.empty() && line[0] == '[') error("port line outside a node record");
    // ibsim ignores every other line (comments, vendid=, devid=, sysimgguid=...).
  }

  void guid_base(Cursor& c, NodeType type) {
    std::string_view rest = c.rest();
    const auto op = rest.find_first_of("=+");
    if (op == std::string_view::npos) error("missing '=' or '+'");
    Cursor value(rest.substr(op + 1));
    const auto v = value.number();
    if (!v) error("bad GUID value");
    auto& abs = absolute_[static_cast<int>(type)];
    auto& next = next_guid_[static_cast<int>(type)];
    if (rest[op] == '=') abs = *v;
    next = rest[op] == '=' ? *v : abs + *v;
  }

  void set_mask(Cursor& c, int& target, unsigned min, unsigned max, const char* what) {
    const auto eq = c.rest().find('=');
    if (eq == std::string_view::npos) error("missing '='");
    Cursor value(c.rest().substr(eq + 1));
    const auto v = value.number(1000);
    if (!v || *v < min || *v > max)
      error(std::string("bad ") + what + " mask (" + std::to_string(min) + ".." +
            std::to_string(max) + ")");
    target = static_cast<int>(*v);
  }

  void include(Cursor& c, const std::string& source, int depth) {
    c.skip_space();
    const auto name = c.quoted();
    if (!name || name->empty()) error("bad include file name (expected include \"FILE\")");
    if (!allow_include_) error("include is disabled here");
    if (depth + 1 >= kMaxIncludeDepth) error("includes nested too deeply");
    std::filesystem::path path(*name);
    if (path.is_relative()) path = std::filesystem::path(source).parent_path() / path;
    const Where at = where_;
    std::string text;
    try {
      text = read_file(path.string());
    } catch (const InputError& e) {
      fail_at(at, e.what());
    }
    parse(text, path.string(), depth + 1);
    where_ = at;
  }

  void header(std::string_view line, std::string_view type_word) {
    NodeRecord rec;
    rec.type = type_word == "Switch" ? NodeType::switch_node
               : type_word == "Rt"   ? NodeType::router
                                     : NodeType::ca;
    rec.where = where_;
    Cursor c(line);
    c.word();
    c.skip_space();
    const auto ports = c.decimal(1000);
    if (!ports || *ports < 1 || *ports > kMaxPorts)
      error("bad port count (1.." + std::to_string(kMaxPorts) + ")");
    rec.num_ports = static_cast<PortNum>(*ports);
    c.skip_space();
    const auto name = c.quoted();
    if (!name || name->empty()) error("missing or unterminated \"node id\"");
    if (name->find_first_of("#@") != std::string_view::npos)
      error("'#' and '@' are reserved in node ids");
    rec.name = std::string(*name);
    rec.ports.resize(static_cast<std::size_t>(rec.num_ports) + 1);
    // "# desc ..." or "# "desc" ...": the description, then for switches
    // "lid N lmc M".
    std::string_view rest = c.rest();
    const auto hash = rest.find('#');
    if (hash != std::string_view::npos) {
      Cursor d(rest.substr(hash + 1));
      d.skip_space();
      std::string_view tail;
      if (d.peek() == '"') {
        std::string_view body = d.rest().substr(1);
        const auto close = body.find('"');
        rec.description = std::string(body.substr(0, close));
        tail = close == std::string_view::npos ? std::string_view{} : body.substr(close + 1);
      } else {
        std::string_view body = d.rest();
        std::size_t end = std::string_view::npos;
        for (std::string_view stop : {" enhanced port ", " base port ", " lid ", " lmc "})
          end = std::min(end, body.find(stop));
        rec.description = std::string(body.substr(0, end));
        tail = end == std::string_view::npos ? std::string_view{} : body.substr(end);
      }
      if (rec.type == NodeType::switch_node) lid_and_lmc(tail, rec.ports[0]);
    }
    if (rec.description.empty()) rec.description = rec.name;  // ibsim's NodeDescription
    // GUIDs as ibsim hands them out (see the top of this file).
    Guid& next = next_guid_[static_cast<int>(rec.type)];
    rec.guid = next;
    rec.system_image_guid = next;
    if (rec.type == NodeType::switch_node) {
      for (Port& p : rec.ports) p.guid = rec.guid;
      next += 1;
    } else {
      for (std::size_t p = 1; p < rec.ports.size(); ++p) rec.ports[p].guid = rec.guid + p;
      next += rec.num_ports + 1u;
    }
    masks_.emplace_back(rec.ports.size(), PortMasks{width_, speed_, ext_, where_});
    current_ = std::move(rec);
  }

  // ibsim's parse_port_lid_and_lmc: the first "lid N" and "lmc N" anywhere.
  void lid_and_lmc(std::string_view text, Port& port) {
    const auto lid_at = text.find("lid ");
    if (lid_at != std::string_view::npos) {
      Cursor c(text.substr(lid_at + 4));
      c.skip_space();
      const auto lid = c.number(kMaxUnicastLid);
      if (!lid) error("bad LID");
      port.lid = static_cast<Lid>(*lid);
    }
    const auto lmc_at = text.find("lmc ");
    if (lmc_at != std::string_view::npos) {
      Cursor c(text.substr(lmc_at + 4));
      c.skip_space();
      const auto lmc = c.number(7);
      if (!lmc) error("bad LMC");
      port.lmc = static_cast<std::uint8_t>(*lmc);
    }
  }

  void port_line(std::string_view line) {
    if (line[0] == '@') error("ibsim port aliases are not supported");
    NodeRecord& rec = *current_;
    Cursor c(line);
    c.consume('[');
    const auto port = c.decimal(1000);
    if (!port || !c.consume(']')) error("bad port number");
    if (*port < 1 || *port > rec.num_ports)
      error("port " + std::to_string(*port) + " outside 1.." + std::to_string(rec.num_ports) +
            " of \"" + rec.name + "\"");
    LinkEnd end;
    end.where = where_;
    end.port = static_cast<PortNum>(*port);
    const auto open = c.rest().find('"');
    if (open == std::string_view::npos) error("missing \"remote node id\"");
    c.skip(open);
    const auto remote = c.quoted();
    if (!remote || remote->empty()) error("missing or unterminated \"remote node id\"");
    if (remote->find('@') != std::string_view::npos) error("ibsim port aliases are not supported");
    end.remote = std::string(*remote);
    end.remote_port = 1;  // ibsim's default
    if (c.consume('[')) {
      const auto rport = c.decimal(1000);
      if (!rport || *rport < 1 || *rport > kMaxPorts) error("bad remote port number");
      end.remote_port = static_cast<PortNum>(*rport);
    }
    // Options "w=N" / "s=N": the letter before each '='.
    PortMasks& masks = masks_.back()[end.port];
    masks.where = where_;
    std::string_view rest = c.rest();
    std::size_t after_options = 0;
    for (std::size_t eq = rest.find('='); eq != std::string_view::npos;
         eq = rest.find('=', eq + 1)) {
      // The option letter is the last letter before '=', searched back only
      // to the previous option so that long lines stay linear.
      std::size_t o = eq;
      while (o > after_options && !std::isalpha(static_cast<unsigned char>(rest[o]))) --o;
      const char opt = rest[o];
      Cursor value(rest.substr(eq + 1));
      const auto v = value.number(1000);
      if (opt == 'w' && v && *v >= 1 && *v <= 31) {
        masks.width = static_cast<int>(*v);
      } else if (opt == 's' && v && *v >= 1 && *v <= 7) {
        masks.speed = static_cast<int>(*v);
      } else if (opt == 'e' && v && *v <= 15) {
        masks.ext = static_cast<int>(*v);
      } else {
        error("bad port option (w=1..31, s=1..7 or e=0..15)");
      }
      after_options = eq + 1;
    }
    connection_rate(rest, masks);
    if (rec.type != NodeType::switch_node)
      lid_and_lmc(rest.substr(after_options), rec.ports[end.port]);
    rec.links.push_back(std::move(end));
  }

  // ibsim's parse_port_connection_data: "lid N 4xQDR" after the last "lid"
  // that no quote follows (ibnetdiscover's port comment) sets the enable
  // masks as ibsim's parse_port_link_width_and_speed does.
  void connection_rate(std::string_view rest, PortMasks& masks) {
    const auto lid_at = rest.rfind("lid");
    if (lid_at == std::string_view::npos || rest.find('"', lid_at) != std::string_view::npos)
      return;
    Cursor c(rest.substr(lid_at + 3));
    c.skip_space();
    if (!c.number(kMaxUnicastLid)) return;  // ibsim: "failed parsing port connection type"
    c.skip_space();
    const auto rate = LinkRate::parse(c.word());
    if (!rate || rate->width == LinkWidth::unknown || rate->speed == LinkSpeed::unknown) return;
    masks.width = rate->width == LinkWidth::x12  ? 11
                  : rate->width == LinkWidth::x8 ? 4
                  : rate->width == LinkWidth::x4 ? 3
                  : rate->width == LinkWidth::x2 ? 16
                                                 : 1;
    switch (rate->speed) {
      case LinkSpeed::sdr:
        masks.speed = 1;
        break;
      case LinkSpeed::ddr:
        masks.speed = 3;
        break;
      case LinkSpeed::fdr:
        masks.speed = 7, masks.ext = 1;
        break;
      case LinkSpeed::edr:
        masks.speed = 7, masks.ext = 3;
        break;
      case LinkSpeed::hdr:
        masks.speed = 7, masks.ext = 7;
        break;
      case LinkSpeed::ndr:  // ibsim 0.10 knows no NDR or XDR and keeps its defaults
      case LinkSpeed::xdr:
        break;
      default:  // QDR, FDR10 (FDR10 is not in PortInfo)
        masks.speed = 7;
    }
  }

  void finish_record() {
    if (!current_) return;
    records_.add(std::move(*current_));
    current_.reset();
  }

  void set_rates(Fabric& fabric) {
    for (NodeId id = 0; id < fabric.node_count(); ++id) {
      Node& n = fabric.node(id);
      for (PortNum p = 1; p <= n.num_ports(); ++p) {
        Port& port = n.ports[p];
        if (!port.connected()) continue;
        const PortMasks& a = masks_[id][p];
        const PortMasks& b = masks_[port.remote.node][port.remote.port];
        const LinkWidth width = common_width(a.width, b.width);
        const LinkSpeed speed = common_speed(a, b);
        if (width == LinkWidth::unknown || speed == LinkSpeed::unknown)
          fail_at(a.where, std::string("the two ends enable no common link ") +
                               (width == LinkWidth::unknown ? "width" : "speed") +
                               " (ibsim refuses this)");
        port.rate = LinkRate{width, speed};
      }
    }
  }

  void assign_lids(Fabric& fabric) {
    unsigned next = 1;
    for (const Node& n : fabric.nodes())
      for (const Port& p : n.ports)
        if (p.lid) next = std::max(next, p.lid + p.lid_count());
    for (NodeId id = 0; id < fabric.node_count(); ++id) {
      Node& n = fabric.node(id);
      for (PortNum p = 0; p <= n.num_ports(); ++p) {
        Port& port = n.ports[p];
        const bool wants = n.is_switch() ? p == 0 : p != 0 && port.connected();
        if (!wants || port.lid) continue;
        if (next > kMaxUnicastLid)
          throw InputError(sources_.front() + ": more ports than unicast LIDs");
        port.lid = static_cast<Lid>(next++);
      }
    }
  }

  bool allow_include_;
  std::list<std::string> sources_;  // stable addresses for Where::source
  Where where_;
  NodeRecords records_;
  std::optional<NodeRecord> current_;
  std::vector<std::vector<PortMasks>> masks_;  // per record, per port
  std::vector<std::string> warnings_;
  // Indexed by NodeType: switch_node, ca, router.
  Guid absolute_[3] = {0x200000, 0x100000, 0};
  Guid next_guid_[3] = {0x200000, 0x100000, 0};
  int width_ = 2;  // DEFAULT_LINKWIDTH: 4x
  int speed_ = 1;  // DEFAULT_LINKSPEED: SDR
  int ext_ = 0;    // DEFAULT_LINKSPEEDEXT: none
};

}  // namespace

Fabric parse_ibsim_net(std::string_view content, const std::string& source, bool allow_include) {
  return IbsimNetReader(allow_include).read(content, source);
}

}  // namespace psssp::formats
