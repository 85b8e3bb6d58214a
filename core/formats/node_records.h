// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The intermediate form of the record-based readers (ibnetdiscover, ibsim
// net): node records with the link ends each lists, as read. build() checks
// that every link is listed consistently from both ends and makes the Fabric.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "fabric/fabric.h"

namespace psssp::formats {

struct Where {
  const std::string* source = nullptr;  // owned by the reader; outlives build()
  std::size_t line = 0;
  std::string text;  // the line, for messages
};

struct LinkEnd {
  PortNum port = 0;
  std::string remote;  // the remote record's name
  PortNum remote_port = 0;
  std::optional<LinkRate> rate;
  Guid remote_port_guid = 0;  // 0: not given
  Lid remote_lid = 0;         // 0: not given
  Where where;
};

struct NodeRecord {
  NodeType type = NodeType::ca;
  std::string name;
  std::string description;
  PortNum num_ports = 0;
  Guid guid = 0;
  Guid system_image_guid = 0;
  std::vector<Port> ports;  // guid, lid, lmc per port (0..num_ports)
  std::vector<LinkEnd> links;
  Where where;
};

class NodeRecords {
 public:
  // Takes a record; throws InputError on a duplicate name or node GUID.
  void add(NodeRecord record);
  bool empty() const { return records_.empty(); }
  // Resolves the links; throws InputError for dangling or inconsistent links.
  // The fabric is not indexed yet.
  Fabric build(std::vector<std::string> warnings = {});

 private:
  // Per record: which link end lists each port, to match the two ends.
  using PortEnds = std::vector<std::vector<const LinkEnd*>>;
  // build()'s steps: the nodes and their ports' link ends; every far end
  // exists; each cable connected once, both ends agreeing.
  void add_nodes(Fabric& fabric, PortEnds& end_of_port) const;
  void check_far_ends() const;
  void connect_links(Fabric& fabric, const PortEnds& end_of_port,
                     std::vector<std::string>& warnings) const;

  std::vector<NodeRecord> records_;
  std::unordered_map<std::string, std::size_t> by_name_;
  std::unordered_map<Guid, std::size_t> by_guid_;
};

// Throws InputError at `where` with the message and the line's text.
[[noreturn]] void fail_at(const Where& where, const std::string& message);

}  // namespace psssp::formats
