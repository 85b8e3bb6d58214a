// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Reader for ibnetdiscover output (infiniband-diags). Node GUIDs come from the
// switchguid=/caguid=/rtguid= line before each record, port GUIDs from the
// "(guid)" annotations, LIDs and link rates from the "# ..." comments.
#include <optional>

#include "line_scanner.h"
#include "node_records.h"
#include "readers.h"

namespace psssp::formats {

std::optional<LinkRate> parse_rate_token(std::string_view token) {
  LinkRate rate;
  std::size_t i = 0;
  bool width_unknown = false;
  if (i < token.size() && token[i] >= '0' && token[i] <= '9') {
    int w = 0;
    while (i < token.size() && token[i] >= '0' && token[i] <= '9' && w < 100)
      w = w * 10 + (token[i++] - '0');
    if (i >= token.size() || token[i] != 'x') return std::nullopt;
    ++i;
    if (w != 1 && w != 2 && w != 4 && w != 8 && w != 12) return std::nullopt;
    rate.width = static_cast<LinkWidth>(w);
  } else if (i < token.size() && token[i] == '?') {
    // ibnetdiscover prints "??" for a width it does not know.
    while (i < token.size() && token[i] == '?') ++i;
    if (i < token.size() && token[i] == 'x') ++i;
    width_unknown = true;
  } else {
    return std::nullopt;
  }
  const std::string_view speed = token.substr(i);
  if (speed.empty()) {
    if (!width_unknown) return std::nullopt;
    return rate;
  }
  if (speed.find_first_not_of('?') == std::string_view::npos) return rate;
  const auto s = parse_speed(speed);
  if (!s) return std::nullopt;
  rate.speed = *s;
  return rate;
}

namespace {

struct PendingGuid {
  NodeType type = NodeType::ca;
  Guid guid = 0;
  Guid port_guid = 0;  // switches: the port-0 GUID in parentheses
  bool set = false;
};

class IbnetdiscoverReader {
 public:
  IbnetdiscoverReader(std::string_view content, const std::string& source)
      : content_(content), source_(source) {}

  Fabric read() {
    LineScanner lines(content_);
    std::string_view line;
    while (lines.next(line)) {
      where_ = Where{&source_, lines.line_number(), std::string(line)};
      handle(line);
    }
    finish_record();
    if (records_.empty()) throw InputError(source_, lines.line_number(), "no node records found");
    return records_.build(std::move(warnings_));
  }

 private:
  [[noreturn]] void error(const std::string& message) { fail_at(where_, message); }

  Guid guid_or_fail(Cursor& c, bool prefixed, const char* what) {
    const auto g = prefixed ? c.hex_0x() : c.hex_digits();
    // The GUID must end the token: "0x12g4" is not 0x12.
    if (!g || (!c.at_end() && !is_space(c.peek()) && c.peek() != '(' && c.peek() != ')' &&
               c.peek() != '#'))
      error(std::string("bad ") + what + " GUID");
    if (*g == 0) error(std::string("zero ") + what + " GUID");
    return *g;
  }

  void handle(std::string_view raw) {
    const std::string_view line = trim(raw);
    if (line.empty()) {
      finish_record();
      return;
    }
    Cursor c(line);
    if (c.consume("vendid=") || c.consume("devid=")) {
      finish_record();
      started_ = true;
      if (!c.number()) error("bad number");
      return;
    }
    if (c.consume("sysimgguid=")) {
      finish_record();
      started_ = true;
      sysimgguid_ = guid_or_fail(c, true, "system image");
      return;  // "-g" may append "# Chassis N (name)"
    }
    if (c.consume("switchguid=")) {
      finish_record();
      started_ = true;
      pending_ = PendingGuid{NodeType::switch_node, guid_or_fail(c, true, "switch"), 0, true};
      if (c.consume('(')) {
        pending_.port_guid = guid_or_fail(c, false, "switch port");
        if (!c.consume(')')) error("unterminated switch port GUID");
      }
      return;
    }
    if (c.consume("caguid=") || c.consume("rtguid=")) {
      finish_record();
      started_ = true;
      const NodeType type = line[0] == 'c' ? NodeType::ca : NodeType::router;
      pending_ =
          PendingGuid{type, guid_or_fail(c, true, type == NodeType::ca ? "CA" : "router"), 0, true};
      return;
    }
    const std::string_view first = Cursor(line).word();
    if (first == "Switch" || first == "Ca" || first == "Rt") {
      finish_record();
      started_ = true;
      header(line);
      return;
    }
    if (line[0] == '[') {
      if (!current_) error("port line outside a node record");
      link(line);
      return;
    }
    // Comments, -g grouping lines ("Chassis 2 (guid ...)", "Non-Chassis
    // Nodes", "Hostname: ...") and, before the header, stderr noise.
    if (line[0] == '#' || starts_with(line, "Chassis ") || starts_with(line, "Non-Chassis") ||
        starts_with(line, "Hostname:"))
      return;
    if (started_)
      warnings_.push_back(source_ + ":" + std::to_string(where_.line) +
                          ": ignored unrecognised line: " + excerpt(line));
  }

  void header(std::string_view line) {
    Cursor c(line);
    const std::string_view type_word = c.word();
    NodeRecord rec;
    rec.type = type_word == "Switch" ? NodeType::switch_node
               : type_word == "Ca"   ? NodeType::ca
                                     : NodeType::router;
    rec.where = where_;
    c.skip_space();
    const auto ports = c.decimal(1000);
    if (!ports) error("missing port count");
    if (*ports < 1 || *ports > kMaxPorts)
      error("port count " + std::to_string(*ports) + " outside 1.." + std::to_string(kMaxPorts));
    rec.num_ports = static_cast<PortNum>(*ports);
    c.skip_space();
    const auto name = c.quoted();
    if (!name) error("missing or unterminated \"node id\"");
    if (name->empty()) error("empty node id");
    rec.name = std::string(*name);
    rec.ports.resize(static_cast<std::size_t>(rec.num_ports) + 1);
    c.skip_space();
    if (c.consume('#')) {
      c.skip_space();
      std::string_view rest = c.rest();
      if (rest.empty() || rest[0] != '"') error("node description must be quoted");
      rest.remove_prefix(1);
      // The description may itself hold quotes: it ends at the last quote
      // before the switch's "port 0" clause, or at the line's last quote.
      std::size_t end = std::string_view::npos;
      if (rec.type == NodeType::switch_node) {
        end = rest.rfind("\" enhanced port 0");
        if (end == std::string_view::npos) end = rest.rfind("\" base port 0");
      }
      if (end == std::string_view::npos) end = rest.rfind('"');
      if (end == std::string_view::npos) error("unterminated node description");
      rec.description = std::string(rest.substr(0, end));
      Cursor tail(rest.substr(end + 1));
      tail.skip_space();
      if (rec.type == NodeType::switch_node) {
        if (tail.consume("enhanced port 0") || tail.consume("base port 0")) tail.skip_space();
        if (tail.consume("lid")) {
          tail.skip_space();
          const auto lid = tail.decimal(kMaxUnicastLid);
          if (!lid) error("bad switch LID");
          rec.ports[0].lid = static_cast<Lid>(*lid);
          tail.skip_space();
          if (tail.consume("lmc")) {
            tail.skip_space();
            const auto lmc = tail.decimal(7);
            if (!lmc) error("bad switch LMC");
            rec.ports[0].lmc = static_cast<std::uint8_t>(*lmc);
          }
        }
      }
    }
    // The GUID line before the record names the node; without one, the
    // ibnetdiscover id "S-<guid>" / "H-<guid>" / "R-<guid>" does.
    if (pending_.set && pending_.type == rec.type) {
      rec.guid = pending_.guid;
      if (rec.type == NodeType::switch_node)
        rec.ports[0].guid = pending_.port_guid ? pending_.port_guid : pending_.guid;
    } else if (rec.name.size() == 18 && rec.name[1] == '-' &&
               rec.name[0] == (rec.type == NodeType::switch_node ? 'S'
                               : rec.type == NodeType::ca        ? 'H'
                                                                 : 'R')) {
      const auto g = parse_hex(std::string_view(rec.name).substr(2));
      if (!g || *g == 0) error("bad GUID in node id");
      rec.guid = *g;
      if (rec.type == NodeType::switch_node) rec.ports[0].guid = *g;
    } else {
      error(std::string("record has no GUID (no ") +
            (rec.type == NodeType::switch_node ? "switchguid="
             : rec.type == NodeType::ca        ? "caguid="
                                               : "rtguid=") +
            " line before it)");
    }
    rec.system_image_guid = sysimgguid_;
    pending_ = PendingGuid{};
    sysimgguid_ = 0;
    current_ = std::move(rec);
  }

  // "[ext N]" after a port number (-g output on chassis ports).
  void skip_ext(Cursor& c) {
    if (!c.consume("[ext")) return;
    c.skip_space();
    if (!c.decimal(255) || !c.consume(']')) error("bad [ext N] port annotation");
  }

  void link(std::string_view line) {
    NodeRecord& rec = *current_;
    Cursor c(line);
    LinkEnd end;
    end.where = where_;
    c.consume('[');
    const auto port = c.decimal(255);
    if (!port || !c.consume(']')) error("bad port number");
    if (*port < 1 || *port > rec.num_ports)
      error("port " + std::to_string(*port) + " outside 1.." + std::to_string(rec.num_ports) +
            " of \"" + rec.name + "\"");
    end.port = static_cast<PortNum>(*port);
    skip_ext(c);
    if (c.consume('(')) {
      const Guid g = guid_or_fail(c, false, "port");
      if (!c.consume(')')) error("unterminated port GUID");
      if (rec.type != NodeType::switch_node) rec.ports[end.port].guid = g;
    }
    c.skip_space();
    const auto remote = c.quoted();
    if (!remote) error("missing or unterminated \"remote node id\"");
    end.remote = std::string(*remote);
    c.skip_space();
    if (!c.consume('[')) error("missing [remote port]");
    const auto rport = c.decimal(255);
    if (!rport || !c.consume(']')) error("bad remote port number");
    if (*rport < 1 || *rport > kMaxPorts)
      error("remote port " + std::to_string(*rport) + " out of range");
    end.remote_port = static_cast<PortNum>(*rport);
    skip_ext(c);
    c.skip_space();
    if (c.consume('(')) {
      end.remote_port_guid = guid_or_fail(c, false, "remote port");
      if (!c.consume(')')) error("unterminated remote port GUID");
    }
    c.skip_space();
    if (!c.at_end()) {
      if (!c.consume('#')) error("unexpected text after the remote port");
      comment(c, rec, end);
    }
    rec.links.push_back(std::move(end));
  }

  // "# lid 16 lmc 1 "remote desc" lid 3 4xSDR" (CA) or "# "remote desc" lid 3 4xSDR".
  void comment(Cursor& c, NodeRecord& rec, LinkEnd& end) {
    c.skip_space();
    if (c.consume("lid ")) {
      c.skip_space();
      const auto lid = c.decimal(kMaxUnicastLid);
      if (!lid) error("bad port LID");
      c.skip_space();
      if (!c.consume("lmc")) error("missing lmc after the port LID");
      c.skip_space();
      const auto lmc = c.decimal(7);
      if (!lmc) error("bad LMC");
      if (rec.type != NodeType::switch_node) {
        rec.ports[end.port].lid = static_cast<Lid>(*lid);
        rec.ports[end.port].lmc = static_cast<std::uint8_t>(*lmc);
      }
      c.skip_space();
    }
    std::string_view rest = c.rest();
    if (rest.empty()) return;
    if (rest[0] != '"') error("remote description must be quoted");
    const auto close = rest.rfind("\" lid ");
    if (close == std::string_view::npos || close == 0)
      error("missing \"lid N\" after the remote description");
    Cursor tail(rest.substr(close + 6));
    tail.skip_space();
    const auto rlid = tail.decimal(kMaxUnicastLid);
    if (!rlid) error("bad remote LID");
    end.remote_lid = static_cast<Lid>(*rlid);
    tail.skip_space();
    const std::string_view token = tail.word();
    if (token.empty()) error("missing link width and speed");
    end.rate = parse_rate_token(token);
    if (!end.rate) error("bad link width/speed \"" + excerpt(token) + "\"");
  }

  void finish_record() {
    if (!current_) return;
    records_.add(std::move(*current_));
    current_.reset();
  }

  std::string_view content_;
  const std::string& source_;
  Where where_;
  NodeRecords records_;
  std::optional<NodeRecord> current_;
  PendingGuid pending_;
  Guid sysimgguid_ = 0;
  bool started_ = false;
  std::vector<std::string> warnings_;
};

}  // namespace

Fabric parse_ibnetdiscover(std::string_view content, const std::string& source) {
  return IbnetdiscoverReader(content, source).read();
}

}  // namespace psssp::formats
