// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "dot_writer.h"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <map>
#include <ostream>
#include <vector>

#include "fabric/tree_roots.h"
#include "output_util.h"

namespace psssp::sim {
namespace {

constexpr std::size_t kNeatoLimit = 150;    // switches; sfdp above
constexpr std::size_t kLabelLimit = 200;    // switches; points without labels above
constexpr std::size_t kTallTreeLimit = 64;  // switches; larger trees are drawn taller

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (const char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    if (ch == '\n') {
      out += "\\n";
      continue;
    }
    out += ch;
  }
  return out + "\"";
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// Levels of a fat tree, roots 0; empty if the fabric is no tree.
std::map<NodeId, unsigned> tree_levels(const Fabric& f) {
  std::map<NodeId, unsigned> level;
  const std::vector<NodeId> roots = fat_tree_roots(f);
  std::deque<NodeId> queue;
  for (NodeId r : roots) {
    level[r] = 0;
    queue.push_back(r);
  }
  while (!queue.empty()) {
    const NodeId u = queue.front();
    queue.pop_front();
    const Node& n = f.node(u);
    for (PortNum p = 1; p < n.ports.size(); ++p) {
      const Port& port = n.ports[p];
      if (!port.connected() || !f.node(port.remote.node).is_switch()) continue;
      if (level.emplace(port.remote.node, level[u] + 1).second) queue.push_back(port.remote.node);
    }
  }
  return level;
}

// HSV colour of a load t = load / busiest in 0..1: blue (idle) .. red.
std::string load_colour(double t) {
  char color[48];
  std::snprintf(color, sizeof color, "%.3f 0.850 0.850", (1.0 - t) * 2.0 / 3.0);
  return color;
}

// The colour scale as a node of its own: five steps from idle to the busiest
// cable, each with its load, so the picture can be read without the file.
void write_legend(std::ostream& out, double busiest, bool tree) {
  out << "  legend [shape=plaintext, fontsize=9, label=<<TABLE BORDER=\"0\" CELLBORDER=\"1\" "
         "CELLSPACING=\"0\"><TR><TD COLSPAN=\"5\">load per cable (larger direction)</TD></TR>"
         "<TR>";
  for (int i = 0; i <= 4; ++i) {
    const double t = i / 4.0;
    out << "<TD BGCOLOR=\"" << load_colour(t) << "\">" << number(t * busiest) << "</TD>";
  }
  out << "</TR></TABLE>>];\n";
  if (tree) out << "  { rank=sink; legend; }\n";
}

double load_of(const LinkLoads& loads, const Fabric& f, PortRef p, bool& known) {
  const auto it = loads.find({f.node(p.node).guid, p.port});
  if (it == loads.end()) return 0.0;
  known = true;
  return it->second;
}

// What the parts of the picture share: the switches' dot ids, their tree
// levels (empty if the fabric is no tree).
struct DotFabric {
  DotFabric(const Fabric& fabric, const DotOptions& options)
      : f(fabric), o(options), level(tree_levels(fabric)) {
    const std::vector<NodeId>& switches = f.switches();
    for (std::size_t i = 0; i < switches.size(); ++i) index[switches[i]] = i;
    tree = !level.empty();
    labels = switches.size() <= kLabelLimit;
  }
  unsigned level_of(NodeId sw) const {
    const auto it = level.find(sw);
    return it == level.end() ? 0u : it->second;
  }

  const Fabric& f;
  const DotOptions& o;
  std::map<NodeId, std::size_t> index;
  std::map<NodeId, unsigned> level;
  bool tree = false, labels = false;
};

// A cable between switches and its loads both ways.
struct Cable {
  PortRef a, b;
  double ab = 0, ba = 0;
  bool known = false;
};

struct Cables {
  std::vector<Cable> list;
  double busiest = 0;
  std::map<NodeId, double> host_load;  // per switch: the busiest of its host cables
};

// Cables between switches, each once (from the end with the lower node id,
// or the lower port on a cable from a switch to itself).
Cables collect_cables(const DotFabric& d) {
  const Fabric& f = d.f;
  Cables cables;
  for (NodeId sw : f.switches()) {
    const Node& n = f.node(sw);
    for (PortNum p = 1; p < n.ports.size(); ++p) {
      const Port& port = n.ports[p];
      if (!port.connected()) continue;
      const PortRef a{sw, p};
      if (!f.node(port.remote.node).is_switch()) {
        if (d.o.loads) {
          bool known = false;
          const double load = std::max(load_of(*d.o.loads, f, a, known),
                                       load_of(*d.o.loads, f, port.remote, known));
          cables.host_load[sw] = std::max(cables.host_load[sw], load);
        }
        continue;
      }
      if (port.remote.node < sw || (port.remote.node == sw && port.remote.port < p)) continue;
      Cable c{a, port.remote};
      if (d.tree && d.level_of(c.b.node) < d.level_of(c.a.node))
        std::swap(c.a, c.b);  // roots on top
      if (d.o.loads) {
        c.ab = load_of(*d.o.loads, f, c.a, c.known);
        c.ba = load_of(*d.o.loads, f, c.b, c.known);
        cables.busiest = std::max({cables.busiest, c.ab, c.ba});
      }
      cables.list.push_back(c);
    }
  }
  return cables;
}

// The comment line, the graph's attributes and the node and edge defaults.
void write_header(std::ostream& out, const DotFabric& d, const Cables& cables) {
  const std::size_t switches = d.f.switches().size();
  const char* layout = d.tree ? "dot" : switches <= kNeatoLimit ? "neato" : "sfdp";
  out << "// psssp-sim convert --format dot: " << switches << " switches, " << cables.list.size()
      << " switch-to-switch cables" << (d.tree ? ", a fat tree" : "") << "\n"
      << "graph fabric {\n"
      << "  graph [layout=" << layout
      << ", overlap=false, outputorder=edgesfirst, splines=false, fontsize=10";
  if (d.tree) out << ", ranksep=1.2, nodesep=0.05";
  if (d.tree && switches > kTallTreeLimit) out << ", ratio=0.35";  // not a thin strip
  if (!d.o.title.empty()) out << ", labelloc=t, label=" << quoted(d.o.title);
  if (d.o.loads) out << ", psssp_busiest=" << number(cables.busiest);
  out << "];\n";
  if (d.labels)
    out << "  node [shape=box, style=filled, fillcolor=white, fontsize=8, height=0.2, "
           "margin=0.03];\n";
  else
    out << "  node [shape=point, width=0.06, label=\"\"];\n";
  out << "  edge [color=\"#888888\"];\n";
}

// A node per switch; in a tree, each level on one rank.
void write_switches(std::ostream& out, const DotFabric& d, Cables& cables) {
  const Fabric& f = d.f;
  for (NodeId sw : f.switches()) {
    const Node& n = f.node(sw);
    unsigned hosts = 0;
    for (PortNum p = 1; p < n.ports.size(); ++p)
      if (n.ports[p].connected() && !f.node(n.ports[p].remote.node).is_switch()) ++hosts;
    const std::string name = n.description.empty() ? n.name : n.description;
    out << "  s" << d.index.at(sw) << " [guid=\"" << hex_guid(n.guid) << "\", hosts=" << hosts;
    if (d.labels)
      out << ", label=" << quoted(name + (hosts ? "\n" + std::to_string(hosts) + " hosts" : ""));
    out << ", tooltip=" << quoted(name + " " + hex_guid(n.guid));
    if (d.tree) out << ", level=" << d.level_of(sw);
    if (d.o.loads) out << ", host_load=" << number(cables.host_load[sw]);
    out << "];\n";
  }
  if (d.tree) {
    std::map<unsigned, std::vector<std::size_t>> ranks;
    for (NodeId sw : f.switches()) ranks[d.level_of(sw)].push_back(d.index.at(sw));
    for (const auto& [lvl, members] : ranks) {
      out << "  { rank=same;";
      for (std::size_t i : members) out << " s" << i << ";";
      out << " }\n";
    }
  }
}

// An edge per cable, coloured and widened by its load.
void write_cables(std::ostream& out, const DotFabric& d, const Cables& cables) {
  const Fabric& f = d.f;
  for (const Cable& c : cables.list) {
    const Port& pa = f.port(c.a);
    out << "  s" << d.index.at(c.a.node) << " -- s" << d.index.at(c.b.node) << " [ports=\""
        << int{c.a.port} << ":" << int{c.b.port} << "\", gbps=" << number(pa.rate.gbps());
    if (!pa.healthy || !f.port(c.b).healthy) out << ", style=dashed, down=true";
    if (d.o.loads && c.known) {
      const double load = std::max(c.ab, c.ba);
      const double t = cables.busiest > 0 ? load / cables.busiest : 0.0;
      out << ", load_fwd=" << number(c.ab) << ", load_back=" << number(c.ba)
          << ", load=" << number(load) << ", color=\"" << load_colour(t)
          << "\", penwidth=" << number(0.4 + (d.labels ? 4.6 : 1.6) * t)
          << ", tooltip=" << quoted("load " + number(c.ab) + " / " + number(c.ba));
    }
    out << "];\n";
  }
}

}  // namespace

void write_fabric_dot(std::ostream& out, const Fabric& f, const DotOptions& o) {
  const DotFabric d(f, o);
  Cables cables = collect_cables(d);
  write_header(out, d, cables);
  write_switches(out, d, cables);
  write_cables(out, d, cables);
  if (o.loads) write_legend(out, cables.busiest, d.tree);
  out << "}\n";
}

}  // namespace psssp::sim
