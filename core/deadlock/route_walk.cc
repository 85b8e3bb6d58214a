// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "route_walk.h"

namespace psssp::deadlock {

std::vector<SourceSwitch> source_switches(const Fabric& fabric, Sources which) {
  std::vector<std::int64_t> index(fabric.node_count(), -1);
  std::vector<SourceSwitch> out;
  for (NodeId sw : fabric.switches()) {
    index[sw] = static_cast<std::int64_t>(out.size());
    out.push_back(SourceSwitch{sw, {}});
  }
  for (PortRef host : fabric.host_ports()) {
    const Port& port = fabric.port(host);
    if (!port.usable() || !fabric.node(port.remote.node).is_switch()) continue;
    out[static_cast<std::size_t>(index[port.remote.node])].ports.push_back(
        SourcePort{port.remote.port, port.lid, port.lid_count()});
  }
  std::vector<SourceSwitch> sources;
  for (SourceSwitch& s : out) {
    const Port& own = fabric.node(s.node).ports[0];
    if (s.ports.empty() && which == Sources::every_switch && own.lid != 0)
      s.ports.push_back(SourcePort{0, own.lid, own.lid_count()});
    if (!s.ports.empty()) sources.push_back(std::move(s));
  }
  return sources;
}

std::vector<Lid> destination_lids(const Fabric& fabric) {
  std::vector<Lid> lids;
  for (unsigned lid = 1; lid <= fabric.max_lid(); ++lid)
    if (fabric.port_of_lid(static_cast<Lid>(lid)).valid()) lids.push_back(static_cast<Lid>(lid));
  return lids;
}

namespace {

// walk_route with `port_of(c)` for the port a channel leaves by.
template <class PortOf>
WalkEnd walk(const RouteTracer& tracer, NodeId source, Lid dlid, std::vector<Hop>& hops,
             PortOf&& port_of) {
  hops.clear();
  const Fabric& fabric = tracer.fabric();
  const std::uint32_t first = tracer.row_of(source);
  if (first == RouteTracer::kNoRow) return WalkEnd::unrouted;
  PortNum in = 0;
  const auto add = [&](ChannelId c) {
    const PortRef out = port_of(c);
    const PortRef next = fabric.port(out).remote;
    hops.push_back(Hop{out.node, in, out.port, fabric.node(next.node).is_switch()});
    in = next.port;
  };
  const TraceEnd end = tracer.trace(first, dlid, add);
  switch (end.status) {
    case TraceStatus::delivered:
    case TraceStatus::wrong_delivery:
      // The last switch hands the packet out: to its own port 0 (no channel
      // traced) or, when misdelivered, to a CA the tracer did not enter.
      if (end.port == 0 || end.status == TraceStatus::wrong_delivery)
        hops.push_back(Hop{tracer.switch_at(end.row), in, end.port, false});
      return WalkEnd::delivered;
    case TraceStatus::black_hole:
      return WalkEnd::unrouted;
    case TraceStatus::down_link:
      return WalkEnd::broken;
    case TraceStatus::unconnected: {
      // A cable to a switch without a table: the hop exists, the route ends there.
      const NodeId sw = tracer.switch_at(end.row);
      const Node& node = fabric.node(sw);
      if (end.port < node.ports.size() && node.ports[end.port].usable() &&
          fabric.node(node.ports[end.port].remote.node).is_switch()) {
        hops.push_back(Hop{sw, in, end.port, true});
        return WalkEnd::unrouted;
      }
      return WalkEnd::broken;
    }
    case TraceStatus::loop:
      break;
  }
  // Around the loop until switch count + 2 hops: enough for its dependencies
  // to close the cycle whatever the walk's way in.
  const std::size_t limit = fabric.switches().size() + 2;
  const std::uint32_t want = tracer.terminal_of_lid(dlid);
  for (std::uint32_t row = end.row; hops.size() < limit;) {
    ChannelId c = 0;
    row = tracer.step(row, dlid, want, c);
    if (row == RouteTracer::kArrived || row == RouteTracer::kFailed) break;  // not on a cycle
    add(c);
  }
  return WalkEnd::loop;
}

}  // namespace

WalkEnd walk_route(const RouteTracer& tracer, NodeId source, Lid dlid, std::vector<Hop>& hops) {
  const Fabric& fabric = tracer.fabric();
  return walk(tracer, source, dlid, hops, [&](ChannelId c) { return fabric.channel_port(c); });
}

WalkEnd walk_route(const RouteTracer& tracer, NodeId source, Lid dlid, std::vector<Hop>& hops,
                   const std::vector<PortRef>& port_of_channel) {
  return walk(tracer, source, dlid, hops, [&](ChannelId c) { return port_of_channel[c]; });
}

std::string describe_port(const Fabric& fabric, PortRef port) {
  const Node& n = fabric.node(port.node);
  return std::string(n.is_switch() ? "switch " : "node ") + describe_node(fabric, port.node) +
         " port " + std::to_string(port.port);
}

}  // namespace psssp::deadlock
