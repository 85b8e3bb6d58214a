// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "node_records.h"

#include "formats/fabric_io.h"
#include "line_scanner.h"

namespace psssp::formats {

void fail_at(const Where& where, const std::string& message) {
  fail(where.source ? *where.source : std::string("<input>"), where.line, message, where.text);
}

void NodeRecords::add(NodeRecord record) {
  const auto named = by_name_.find(record.name);
  if (named != by_name_.end())
    fail_at(record.where, "duplicate node \"" + record.name + "\" (first defined at line " +
                              std::to_string(records_[named->second].where.line) + ")");
  if (record.guid != 0) {
    const auto same = by_guid_.find(record.guid);
    if (same != by_guid_.end())
      fail_at(record.where, "duplicate node GUID " + guid_string(record.guid) + " (also \"" +
                                records_[same->second].name + "\" at line " +
                                std::to_string(records_[same->second].where.line) + ")");
    by_guid_.emplace(record.guid, records_.size());
  }
  by_name_.emplace(record.name, records_.size());
  records_.push_back(std::move(record));
}

namespace {

// The far end must list the same cable back.
void check_back(const NodeRecord& rec, const LinkEnd& end, const NodeRecord& remote,
                const LinkEnd* back) {
  if (!back)
    fail_at(end.where, "\"" + remote.name + "\" (line " + std::to_string(remote.where.line) +
                           ") does not list port " + std::to_string(end.remote_port) +
                           " as cabled back to \"" + rec.name + "\"[" + std::to_string(end.port) +
                           "]");
  if (back->remote != rec.name || back->remote_port != end.port)
    fail_at(end.where, "inconsistent link ends: \"" + rec.name + "\"[" + std::to_string(end.port) +
                           "] -> \"" + remote.name + "\"[" + std::to_string(end.remote_port) +
                           "], but line " + std::to_string(back->where.line) + " has \"" +
                           remote.name + "\"[" + std::to_string(end.remote_port) + "] -> \"" +
                           back->remote + "\"[" + std::to_string(back->remote_port) + "]");
}

// Facts one end states about the other end's port: its GUID and LID.
void take_far_facts(Fabric& fabric, const LinkEnd& end, const NodeRecord& remote, PortRef there) {
  Port& far = fabric.port(there);
  if (end.remote_port_guid != 0 && remote.type != NodeType::switch_node) {
    if (far.guid == 0)
      far.guid = end.remote_port_guid;
    else if (far.guid != end.remote_port_guid)
      fail_at(end.where, "port GUID " + guid_string(end.remote_port_guid) + " of \"" + remote.name +
                             "\"[" + std::to_string(end.remote_port) + "] differs from " +
                             guid_string(far.guid) + " given elsewhere");
  }
  if (end.remote_lid != 0) {
    Port& lid_port = remote.type == NodeType::switch_node ? fabric.node(there.node).ports[0] : far;
    if (lid_port.lid == 0) lid_port.lid = end.remote_lid;
  }
}

// The cable's rate from what its two ends state.
LinkRate cable_rate(const LinkEnd& end, const LinkEnd& back, std::vector<std::string>& warnings) {
  LinkRate rate = end.rate.value_or(LinkRate{});
  if (back.rate && end.rate) {
    // An unknown part ("4x???") takes the other end's value.
    LinkRate other = *back.rate;
    if (rate.width == LinkWidth::unknown) rate.width = other.width;
    if (rate.speed == LinkSpeed::unknown) rate.speed = other.speed;
    if (other.width == LinkWidth::unknown) other.width = rate.width;
    if (other.speed == LinkSpeed::unknown) other.speed = rate.speed;
    if (other != rate) {
      warnings.push_back(*end.where.source + ":" + std::to_string(end.where.line) +
                         ": the two ends of the cable disagree on its rate (" +
                         end.rate->to_string() + " here, " + back.rate->to_string() + " at line " +
                         std::to_string(back.where.line) + "); using the slower");
      if (other.gbps() < rate.gbps()) rate = other;
    }
  } else if (back.rate && !end.rate) {
    rate = *back.rate;
  }
  return rate;
}

}  // namespace

Fabric NodeRecords::build(std::vector<std::string> warnings) {
  Fabric fabric;
  PortEnds end_of_port(records_.size());
  add_nodes(fabric, end_of_port);
  check_far_ends();
  connect_links(fabric, end_of_port, warnings);
  fabric.warnings = std::move(warnings);
  return fabric;
}

void NodeRecords::add_nodes(Fabric& fabric, PortEnds& end_of_port) const {
  for (std::size_t r = 0; r < records_.size(); ++r) {
    const NodeRecord& rec = records_[r];
    NodeId id = 0;
    try {
      id = fabric.add_node(rec.type, rec.name, rec.num_ports);
    } catch (const FabricError& e) {
      fail_at(rec.where, e.what());
    }
    Node& node = fabric.node(id);
    node.guid = rec.guid;
    node.system_image_guid = rec.system_image_guid;
    node.description = rec.description;
    for (std::size_t p = 0; p < rec.ports.size() && p < node.ports.size(); ++p)
      node.ports[p] = rec.ports[p];
    end_of_port[r].assign(static_cast<std::size_t>(rec.num_ports) + 1, nullptr);
    for (const LinkEnd& end : rec.links) {
      if (end.port < 1 || end.port > rec.num_ports)
        fail_at(end.where, "port " + std::to_string(end.port) + " of \"" + rec.name +
                               "\" outside 1.." + std::to_string(rec.num_ports));
      if (end_of_port[r][end.port])
        fail_at(end.where, "port " + std::to_string(end.port) + " of \"" + rec.name +
                               "\" already listed at line " +
                               std::to_string(end_of_port[r][end.port]->where.line));
      end_of_port[r][end.port] = &end;
    }
  }
}

void NodeRecords::check_far_ends() const {
  // Every far end must exist before any pair is compared, so that a wrong
  // port number is reported as such rather than as a mismatch.
  for (const NodeRecord& rec : records_) {
    for (const LinkEnd& end : rec.links) {
      const auto it = by_name_.find(end.remote);
      if (it == by_name_.end())
        fail_at(end.where, "link to \"" + end.remote + "\", which is never defined");
      const NodeRecord& remote = records_[it->second];
      if (end.remote_port < 1 || end.remote_port > remote.num_ports)
        fail_at(end.where, "remote port " + std::to_string(end.remote_port) + " of \"" +
                               remote.name + "\" outside 1.." + std::to_string(remote.num_ports));
    }
  }
}

void NodeRecords::connect_links(Fabric& fabric, const PortEnds& end_of_port,
                                std::vector<std::string>& warnings) const {
  for (std::size_t r = 0; r < records_.size(); ++r) {
    const NodeRecord& rec = records_[r];
    for (const LinkEnd& end : rec.links) {
      const std::size_t rr = by_name_.find(end.remote)->second;
      const NodeRecord& remote = records_[rr];
      const LinkEnd* back = end_of_port[rr][end.remote_port];
      check_back(rec, end, remote, back);
      const PortRef here{static_cast<NodeId>(r), end.port};
      const PortRef there{static_cast<NodeId>(rr), end.remote_port};
      take_far_facts(fabric, end, remote, there);
      if (here.node < there.node || (here.node == there.node && here.port < there.port))
        continue;  // each cable once, from its later end, when both ends' rates are known
      const LinkRate rate = cable_rate(end, *back, warnings);
      try {
        fabric.connect(here, there, rate);
      } catch (const FabricError& e) {
        fail_at(end.where, e.what());
      }
    }
  }
}

}  // namespace psssp::formats
