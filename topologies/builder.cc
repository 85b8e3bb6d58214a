// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "builder.h"

#include <algorithm>
#include <stdexcept>

namespace psssp::topo {
namespace {

struct PortPlan {
  unsigned host_ports = 0;  // ports 1..host_ports face hosts
  unsigned next_auto = 0;   // last auto-assigned port
  unsigned highest = 0;     // highest port in use
  std::vector<bool> used;   // by port number
};

unsigned take_port(PortPlan& plan, unsigned slot, const std::string& name) {
  const unsigned port = slot == 0 ? plan.host_ports + ++plan.next_auto : plan.host_ports + slot;
  if (port > kMaxSwitchPorts)
    throw std::invalid_argument("switch " + name + " needs more than " +
                                std::to_string(kMaxSwitchPorts) + " ports");
  if (plan.used.size() <= port) plan.used.resize(port + 1, false);
  if (plan.used[port])
    throw std::invalid_argument("switch " + name + " port " + std::to_string(port) + " used twice");
  plan.used[port] = true;
  plan.highest = std::max(plan.highest, port);
  return port;
}

}  // namespace

Fabric build_fabric(const TopologySpec& spec, const BuildOptions& options) {
  const std::size_t n = spec.switches.size();
  if (n == 0) throw std::invalid_argument("topology has no switches");

  // The second host port lands on the next host-carrying switch.
  std::vector<std::size_t> edge;
  for (std::size_t i = 0; i < n; ++i)
    if (spec.switches[i].hosts > 0) edge.push_back(i);
  std::vector<std::size_t> second_of(n, n);  // switch -> switch taking its hosts' port 2
  std::vector<unsigned> second_hosts(n, 0);  // hosts whose port 2 lands here
  if (options.dual_port)
    for (std::size_t k = 0; k < edge.size(); ++k) {
      second_of[edge[k]] = edge[(k + 1) % edge.size()];
      second_hosts[second_of[edge[k]]] += spec.switches[edge[k]].hosts;
    }

  std::vector<PortPlan> plans(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t named =
        i < spec.host_descriptions.size() ? spec.host_descriptions[i].size() : 0;
    if (named != 0 && named != spec.switches[i].hosts)
      throw std::invalid_argument("switch " + spec.switches[i].name + " has " +
                                  std::to_string(spec.switches[i].hosts) + " hosts but " +
                                  std::to_string(named) + " host descriptions");
    plans[i].host_ports = spec.switches[i].hosts + second_hosts[i];
    plans[i].highest = plans[i].host_ports;
  }
  struct Wire {
    std::size_t a, b;
    unsigned pa, pb;
  };
  std::vector<Wire> wires;
  wires.reserve(spec.cables.size());
  for (const CableSpec& c : spec.cables) {
    if (c.a >= n || c.b >= n || c.a == c.b)
      throw std::invalid_argument("bad cable between switches " + std::to_string(c.a) + " and " +
                                  std::to_string(c.b));
    const unsigned pa = take_port(plans[c.a], c.a_slot, spec.switches[c.a].name);
    const unsigned pb = take_port(plans[c.b], c.b_slot, spec.switches[c.b].name);
    wires.push_back({c.a, c.b, pa, pb});
  }

  Fabric fabric;
  for (std::size_t i = 0; i < n; ++i) {
    const SwitchSpec& s = spec.switches[i];
    const unsigned ports =
        std::max({plans[i].highest, plans[i].host_ports + s.min_fabric_ports, 1u});
    if (ports > kMaxSwitchPorts)
      throw std::invalid_argument("switch " + s.name + " needs " + std::to_string(ports) +
                                  " ports (max " + std::to_string(kMaxSwitchPorts) + ")");
    const NodeId id = fabric.add_node(NodeType::switch_node, s.name, static_cast<PortNum>(ports));
    Node& node = fabric.node(id);
    node.description = s.name;
    node.guid = node.system_image_guid = switch_guid(i);
    node.ports[0].guid = node.guid;
  }
  for (const Wire& w : wires)
    fabric.connect({static_cast<NodeId>(w.a), static_cast<PortNum>(w.pa)},
                   {static_cast<NodeId>(w.b), static_cast<PortNum>(w.pb)}, options.rate);

  const PortNum host_port_count = options.dual_port ? 2 : 1;
  std::vector<unsigned> second_next(n, 0);  // next free port-2 slot per switch
  std::size_t h = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (unsigned k = 0; k < spec.switches[i].hosts; ++k, ++h) {
      const std::string name = "h-" + std::to_string(h);
      const NodeId id = fabric.add_node(NodeType::ca, name, host_port_count);
      Node& node = fabric.node(id);
      const bool described =
          i < spec.host_descriptions.size() && !spec.host_descriptions[i].empty();
      node.description = described ? spec.host_descriptions[i][k] : name;
      node.guid = node.system_image_guid = host_guid(h);
      for (PortNum p = 1; p <= host_port_count; ++p) node.ports[p].guid = node.guid + p;
      fabric.connect({id, 1}, {static_cast<NodeId>(i), static_cast<PortNum>(k + 1)}, options.rate);
      if (options.dual_port) {
        const std::size_t j = second_of[i];
        const unsigned port = spec.switches[j].hosts + ++second_next[j];
        fabric.connect({id, 2}, {static_cast<NodeId>(j), static_cast<PortNum>(port)}, options.rate);
      }
    }
  fabric.index();
  return fabric;
}

}  // namespace psssp::topo
