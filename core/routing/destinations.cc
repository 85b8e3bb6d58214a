// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "destinations.h"

#include <algorithm>
#include <unordered_set>

namespace psssp::routing {
namespace {

// The switch port a CA/router port is cabled to, if it is usable.
bool attached_switch(const Fabric& fabric, const RoutingGraph& graph, PortRef ref, Vertex& vertex,
                     PortNum& port) {
  const Port& p = fabric.port(ref);
  if (!p.usable() || !fabric.node(p.remote.node).is_switch()) return false;
  const Port& back = fabric.port(p.remote);
  if (!back.usable()) return false;
  vertex = graph.view.vertex_of[p.remote.node];
  port = p.remote.port;
  return vertex != kNoVertex;
}

// Round-robin over destination switches: the first destination port of every
// switch (in switch order), then the second of every switch, ... so that
// consecutive searches target different parts of the fabric. The LIDs of one
// port (LMC) stay together: each sees its siblings' paths just placed.
void interleave(std::vector<Destination>& group, std::uint32_t vertex_count) {
  std::vector<std::vector<std::vector<Destination>>> by_vertex(
      static_cast<std::size_t>(vertex_count) + 1);
  for (const Destination& d : group) {
    auto& bucket = by_vertex[d.vertex == kNoVertexId ? vertex_count : d.vertex];
    if (bucket.empty() || bucket.back().back().port != d.port) bucket.emplace_back();
    bucket.back().push_back(d);
  }
  group.clear();
  for (std::size_t round = 0;; ++round) {
    bool any = false;
    for (const auto& bucket : by_vertex)
      if (round < bucket.size()) {
        group.insert(group.end(), bucket[round].begin(), bucket[round].end());
        any = true;
      }
    if (!any) break;
  }
}

// The index of `gbps` in `rates`, appended if new; rates are a handful of
// discrete values, and past 256 of them the first class stands in.
std::uint8_t rate_class(std::vector<double>& rates, double gbps) {
  const auto at = std::find(rates.begin(), rates.end(), gbps);
  if (at != rates.end()) return static_cast<std::uint8_t>(at - rates.begin());
  if (rates.size() > 255) return 0;
  rates.push_back(gbps);
  return static_cast<std::uint8_t>(rates.size() - 1);
}

}  // namespace

RoutingProblem make_problem(const Fabric& fabric, const RoutingGraph& graph,
                            const RoutingOptions& options) {
  RoutingProblem problem;
  const std::unordered_set<Guid> listed(options.guid_list.begin(), options.guid_list.end());
  const bool only = !listed.empty() && options.guid_list_mode == RoutingOptions::GuidListMode::only;
  auto is_listed = [&](PortRef ref) { return listed.count(fabric.port(ref).guid) > 0; };

  problem.sources_at.assign(graph.vertex_count, 0);
  for (const PortRef ref : fabric.host_ports()) {
    Vertex v;
    PortNum sw_port;
    if (!attached_switch(fabric, graph, ref, v, sw_port)) continue;
    if (only && !is_listed(ref)) continue;
    problem.source_ports.push_back(ref);
    problem.source_vertex.push_back(v);
    ++problem.sources_at[v];
    problem.source_rates.push_back(fabric.port(ref).rate.gbps());  // one rate per cable
  }
  // Rates are a handful of discrete values; a switch LID's class is the
  // fastest switch cable's.
  const double top_switch_rate =
      graph.capacity.empty() ? 0.0
                             : *std::max_element(graph.capacity.begin(), graph.capacity.end());
  problem.demand_rates.push_back(top_switch_rate);
  const std::unordered_set<std::uint64_t> source_set = [&] {
    std::unordered_set<std::uint64_t> s;
    for (const PortRef r : problem.source_ports) s.insert((std::uint64_t{r.node} << 8) | r.port);
    return s;
  }();

  // Three groups, each routed as a block: listed (priority) load destinations,
  // other load destinations, destinations that add no load (they see the
  // final weights and disturb nobody).
  std::vector<Destination> groups[3];
  // Ranks count load and no-load destinations separately: the tie-break key
  // of the hosts on a leaf should be 0..k-1 whatever the switch's own LID is.
  std::vector<std::uint32_t> rank_at[2] = {std::vector<std::uint32_t>(graph.vertex_count, 0),
                                           std::vector<std::uint32_t>(graph.vertex_count, 0)};
  for (unsigned l = 1; l <= fabric.max_lid(); ++l) {
    const Lid lid = static_cast<Lid>(l);
    const PortRef owner = fabric.port_of_lid(lid);
    if (!owner.valid()) continue;
    const Node& node = fabric.node(owner.node);
    Destination d;
    d.lid = lid;
    d.port = owner;
    if (node.is_switch()) {
      d.vertex = graph.view.vertex_of[owner.node];
      d.final_port = 0;
      d.loads = options.switch_lids_load && (!only || is_listed(owner));
    } else {
      PortNum sw_port = 0;
      if (attached_switch(fabric, graph, owner, d.vertex, sw_port)) {
        d.final_port = sw_port;
        d.demand_class = rate_class(problem.demand_rates, fabric.port(owner).rate.gbps());
      } else {
        d.vertex = kNoVertexId;
        if (lid == fabric.port(owner).lid)
          problem.unroutable.push_back(
              "LID " + std::to_string(lid) + " (" + describe_node(fabric, owner.node) + " port " +
              std::to_string(owner.port) + "): port is not cabled to a switch");
      }
      d.loads = node.type == NodeType::ca && d.vertex != kNoVertexId && (!only || is_listed(owner));
      d.self_source = source_set.count((std::uint64_t{owner.node} << 8) | owner.port) > 0;
    }
    if (d.vertex != kNoVertexId) d.rank = rank_at[d.loads ? 1 : 0][d.vertex]++;
    const bool priority = !listed.empty() && !only && is_listed(owner);
    groups[d.loads ? (priority ? 0 : 1) : 2].push_back(d);
  }
  for (auto& group : groups) {
    if (options.order == RoutingOptions::Order::interleaved) interleave(group, graph.vertex_count);
    if (options.order == RoutingOptions::Order::switches)
      std::stable_sort(group.begin(), group.end(), [](const Destination& a, const Destination& b) {
        return a.vertex < b.vertex;
      });
    problem.destinations.insert(problem.destinations.end(), group.begin(), group.end());
  }
  return problem;
}

}  // namespace psssp::routing
