// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "link_table.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "formats/fabric_io.h"
#include "output_util.h"

namespace psssp::sim {
namespace {

std::string node_label(const Node& n) { return n.description.empty() ? n.name : n.description; }

// One CSV record (RFC 4180 quoting, no newlines inside fields).
std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted) {
      if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (ch == '"') {
        quoted = false;
      } else {
        fields.back() += ch;
      }
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      fields.emplace_back();
    } else if (ch != '\r') {
      fields.back() += ch;
    }
  }
  return fields;
}

std::string gbps_text(double gbps) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", gbps);
  return buf;
}

int column(const std::vector<std::string>& header, const std::string& name) {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return static_cast<int>(i);
  return -1;
}

}  // namespace

std::string link_csv_ends(const Fabric& f, PortRef p) {
  const Port& port = f.port(p);
  const Node& a = f.node(p.node);
  const Node& b = f.node(port.remote.node);
  return hex_guid(a.guid) + ',' + csv_field(node_label(a)) + ',' + std::to_string(p.port) + ',' +
         hex_guid(b.guid) + ',' + csv_field(node_label(b)) + ',' +
         std::to_string(port.remote.port) + ',' + gbps_text(port.rate.gbps());
}

const char* link_kind(const Fabric& f, PortRef p) {
  return f.node(p.node).is_switch() && f.node(f.port(p).remote.node).is_switch() ? "switch"
                                                                                 : "host";
}

LinkLoads read_link_loads(const std::string& text, const std::string& source,
                          const std::string& routing) {
  std::size_t pos = 0, line_no = 0;
  std::vector<std::string> header;
  int guid_col = -1, port_col = -1, load_col = -1, routing_col = -1;
  std::string wanted = routing;
  LinkLoads loads;
  bool routing_seen = false;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (line.empty() || line == "\r") continue;
    std::vector<std::string> fields = split_csv(line);
    if (header.empty()) {
      header = std::move(fields);
      guid_col = column(header, "node_guid");
      port_col = column(header, "port");
      load_col = column(header, "mean_flows");
      if (load_col < 0) load_col = column(header, "routes");
      routing_col = column(header, "routing");
      if (guid_col < 0 || port_col < 0 || load_col < 0)
        throw InputError(source, line_no,
                         "not a --link-csv of psssp-sim score or check (needs columns node_guid, "
                         "port and mean_flows or routes)");
      continue;
    }
    if (fields.size() != header.size())
      throw InputError(source, line_no,
                       std::to_string(fields.size()) + " fields, the header has " +
                           std::to_string(header.size()));
    if (routing_col >= 0) {
      if (wanted.empty()) wanted = fields[routing_col];
      if (fields[routing_col] != wanted) continue;
      routing_seen = true;
    }
    char* rest = nullptr;
    const Guid guid = std::strtoull(fields[guid_col].c_str(), &rest, 16);
    const bool guid_ok = !fields[guid_col].empty() && rest && *rest == '\0';
    const unsigned long port = std::strtoul(fields[port_col].c_str(), &rest, 10);
    const bool port_ok = !fields[port_col].empty() && *rest == '\0' && port <= 255;
    const double load = std::strtod(fields[load_col].c_str(), &rest);
    const bool load_ok = !fields[load_col].empty() && *rest == '\0' && load >= 0;
    if (!guid_ok || !port_ok || !load_ok)
      throw InputError(source, line_no, "bad node_guid, port or load: '" + line + "'");
    loads[{guid, static_cast<PortNum>(port)}] = load;
  }
  if (header.empty()) throw InputError(source, 1, "empty; expected a CSV header");
  if (routing_col >= 0 && !routing.empty() && !routing_seen)
    throw InputError("--routing " + routing + ": no such routing in " + source);
  return loads;
}

}  // namespace psssp::sim
