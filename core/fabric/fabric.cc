// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "fabric.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace psssp {

std::string_view node_type_name(NodeType type) {
  switch (type) {
    case NodeType::switch_node:
      return "Switch";
    case NodeType::ca:
      return "Ca";
    case NodeType::router:
      return "Rt";
  }
  return "?";
}

NodeId Fabric::add_node(NodeType type, std::string name, PortNum num_ports) {
  if (num_ports < 1 || num_ports > kMaxPorts)
    throw FabricError("node \"" + name + "\": port count " + std::to_string(num_ports) +
                      " outside 1.." + std::to_string(kMaxPorts));
  const NodeId id = static_cast<NodeId>(nodes_.size());
  if (!by_name_.emplace(name, id).second) throw FabricError("duplicate node \"" + name + "\"");
  Node n;
  n.type = type;
  n.name = std::move(name);
  n.ports.resize(static_cast<std::size_t>(num_ports) + 1);
  nodes_.push_back(std::move(n));
  return id;
}

void Fabric::connect(PortRef a, PortRef b, LinkRate rate) {
  auto check_end = [&](PortRef end) -> Port& {
    if (end.node >= nodes_.size()) throw FabricError("cable to an unknown node");
    Node& n = nodes_[end.node];
    if (end.port < 1 || end.port > n.num_ports())
      throw FabricError("\"" + n.name + "\" has no port " + std::to_string(end.port) +
                        " (ports 1.." + std::to_string(n.num_ports()) + ")");
    return n.ports[end.port];
  };
  Port& pa = check_end(a);
  Port& pb = check_end(b);
  auto conflict = [&](PortRef end, const Port& p, PortRef want) {
    if (p.remote.valid() && p.remote != want)
      throw FabricError("port " + std::to_string(end.port) + " of \"" + nodes_[end.node].name +
                        "\" is cabled to both \"" + nodes_[p.remote.node].name + "\"[" +
                        std::to_string(p.remote.port) + "] and \"" + nodes_[want.node].name +
                        "\"[" + std::to_string(want.port) + "]");
  };
  conflict(a, pa, b);
  conflict(b, pb, a);
  pa.remote = b;
  pb.remote = a;
  if (rate != LinkRate{}) {
    pa.rate = rate;
    pb.rate = rate;
  }
}

std::optional<NodeId> Fabric::find_by_name(std::string_view name) const {
  const auto it = by_name_.find(std::string(name));
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

void Fabric::index() {
  by_guid_.clear();
  by_port_guid_.clear();
  lid_owner_.clear();
  channel_base_.assign(nodes_.size(), 0);
  switches_.clear();
  host_ports_.clear();
  channel_count_ = 0;

  for (NodeId id = 0; id < nodes_.size(); ++id) {
    const Node& n = nodes_[id];
    channel_base_[id] = static_cast<ChannelId>(channel_count_);
    channel_count_ += n.ports.size();
    if (n.is_switch()) switches_.push_back(id);
    if (n.guid != 0 && !by_guid_.emplace(n.guid, id).second)
      throw FabricError("duplicate node GUID " + describe_node(*this, id) + " and " +
                        describe_node(*this, by_guid_[n.guid]));
    for (PortNum p = 0; p < n.ports.size(); ++p) {
      const Port& port = n.ports[p];
      if (port.guid != 0 && (p != 0 || n.is_switch()))
        by_port_guid_.emplace(port.guid, PortRef{id, p});
      if (port.lid == 0) continue;
      const unsigned count = port.lid_count();
      if (port.lid + count - 1 > kMaxUnicastLid)
        throw FabricError("LID " + std::to_string(port.lid) + " of " + describe_node(*this, id) +
                          " is outside the unicast range");
      if (lid_owner_.size() < port.lid + count) lid_owner_.resize(port.lid + count);
      for (unsigned k = 0; k < count; ++k) {
        PortRef& owner = lid_owner_[port.lid + k];
        if (owner.valid())
          throw FabricError("LID " + std::to_string(port.lid + k) + " is assigned to both " +
                            describe_node(*this, owner.node) + " port " +
                            std::to_string(owner.port) + " and " + describe_node(*this, id) +
                            " port " + std::to_string(p));
        owner = PortRef{id, p};
      }
      if (n.type == NodeType::ca && p != 0) host_ports_.push_back(PortRef{id, p});
    }
    for (PortNum p = 1; p < n.ports.size(); ++p)
      if (n.ports[p].remote == PortRef{id, p} ||
          (n.ports[p].remote.node == id && p < n.ports[p].remote.port))
        warn_once(describe_node(*this, id) + " port " + std::to_string(p) +
                  " is cabled to the same node (port " + std::to_string(n.ports[p].remote.port) +
                  ")");
  }
}

void Fabric::warn_once(std::string message) {
  // index() runs again after LID or order changes: keep each finding once.
  if (std::find(warnings.begin(), warnings.end(), message) == warnings.end())
    warnings.push_back(std::move(message));
}

std::optional<NodeId> Fabric::find_by_guid(Guid node_guid) const {
  const auto it = by_guid_.find(node_guid);
  if (it == by_guid_.end()) return std::nullopt;
  return it->second;
}

std::optional<PortRef> Fabric::find_port_by_guid(Guid port_guid) const {
  const auto it = by_port_guid_.find(port_guid);
  if (it == by_port_guid_.end()) return std::nullopt;
  return it->second;
}

PortRef Fabric::port_of_lid(Lid lid) const {
  if (lid >= lid_owner_.size()) return {};
  return lid_owner_[lid];
}

PortRef Fabric::channel_port(ChannelId channel) const {
  const auto it = std::upper_bound(channel_base_.begin(), channel_base_.end(), channel);
  const NodeId node = static_cast<NodeId>(it - channel_base_.begin() - 1);
  return PortRef{node, static_cast<PortNum>(channel - channel_base_[node])};
}

std::string describe_node(const Fabric& fabric, NodeId id) {
  const Node& n = fabric.node(id);
  char guid[24];
  std::snprintf(guid, sizeof guid, "0x%016" PRIx64, n.guid);
  const std::string& label = n.description.empty() ? n.name : n.description;
  return "\"" + label + "\" (" + guid + ")";
}

}  // namespace psssp
