// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The fabric as the eBB bound's LP sees it: switches are the vertices, every
// usable switch-to-switch cable is an arc per direction, and each host port
// has its two host channels (up: leaving the host; down: leaving the switch
// towards it). Hosts and routers never forward. Capacities are 1 per channel
// (the plain eBB) or each channel's Gb/s (the capacity eBB).
#pragma once

#include <cstdint>
#include <vector>

#include "fabric/fabric.h"

namespace psssp::bound {

constexpr std::uint32_t kNoVertex = 0xFFFFFFFFu;
constexpr ChannelId kNoChannel = 0xFFFFFFFFu;

struct Arc {
  std::uint32_t from = 0, to = 0;  // vertices (switches)
  ChannelId channel = 0;
};

class ChannelNetwork {
 public:
  // `rates`: capacities are the cables' Gb/s; else 1 per channel.
  ChannelNetwork(const Fabric& fabric, bool rates);

  const Fabric& fabric() const { return fabric_; }
  std::size_t vertex_count() const { return vertex_node_.size(); }
  std::uint32_t vertex_of(NodeId node) const { return vertex_of_[node]; }
  const std::vector<Arc>& arcs() const { return arcs_; }
  // Arcs into vertex v: in_arcs()[in_begin()[v] .. in_begin()[v + 1]) (indices into arcs()).
  const std::vector<std::uint32_t>& in_begin() const { return in_begin_; }
  const std::vector<std::uint32_t>& in_arcs() const { return in_arcs_; }
  double capacity(ChannelId c) const { return capacity_[c]; }
  std::size_t channel_count() const { return capacity_.size(); }
  bool rates() const { return rates_; }

 private:
  const Fabric& fabric_;
  bool rates_;
  std::vector<std::uint32_t> vertex_of_;  // per node
  std::vector<NodeId> vertex_node_;
  std::vector<Arc> arcs_;
  std::vector<std::uint32_t> in_begin_, in_arcs_;
  std::vector<double> capacity_;  // per channel; 0 where unusable
};

// One flow of a matching, host port to host port.
struct Demand {
  PortRef src, dst;
};

// A flow as the LP sees it: x in [0, cap], worth weight * x (weight * cap = 1:
// a flow's share is its rate over its injection rate).
struct Commodity {
  ChannelId up = kNoChannel, down = kNoChannel;    // host channels (down: none for CA-CA)
  std::uint32_t from = kNoVertex, to = kNoVertex;  // switches (kNoVertex: no switch path)
  double cap = 1.0, weight = 1.0;
  enum Kind : std::uint8_t { switched, direct, self, unreachable } kind = switched;
};

std::vector<Commodity> make_commodities(const ChannelNetwork& net,
                                        const std::vector<Demand>& demands);

}  // namespace psssp::bound
