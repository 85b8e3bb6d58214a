// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "channel_network.h"

#include "traffic/channel_load.h"

namespace psssp::bound {

ChannelNetwork::ChannelNetwork(const Fabric& fabric, bool rates)
    : fabric_(fabric), rates_(rates), vertex_of_(fabric.node_count(), kNoVertex) {
  for (NodeId s : fabric.switches()) {
    vertex_of_[s] = static_cast<std::uint32_t>(vertex_node_.size());
    vertex_node_.push_back(s);
  }
  const std::vector<double> gbps = channel_gbps(fabric);
  capacity_.assign(fabric.channel_count(), 0.0);
  for (ChannelId c = 0; c < capacity_.size(); ++c) {
    const PortRef p = fabric.channel_port(c);
    if (p.port == 0 || !fabric.port(p).usable()) continue;
    capacity_[c] = rates ? gbps[c] : 1.0;
    const PortRef r = fabric.port(p).remote;
    if (vertex_of_[p.node] == kNoVertex || vertex_of_[r.node] == kNoVertex) continue;
    if (p.node == r.node) continue;  // a self-cabled switch port forwards nothing useful
    arcs_.push_back({vertex_of_[p.node], vertex_of_[r.node], c});
  }
  in_begin_.assign(vertex_count() + 1, 0);
  for (const Arc& a : arcs_) ++in_begin_[a.to + 1];
  for (std::size_t v = 0; v < vertex_count(); ++v) in_begin_[v + 1] += in_begin_[v];
  in_arcs_.resize(arcs_.size());
  std::vector<std::uint32_t> fill(in_begin_.begin(), in_begin_.end() - 1);
  for (std::uint32_t i = 0; i < arcs_.size(); ++i) in_arcs_[fill[arcs_[i].to]++] = i;
}

std::vector<Commodity> make_commodities(const ChannelNetwork& net,
                                        const std::vector<Demand>& demands) {
  const Fabric& f = net.fabric();
  std::vector<Commodity> out(demands.size());
  for (std::size_t i = 0; i < demands.size(); ++i) {
    const Demand& d = demands[i];
    Commodity& c = out[i];
    if (d.src == d.dst) {  // an empty path: share 1, as the scorer counts it
      c.kind = Commodity::self;
      continue;
    }
    const Port& sp = f.port(d.src);
    const Port& dp = f.port(d.dst);
    c.kind = Commodity::unreachable;
    if (!sp.usable() || !dp.usable()) continue;
    c.up = f.channel(d.src);
    c.cap = net.capacity(c.up);
    c.weight = 1.0 / c.cap;
    if (sp.remote == d.dst) {  // CA cabled to CA
      c.kind = Commodity::direct;
      continue;
    }
    c.from = net.vertex_of(sp.remote.node);
    c.to = net.vertex_of(dp.remote.node);
    if (c.from == kNoVertex || c.to == kNoVertex) continue;
    c.down = f.channel(dp.remote);
    c.kind = Commodity::switched;
  }
  return out;
}

}  // namespace psssp::bound
