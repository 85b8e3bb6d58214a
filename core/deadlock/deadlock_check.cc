// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "deadlock_check.h"

#include <chrono>
#include <set>

#include "cycle_search.h"
#include "dependency_graph.h"
#include "route_walk.h"

namespace psssp::deadlock {

DeadlockReport check_deadlock(const Fabric& fabric, const ForwardingTables& lfts,
                              const SlSource& sls, const Sl2VlTables& sl2vl, RouteScope scope) {
  const auto start = std::chrono::steady_clock::now();
  const ChannelDependencies cdg = build_channel_dependencies(fabric, lfts, sls, sl2vl, scope);
  DeadlockReport report;
  report.routes = cdg.routes;
  report.unrouted = cdg.unrouted;
  report.broken = cdg.broken;
  report.loops = cdg.loops;
  report.switch_unrouted = cdg.switch_unrouted;
  report.switch_broken = cdg.switch_broken;
  report.switch_loops = cdg.switch_loops;
  report.dependencies = boost::num_edges(cdg.graph);
  report.dependencies_per_vl = cdg.dependencies_per_vl;
  report.vls = cdg.vls;
  for (const DependencyEdge& e : find_cycle(cdg.graph)) {
    const DependencyVertex v = boost::source(e, cdg.graph);
    CycleLink link;
    link.channel = fabric.channel_port(cdg.channel_of(v));
    link.switch_guid = fabric.node(link.channel.node).guid;
    link.vl = cdg.vl_of(v);
    link.slid = cdg.graph[e].slid;
    link.dlid = cdg.graph[e].dlid;
    report.cycle.push_back(link);
  }
  report.deadlock_free = report.cycle.empty();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

DeadlockReport check_deadlock(const Fabric& fabric, const ForwardingTables& lfts,
                              const SlSource& sls) {
  return check_deadlock(fabric, lfts, sls, Sl2VlTables());
}

DeadlockReport check_deadlock(const Fabric& fabric, const ForwardingTables& lfts) {
  return check_deadlock(fabric, lfts, UniformSl(0), Sl2VlTables());
}

std::string format_cycle(const Fabric& fabric, const DeadlockReport& report) {
  if (report.cycle.empty()) return "no credit loop\n";
  std::set<unsigned> vls;
  for (const CycleLink& l : report.cycle) vls.insert(l.vl);
  std::string out = "credit loop on VL";
  out += vls.size() > 1 ? "s" : "";
  const char* sep = " ";
  for (unsigned vl : vls) {
    out += sep + std::to_string(vl);
    sep = ",";
  }
  out += " over " + std::to_string(report.cycle.size()) + " channels:\n";
  for (const CycleLink& l : report.cycle) {
    const PortRef to = fabric.port(l.channel).remote;
    out += "  " + describe_node(fabric, l.channel.node) + " port " +
           std::to_string(l.channel.port) + " -> " + describe_node(fabric, to.node) + " [VL " +
           std::to_string(l.vl) + "]  route " + std::to_string(l.slid) + " -> " +
           std::to_string(l.dlid) + switch_ends(fabric, l.slid, l.dlid) + "\n";
  }
  return out;
}

std::string switch_ends(const Fabric& fabric, Lid slid, Lid dlid) {
  std::string out;
  for (const auto& [lid, word] : {std::pair<Lid, const char*>{slid, "from"}, {dlid, "to"}}) {
    const PortRef p = fabric.port_of_lid(lid);
    if (!p.valid() || !fabric.node(p.node).is_switch()) continue;
    out +=
        std::string(out.empty() ? " (" : ", ") + word + " switch " + describe_node(fabric, p.node);
  }
  return out.empty() ? out : out + ")";
}

}  // namespace psssp::deadlock
