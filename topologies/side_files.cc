// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Root GUID file and torus-2QoS.conf for generated fabrics.
#include "side_files.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <ostream>
#include <stdexcept>

namespace psssp::topo {
namespace {

std::string hex_guid(Guid guid) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, guid);
  return buf;
}

}  // namespace

void write_root_guids(std::ostream& out, const Fabric& fabric, const TopologySpec& spec) {
  if (spec.roots.empty())
    throw std::invalid_argument("--roots: family " + spec.family + " has no root switches");
  for (std::size_t r : spec.roots)
    out << hex_guid(fabric.node(static_cast<NodeId>(r)).guid) << '\n';
}

void write_torus_conf(std::ostream& out, const Fabric& fabric, const TopologySpec& spec) {
  if (!spec.grid)
    throw std::invalid_argument("--torus-conf: family " + spec.family + " is no torus or mesh");
  std::vector<unsigned> dims = spec.grid->dims;
  if (dims.size() > 3)
    throw std::invalid_argument("--torus-conf: torus-2QoS handles at most 3 dimensions");
  dims.resize(3, 1);
  const char* kind = spec.grid->wrap ? "torus" : "mesh";
  out << "# torus-2QoS configuration for " << fabric.node_count() << "-node " << kind << '\n';
  out << kind << ' ' << dims[0] << ' ' << dims[1] << ' ' << dims[2] << '\n';
  // A port group holds the parallel cables of one direction or the host ports
  // plus switch port 0.
  unsigned host_ports = 0;
  for (NodeId sw : fabric.switches()) {
    unsigned n = 0;
    for (const Port& p : fabric.node(sw).ports)
      n += p.connected() && !fabric.node(p.remote.node).is_switch();
    host_ports = std::max(host_ports, n);
  }
  out << "portgroup_max_ports " << std::max(16u, host_ports + 1) << '\n';
  // Seed at switch 0: both directions of every dimension, which the radix-4
  // case needs and the others accept.
  const char axis[] = {'x', 'y', 'z'};
  const Guid origin = fabric.node(0).guid;
  std::size_t stride = 1;
  for (std::size_t i = 0; i < 3; stride *= dims[i], ++i) {
    if (dims[i] < 2) continue;
    out << axis[i] << "p_link " << hex_guid(origin) << ' '
        << hex_guid(fabric.node(static_cast<NodeId>(stride)).guid) << '\n';
    if (spec.grid->wrap && dims[i] > 2)  // radix 2: both directions reach one switch
      out << axis[i] << "m_link " << hex_guid(origin) << ' '
          << hex_guid(fabric.node(static_cast<NodeId>(stride * (dims[i] - 1))).guid) << '\n';
  }
}

}  // namespace psssp::topo
