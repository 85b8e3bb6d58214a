// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "route_tracer.h"

#include <algorithm>

namespace psssp {

RouteTracer::RouteTracer(const Fabric& fabric, const ForwardingTables& lfts)
    : fabric_(fabric), lfts_(lfts), row_of_node_(fabric.node_count(), kNoRow) {
  const std::size_t n = lfts.switch_count();
  rows_.resize(n);
  std::size_t max_port = 0;
  for (std::uint32_t r = 0; r < n; ++r) {
    const NodeId sw = lfts.switch_at(r);
    if (sw >= fabric.node_count() || !fabric.node(sw).is_switch())
      throw FabricError("forwarding tables do not belong to this fabric");
    rows_[r] = lfts.row(sw);
    row_of_node_[sw] = r;
    max_port = std::max<std::size_t>(max_port, fabric.node(sw).num_ports());
  }
  // A row covers LIDs 0..lid_count()-1; LIDs beyond are unrouted.
  lid_limit_ = lfts.lid_count();
  terminal_.assign(lid_limit_, kNoTerminal);
  for (std::size_t lid = 1; lid < lid_limit_; ++lid) {
    const PortRef owner = fabric.port_of_lid(static_cast<Lid>(lid));
    if (owner.valid()) terminal_[lid] = kTerminal | fabric.channel(owner);
  }
  port_stride_ = max_port + 1;
  hops_.assign(n * port_stride_, Hop{0, kDeadUnconnected});
  for (std::uint32_t r = 0; r < n; ++r) {
    const NodeId sw = lfts.switch_at(r);
    const Node& node = fabric.node(sw);
    Hop* out = &hops_[r * port_stride_];
    // Port 0 delivers to the switch itself: right for its own LIDs only.
    out[0] = Hop{fabric.channel(PortRef{sw, 0}), kTerminal | fabric.channel(PortRef{sw, 0})};
    for (PortNum p = 1; p < node.ports.size(); ++p) {
      const Port& port = node.ports[p];
      out[p].channel = fabric.channel(PortRef{sw, p});
      if (!port.connected()) continue;
      if (!port.healthy || !fabric.port(port.remote).healthy) {
        out[p].next = kDeadDown;
      } else if (fabric.node(port.remote.node).is_switch()) {
        out[p].next = row_of_node_[port.remote.node];
        if (out[p].next == kNoRow) out[p].next = kDeadUnconnected;  // switch without LFT
      } else {
        out[p].next = kTerminal | fabric.channel(port.remote);
      }
    }
  }
}

std::vector<NodeId> loop_cycle(const RouteTracer& tracer, std::uint32_t row, Lid dlid) {
  if (dlid >= tracer.lid_limit()) return {};
  const std::uint32_t want = tracer.terminal_of_lid(dlid);
  std::vector<std::uint32_t> seen;
  for (std::size_t step = 0; step <= tracer.switch_count(); ++step) {
    const auto at = std::find(seen.begin(), seen.end(), row);
    if (at != seen.end()) {
      std::vector<NodeId> cycle;
      for (auto it = at; it != seen.end(); ++it) cycle.push_back(tracer.switch_at(*it));
      return cycle;
    }
    seen.push_back(row);
    ChannelId channel = 0;
    row = tracer.step(row, dlid, want, channel);
    if (row == RouteTracer::kArrived || row == RouteTracer::kFailed) break;
  }
  return {};
}

RouteTracer::Start RouteTracer::start(PortRef host_port) const {
  Start s;
  s.uplink = fabric_.channel(host_port);
  const Port& port = fabric_.port(host_port);
  if (!port.connected()) {
    s.status = TraceStatus::unconnected;
  } else if (!port.healthy || !fabric_.port(port.remote).healthy) {
    s.status = TraceStatus::down_link;
  } else if (fabric_.node(port.remote.node).is_switch()) {
    s.row = row_of_node_[port.remote.node];
    if (s.row == kNoRow) s.status = TraceStatus::unconnected;
  } else {
    s.direct = port.remote;
  }
  return s;
}

}  // namespace psssp

namespace psssp {

std::string describe_trace_end(const RouteTracer& tracer, const TraceEnd& end, Lid dlid) {
  const Fabric& f = tracer.fabric();
  std::string where;
  if (end.row != RouteTracer::kNoRow) {
    const NodeId sw = tracer.switch_at(end.row);
    where = "switch " + describe_node(f, sw) + " lid " + std::to_string(f.node(sw).ports[0].lid);
  }
  const std::string port =
      end.port == kNoPath ? std::string("no entry") : "port " + std::to_string(end.port);
  const std::string lid = "LID " + std::to_string(dlid);
  switch (end.status) {
    case TraceStatus::delivered:
      return lid + " delivered after " + std::to_string(end.hops) + " switch hops";
    case TraceStatus::black_hole:
      return "black hole for " + lid + " at " + where + " (" + port + ")";
    case TraceStatus::loop:
      return "loop for " + lid + " through " + where;
    case TraceStatus::wrong_delivery: {
      std::string got = end.reached.valid() ? describe_node(f, end.reached.node) + " port " +
                                                  std::to_string(end.reached.port)
                                            : std::string("nowhere");
      return lid + " delivered to " + got + " via " + where + " " + port;
    }
    case TraceStatus::down_link:
      return lid + " routed over a down link at " + where + " " + port;
    case TraceStatus::unconnected:
      return lid + " routed to unconnected " + port + " at " + where;
  }
  return "?";
}

}  // namespace psssp
