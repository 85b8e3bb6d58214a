// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Torus and mesh: dimension-ordered names and fixed port slots so that every
// switch has the same port layout (hosts, then x+, x-, y+, y-, ...).
#include <stdexcept>

#include "families.h"

namespace psssp::topo {

TopologySpec grid(const std::vector<unsigned>& dims, bool wrap, unsigned hosts_per_switch) {
  const char* family = wrap ? "torus" : "mesh";
  if (dims.empty()) throw std::invalid_argument(std::string(family) + ": no dimensions");
  std::size_t count = 1;
  for (unsigned d : dims) {
    if (d == 0) throw std::invalid_argument(std::string(family) + ": dimension of size 0");
    count *= d;
    if (count > 100000) throw std::invalid_argument(std::string(family) + ": too many switches");
  }
  // Dimensions of size 1 get no port slots.
  std::vector<unsigned> slot_base(dims.size(), 0);
  unsigned active = 0;
  for (std::size_t i = 0; i < dims.size(); ++i)
    if (dims[i] > 1) slot_base[i] = 2 * active++;

  TopologySpec spec;
  spec.family = family;
  spec.grid = GridShape{dims, wrap};
  for (std::size_t s = 0; s < count; ++s) {
    std::string name = "sw";
    for (std::size_t i = 0, rest = s; i < dims.size(); rest /= dims[i], ++i)
      name += "-" + std::to_string(rest % dims[i]);
    spec.switches.push_back({name, hosts_per_switch, 2 * active});
  }
  std::size_t stride = 1;
  for (std::size_t i = 0; i < dims.size(); stride *= dims[i], ++i) {
    if (dims[i] == 1) continue;
    const unsigned plus = slot_base[i] + 1, minus = slot_base[i] + 2;
    for (std::size_t s = 0; s < count; ++s) {
      const std::size_t c = (s / stride) % dims[i];
      if (c + 1 < dims[i])
        spec.cables.push_back({s, s + stride, plus, minus});
      else if (wrap)  // size 2: a second cable between the same pair
        spec.cables.push_back({s, s - c * stride, plus, minus});
    }
  }
  return spec;
}

TopologySpec hypercube(unsigned dim, unsigned hosts_per_switch) {
  if (dim > 16) throw std::invalid_argument("hypercube: dimension above 16");
  const std::size_t count = std::size_t{1} << dim;
  TopologySpec spec;
  spec.family = "hypercube";
  for (std::size_t s = 0; s < count; ++s)
    spec.switches.push_back({"hc-" + std::to_string(s), hosts_per_switch, dim});
  for (unsigned i = 0; i < dim; ++i)
    for (std::size_t s = 0; s < count; ++s)
      if (!(s >> i & 1)) spec.cables.push_back({s, s | std::size_t{1} << i, i + 1, i + 1});
  return spec;
}

TopologySpec hyperx(const std::vector<unsigned>& dims, unsigned cables, unsigned hosts_per_switch) {
  if (dims.empty() || cables == 0)
    throw std::invalid_argument("hyperx: need dimensions and cables");
  std::size_t count = 1;
  unsigned ports = 0;  // switch-to-switch ports
  std::vector<unsigned> slot_base;
  for (unsigned d : dims) {
    if (d == 0) throw std::invalid_argument("hyperx: dimension of size 0");
    count *= d;
    if (count > 100000) throw std::invalid_argument("hyperx: too many switches");
    slot_base.push_back(ports);
    ports += (d - 1) * cables;
  }
  TopologySpec spec;
  spec.family = "hyperx";
  for (std::size_t s = 0; s < count; ++s) {
    std::string name = "hx";
    for (std::size_t i = 0, rest = s; i < dims.size(); rest /= dims[i], ++i)
      name += "-" + std::to_string(rest % dims[i]);
    spec.switches.push_back({name, hosts_per_switch, ports});
  }
  // Slot of the cable towards coordinate v in dimension i, seen from c.
  auto slot = [&](std::size_t i, unsigned c, unsigned v, unsigned t) {
    return slot_base[i] + (v < c ? v : v - 1) * cables + t + 1;
  };
  std::size_t stride = 1;
  for (std::size_t i = 0; i < dims.size(); stride *= dims[i], ++i)
    for (std::size_t s = 0; s < count; ++s) {
      const auto c = static_cast<unsigned>((s / stride) % dims[i]);
      for (unsigned v = c + 1; v < dims[i]; ++v)
        for (unsigned t = 0; t < cables; ++t)
          spec.cables.push_back({s, s + (v - c) * stride, slot(i, c, v, t), slot(i, v, c, t)});
    }
  return spec;
}

}  // namespace psssp::topo
