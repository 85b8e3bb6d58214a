// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The fabric model: nodes (switches, CAs, routers), their ports with GUIDs and
// LIDs, and the cables between ports. Every reader produces a Fabric; routing,
// the simulator and the OpenSM plugin consume one.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "link_rate.h"

namespace psssp {

using Guid = std::uint64_t;
using Lid = std::uint16_t;
using NodeId = std::uint32_t;
using PortNum = std::uint8_t;
using ChannelId = std::uint32_t;

constexpr NodeId kNoNode = 0xFFFFFFFFu;
constexpr Lid kMaxUnicastLid = 0xBFFF;
constexpr PortNum kMaxPorts = 254;  // port numbers 1..254; 255 is "no path" in an LFT

// A model inconsistency (duplicate GUID, port cabled twice, ...). what() is
// the complete message for the user.
class FabricError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class NodeType : std::uint8_t { switch_node, ca, router };
std::string_view node_type_name(NodeType type);  // "Switch", "Ca", "Rt"

struct PortRef {
  NodeId node = kNoNode;
  PortNum port = 0;
  bool valid() const { return node != kNoNode; }
  bool operator==(const PortRef& o) const { return node == o.node && port == o.port; }
  bool operator!=(const PortRef& o) const { return !(*this == o); }
};

struct Port {
  Guid guid = 0;
  Lid lid = 0;  // base LID, 0 = none (switch external ports carry none)
  std::uint8_t lmc = 0;
  PortRef remote;  // invalid when the port is not cabled
  LinkRate rate;
  bool healthy = true;  // false: the cable is down or unhealthy and carries no routes

  bool connected() const { return remote.valid(); }
  bool usable() const { return remote.valid() && healthy; }
  unsigned lid_count() const { return 1u << lmc; }
};

struct Node {
  NodeType type = NodeType::ca;
  Guid guid = 0;
  Guid system_image_guid = 0;
  std::string name;         // unique identifier from the source file ("S-0002c9...", "leaf3")
  std::string description;  // the node description (NodeDescription attribute)
  std::vector<Port> ports;  // indexed by port number; [0] is a switch's management port

  bool is_switch() const { return type == NodeType::switch_node; }
  PortNum num_ports() const { return static_cast<PortNum>(ports.size() - 1); }
};

class Fabric {
 public:
  // Adds a node with ports 1..num_ports (plus port 0). Names must be unique.
  NodeId add_node(NodeType type, std::string name, PortNum num_ports);
  // Cables two ports (both directions). Throws if either is already cabled to
  // somewhere else; cabling the same pair again is a no-op (readers see every
  // cable from both ends).
  void connect(PortRef a, PortRef b, LinkRate rate = {});

  Node& node(NodeId id) { return nodes_.at(id); }
  const Node& node(NodeId id) const { return nodes_.at(id); }
  Port& port(PortRef ref) { return nodes_.at(ref.node).ports.at(ref.port); }
  const Port& port(PortRef ref) const { return nodes_.at(ref.node).ports.at(ref.port); }
  std::size_t node_count() const { return nodes_.size(); }
  const std::vector<Node>& nodes() const { return nodes_; }

  std::optional<NodeId> find_by_name(std::string_view name) const;

  // Builds the GUID, LID and channel indices below and checks them: throws
  // FabricError on duplicate node GUIDs or overlapping LID ranges. Call after
  // construction and after any change of GUIDs, LIDs or cables.
  void index();

  std::optional<NodeId> find_by_guid(Guid node_guid) const;
  std::optional<PortRef> find_port_by_guid(Guid port_guid) const;
  // The port owning a LID (any LID of its LMC range); invalid PortRef if none.
  PortRef port_of_lid(Lid lid) const;
  Lid max_lid() const { return static_cast<Lid>(lid_owner_.empty() ? 0 : lid_owner_.size() - 1); }

  // Directed channels: one per (node, port), the direction leaving that port.
  ChannelId channel(PortRef ref) const { return channel_base_[ref.node] + ref.port; }
  std::size_t channel_count() const { return channel_count_; }
  PortRef channel_port(ChannelId channel) const;

  const std::vector<NodeId>& switches() const { return switches_; }
  // Host ports: CA ports with a LID, in node order then port order.
  const std::vector<PortRef>& host_ports() const { return host_ports_; }

  // Non-fatal findings of the reader or of index() (self-cabled ports, ...).
  std::vector<std::string> warnings;
  // Adds a finding unless the same text is already there.
  void warn_once(std::string message);

 private:
  std::vector<Node> nodes_;
  std::unordered_map<std::string, NodeId> by_name_;
  std::unordered_map<Guid, NodeId> by_guid_;
  std::unordered_map<Guid, PortRef> by_port_guid_;
  std::vector<PortRef> lid_owner_;
  std::vector<ChannelId> channel_base_;
  std::size_t channel_count_ = 0;
  std::vector<NodeId> switches_;
  std::vector<PortRef> host_ports_;
};

// Short human name of a node for messages: description if any, else name,
// with the GUID: "leaf3 (0x0002c90000000003)".
std::string describe_node(const Fabric& fabric, NodeId id);

}  // namespace psssp
