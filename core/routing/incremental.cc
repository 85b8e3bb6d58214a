// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// route_psssp_incremental: keep, repair, rebalance (incremental.h).
#include "incremental.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "destinations.h"
#include "hop_layers.h"
#include "lid_columns.h"
#include "link_loads.h"
#include "parallel/run_workers.h"
#include "parallel/thread_count.h"
#include "routing_graph.h"
#include "search_kernels.h"

namespace psssp {
namespace routing {
namespace {

// Columns are LID-major (as in the router): one destination's entries for
// every switch are contiguous.
class IncrementalRouter {
 public:
  IncrementalRouter(const Fabric& fabric, const ForwardingTables& previous,
                    const RoutingOptions& options, const IncrementalOptions& incremental,
                    const ForwardingTables* reference)
      : fabric_(fabric),
        previous_(previous),
        reference_(reference),
        options_(options),
        incremental_(incremental),
        graph_(make_routing_graph(fabric)),
        problem_(make_problem(fabric, graph_, options)),
        loads_(graph_, options),
        tree_(graph_.vertex_count),
        columns_((static_cast<std::size_t>(fabric.max_lid()) + 1) * graph_.vertex_count, kNoPath),
        state_(graph_.vertex_count, kIntact),
        cost_(graph_.vertex_count, 0.0),
        threads_(parallel::effective_threads(options.threads)),
        sources_(problem_.sources_at.begin(), problem_.sources_at.end()) {}

  // False (with `reason`) when the fabric needs a full routing.
  bool run(RoutingResult& result, std::string& reason);

 private:
  enum : std::uint8_t { kIntact = 0, kBroken = 1, kCut = 2 };  // kCut: intact, chain broken below

  PortNum* column(Lid lid) {
    return &columns_[static_cast<std::size_t>(lid) * graph_.vertex_count];
  }
  Layers layers_of(const Destination& d) const {
    return Layers{d.vertex, layers_.hops(d.vertex), layers_.order(d.vertex),
                  layers_.reached(d.vertex)};
  }
  // The forward edge an entry uses, if it is a minimal hop towards the root.
  EdgeId minimal_edge(Vertex u, PortNum port, const std::uint16_t* hops) const {
    if (port == 0 || port >= graph_.port_stride) return kNoEdge;
    const EdgeId e = graph_.edge_at_port(u, port);
    if (e == kNoEdge || hops[graph_.target[e]] + 1 != hops[u]) return kNoEdge;
    return e;
  }

  std::uint32_t root_sources(const Destination& d) const {
    return problem_.sources_at[d.vertex] - (d.self_source ? 1u : 0u);
  }
  // Sum of routes over the edges where the paths from u via `a` and via `b`
  // towards d differ (they meet again at the latest at the root); `extra` is
  // added per edge of the path via `b`.
  void path_costs(const Destination& d, EdgeId a, EdgeId b, double extra, double& cost_a,
                  double& cost_b);
  bool try_move(const Destination& d, Vertex u, EdgeId alt);
  std::size_t index_of(const Destination& d) const {
    return static_cast<std::size_t>(&d - problem_.destinations.data());
  }
  void add_intact_load(const Destination& d, std::vector<double>& routes,
                       std::vector<double>& dests, std::vector<double>& sub,
                       std::vector<std::uint8_t>& state) const;
  void load_previous();
  // Marks the entries of d whose next hop is gone; returns how many.
  std::size_t find_broken(const Destination& d);
  // The tree of d over the current columns; with `intact_only` only the
  // switches whose whole path is intact (their routes are known already).
  void build_tree(const Destination& d, bool intact_only);
  void repair(const Destination& d);
  std::size_t rebalance(std::size_t budget);

  const Fabric& fabric_;
  const ForwardingTables& previous_;
  const ForwardingTables* reference_;
  std::vector<const PortNum*> reference_rows_;  // per vertex; null without a reference row
  const RoutingOptions& options_;
  const IncrementalOptions& incremental_;
  RoutingGraph graph_;
  RoutingProblem problem_;
  HopLayers layers_;
  LinkLoads loads_;
  SearchTree tree_;
  std::vector<PortNum> columns_;
  std::vector<std::uint8_t> state_;  // per vertex, for the destination at hand
  std::vector<double> cost_;         // per vertex: path cost to the destination at hand
  // Per destination (index into problem_.destinations): its broken switches.
  std::vector<std::vector<Vertex>> broken_;
  unsigned threads_;
  std::vector<double> sources_;           // problem_.sources_at as doubles
  std::vector<std::uint8_t> root_fixed_;  // per destination: its switch's entry set right
  std::vector<std::uint32_t> restored_;   // per destination: entries set back to the reference
  std::uint64_t root_fixes_ = 0;
  std::uint64_t repaired_ = 0;  // entries repair() gave a different port
};

void IncrementalRouter::load_previous() {
  columns_from_tables(previous_, graph_.view, columns_, threads_);
}

std::size_t IncrementalRouter::find_broken(const Destination& d) {
  const std::uint16_t* hops = layers_.hops(d.vertex);
  PortNum* col = column(d.lid);
  std::vector<Vertex>& broken = broken_[index_of(d)];
  for (Vertex u = 0; u < graph_.vertex_count; ++u) {
    if (hops[u] == kUnreached) {
      col[u] = kNoPath;  // no route exists
    } else if (u == d.vertex) {
      root_fixed_[index_of(d)] = col[u] != d.final_port;
      col[u] = d.final_port;
    } else {
      const PortNum* ref = reference_rows_[u];
      if (ref && ref[d.lid] != col[u] && minimal_edge(u, ref[d.lid], hops) != kNoEdge) {
        col[u] = ref[d.lid];
        ++restored_[index_of(d)];
      } else if (minimal_edge(u, col[u], hops) == kNoEdge) {
        broken.push_back(u);
      }
    }
  }
  return broken.size();
}

// Routes per edge of d's switches whose whole path is intact (reverse BFS
// order: a subtree is complete before it moves one hop on), into the
// caller's totals; `sub` and `state` are per-thread scratch.
void IncrementalRouter::add_intact_load(const Destination& d, std::vector<double>& routes,
                                        std::vector<double>& dests, std::vector<double>& sub,
                                        std::vector<std::uint8_t>& state) const {
  const Layers l = layers_of(d);
  const PortNum* col = &columns_[static_cast<std::size_t>(d.lid) * graph_.vertex_count];
  const auto& broken = broken_[index_of(d)];
  if (broken.empty()) {  // the usual case: every path intact, one sweep
    std::copy(sources_.begin(), sources_.end(), sub.begin());
    sub[d.vertex] = 0.0;
    for (std::uint32_t i = l.reached - 1; i >= 1; --i) {
      const Vertex u = l.order[i];
      if (sub[u] == 0.0) continue;
      const EdgeId e = graph_.edge_at_port(u, col[u]);
      routes[e] += sub[u];
      dests[e] += 1.0;
      sub[graph_.target[e]] += sub[u];
    }
    return;
  }
  for (Vertex u : broken) state[u] = kBroken;
  sub[d.vertex] = 0.0;
  for (std::uint32_t i = 1; i < l.reached; ++i) {
    const Vertex u = l.order[i];
    sub[u] = problem_.sources_at[u];
    if (state[u] == kBroken) continue;
    if (state[graph_.target[graph_.edge_at_port(u, col[u])]] != kIntact) state[u] = kCut;
  }
  for (std::uint32_t i = l.reached - 1; i >= 1; --i) {
    const Vertex u = l.order[i];
    if (state[u] != kIntact || sub[u] == 0.0) continue;
    const EdgeId e = graph_.edge_at_port(u, col[u]);
    routes[e] += sub[u];
    dests[e] += 1.0;
    sub[graph_.target[e]] += sub[u];
  }
  for (std::uint32_t i = 0; i < l.reached; ++i) state[l.order[i]] = kIntact;
}

void IncrementalRouter::build_tree(const Destination& d, bool intact_only) {
  const Layers l = layers_of(d);
  const PortNum* col = &columns_[static_cast<std::size_t>(d.lid) * graph_.vertex_count];
  const auto& broken = broken_[index_of(d)];
  tree_.order.clear();
  tree_.order.push_back(d.vertex);
  if (intact_only)
    for (Vertex u : broken) state_[u] = kBroken;
  for (std::uint32_t i = 1; i < l.reached; ++i) {
    const Vertex u = l.order[i];
    // BFS order: the next hop's state is final before u's. Outside
    // intact_only every entry has been checked or repaired.
    if (intact_only && state_[u] == kBroken) continue;
    const EdgeId e = graph_.edge_at_port(u, col[u]);
    tree_.next_edge[u] = e;
    if (intact_only && state_[graph_.target[e]] != kIntact) {
      state_[u] = kCut;
      continue;
    }
    tree_.order.push_back(u);
  }
  if (intact_only)
    for (std::uint32_t i = 0; i < l.reached; ++i) state_[l.order[i]] = kIntact;
}

// Broken switches, nearest to the root first, take the minimal next hop with
// the lowest path cost (sum of link weights, as the full search), the one
// with fewer routes on its link on equal cost, then the lowest port.
void IncrementalRouter::repair(const Destination& d) {
  const Layers l = layers_of(d);
  PortNum* col = column(d.lid);
  const double* w = loads_.weights();
  const auto& routes = loads_.routes();
  const auto& broken = broken_[index_of(d)];
  for (Vertex u : broken) state_[u] = kBroken;
  cost_[d.vertex] = 0.0;
  for (std::uint32_t i = 1; i < l.reached; ++i) {
    const Vertex u = l.order[i];
    if (state_[u] != kBroken) {
      const EdgeId e = graph_.edge_at_port(u, col[u]);
      cost_[u] = w[e] + cost_[graph_.target[e]];
      continue;
    }
    EdgeId best = kNoEdge;
    double best_cost = 0.0;
    for (EdgeId e = graph_.first_edge[u]; e < graph_.first_edge[u + 1]; ++e) {
      if (l.hops[graph_.target[e]] + 1 != l.hops[u]) continue;
      const double c = w[e] + cost_[graph_.target[e]];
      if (best == kNoEdge || c < best_cost || (c == best_cost && routes[e] < routes[best])) {
        best = e;
        best_cost = c;
      }
    }
    if (col[u] != graph_.out_port[best]) ++repaired_;
    col[u] = graph_.out_port[best];  // BFS: a reached vertex has a minimal edge
    cost_[u] = best_cost;
    state_[u] = kIntact;
  }
}

void IncrementalRouter::path_costs(const Destination& d, EdgeId a, EdgeId b, double extra,
                                   double& cost_a, double& cost_b) {
  const auto& routes = loads_.routes();
  const PortNum* col = column(d.lid);
  cost_a = cost_b = 0.0;
  // Both paths are minimal: they reach each hop level together.
  while (a != b) {
    cost_a += routes[a];
    cost_b += routes[b] + extra;
    const Vertex va = graph_.target[a], vb = graph_.target[b];
    if (va == vb || va == d.vertex) break;
    a = graph_.edge_at_port(va, col[va]);
    b = graph_.edge_at_port(vb, col[vb]);
  }
}

// Moves d's entry at u onto `alt` if that lowers the moved routes' path cost
// (routes over the links where old and new path differ, the moved routes
// counted on the new one) by more than the margin.
bool IncrementalRouter::try_move(const Destination& d, Vertex u, EdgeId alt) {
  PortNum* col = column(d.lid);
  const EdgeId now = graph_.edge_at_port(u, col[u]);
  if (now == alt) return false;
  const double margin = incremental_.margin;
  double old_cost, new_cost;
  path_costs(d, now, alt, 0.0, old_cost, new_cost);
  if (!(new_cost + margin < old_cost)) return false;  // even with no routes moved
  build_tree(d, false);
  const std::uint32_t at_root = root_sources(d);
  loads_.apply_tree(tree_, problem_.sources_at.data(), at_root, -1);
  const double flow = loads_.subtree_sources()[u];
  loads_.apply_tree(tree_, problem_.sources_at.data(), at_root, +1);
  if (flow == 0.0) return false;
  path_costs(d, now, alt, flow, old_cost, new_cost);
  if (!(new_cost + margin < old_cost)) return false;
  loads_.apply_tree(tree_, problem_.sources_at.data(), at_root, -1);
  col[u] = graph_.out_port[alt];
  build_tree(d, false);
  loads_.apply_tree(tree_, problem_.sources_at.data(), at_root, +1);
  return true;
}

// A link carrying well under the mean of its switch's links (a cable that
// came back, or tables made for another fabric) takes on routes: those its
// switch x sends over its other links, and those x's neighbours p send
// elsewhere although x, which forwards them over the light link, is as near
// (the choice of a spine is made below it). One entry at a time, each only
// if try_move finds it cheaper; at most `budget` moves.
std::size_t IncrementalRouter::rebalance(std::size_t budget) {
  const auto& routes = loads_.routes();
  std::vector<std::vector<EdgeId>> into(graph_.vertex_count);
  for (EdgeId e = 0; e < graph_.edge_count(); ++e) into[graph_.target[e]].push_back(e);
  std::size_t moved = 0;
  for (Vertex x = 0; x < graph_.vertex_count && moved < budget; ++x) {
    const EdgeId first = graph_.first_edge[x], last = graph_.first_edge[x + 1];
    if (last - first < 2) continue;
    double sum = 0.0;
    for (EdgeId e = first; e < last; ++e) sum += routes[e];
    const double mean = sum / static_cast<double>(last - first), light = 0.5 * mean;
    for (EdgeId e = first; e < last && moved < budget; ++e) {
      if (!(routes[e] + incremental_.margin < light)) continue;
      const Vertex y = graph_.target[e];
      for (const Destination& d : problem_.destinations) {
        if (moved >= budget || routes[e] + incremental_.margin >= mean) break;
        if (!d.loads || d.vertex == kNoVertexId || d.vertex == x) continue;
        const std::uint16_t* hops = layers_.hops(d.vertex);
        if (hops[x] == kUnreached || hops[y] + 1 != hops[x]) continue;
        if (column(d.lid)[x] != graph_.out_port[e]) {
          if (try_move(d, x, e)) ++moved;
          continue;
        }
        for (const EdgeId in : into[x]) {
          const Vertex p = graph_.source[in];
          if (p != d.vertex && hops[p] == hops[x] + 1 && moved < budget && try_move(d, p, in))
            ++moved;
        }
      }
    }
  }
  return moved;
}

bool IncrementalRouter::run(RoutingResult& result, std::string& reason) {
  std::vector<bool> roots(graph_.vertex_count, false);
  for (const Destination& d : problem_.destinations)
    if (d.vertex != kNoVertexId) roots[d.vertex] = true;
  layers_ = HopLayers(graph_, roots, threads_, false);
  load_previous();
  broken_.resize(problem_.destinations.size());
  root_fixed_.assign(problem_.destinations.size(), 0);
  restored_.assign(problem_.destinations.size(), 0);
  reference_rows_.assign(graph_.vertex_count, nullptr);
  if (reference_ && reference_->lid_count() > fabric_.max_lid())
    for (Vertex v = 0; v < graph_.vertex_count; ++v)
      if (reference_->has_switch(graph_.view.node_of_vertex[v]))
        reference_rows_[v] = reference_->row(graph_.view.node_of_vertex[v]);

  const unsigned threads = threads_;
  const auto& dests = problem_.destinations;
  std::uint64_t entries = 0, to_repair = 0, restored = 0;
  std::vector<bool> routed_lid(static_cast<std::size_t>(fabric_.max_lid()) + 1, false);
  for (const Destination& d : dests)
    if (d.vertex != kNoVertexId) {
      routed_lid[d.lid] = true;
      entries += layers_.reached(d.vertex);
    }
  // Each destination writes only its own column and broken list; the
  // routes whose paths are intact are summed per thread in the same pass,
  // while the column is in cache.
  const std::size_t edges = graph_.edge_count(), n = graph_.vertex_count;
  std::vector<std::vector<double>> routes(threads), counts(threads), sub(threads);
  std::vector<std::vector<std::uint8_t>> state(threads);
  parallel::parallel_for(dests.size(), threads, [&](std::size_t i, unsigned t) {
    const Destination& d = dests[i];
    if (d.vertex == kNoVertexId) return;
    find_broken(d);
    if (!d.loads) return;
    if (routes[t].empty()) {
      routes[t].assign(edges, 0.0);
      counts[t].assign(edges, 0.0);
      sub[t].assign(n, 0.0);
      state[t].assign(n, kIntact);
    }
    add_intact_load(d, routes[t], counts[t], sub[t], state[t]);
  });
  for (const Destination& d : dests)
    if (d.vertex != kNoVertexId) {
      to_repair += broken_[index_of(d)].size();
      root_fixes_ += root_fixed_[index_of(d)];
      restored += restored_[index_of(d)];
    }
  // LIDs nobody can route to (unroutable ports, unused LIDs): no entries.
  for (std::size_t lid = 0; lid < routed_lid.size(); ++lid)
    if (!routed_lid[lid]) std::fill_n(column(static_cast<Lid>(lid)), graph_.vertex_count, kNoPath);
  if (entries == 0) {
    reason = "nothing to route";
    return false;
  }
  const double share = static_cast<double>(to_repair) / static_cast<double>(entries);
  if (share > incremental_.full_above) {
    char text[160];
    std::snprintf(
        text, sizeof text, "%llu of %llu entries (%.1f%%) lost their next hop, more than %.1f%%",
        static_cast<unsigned long long>(to_repair), static_cast<unsigned long long>(entries),
        100.0 * share, 100.0 * incremental_.full_above);
    reason = text;
    return false;
  }

  // The intact routes' loads are in place before any repair chooses a path;
  // then each destination with broken entries in routing order: its partial
  // tree out, repaired, its whole tree in.
  for (unsigned t = 0; t < threads; ++t)
    if (!routes[t].empty()) loads_.add_totals(routes[t], counts[t]);
  for (const Destination& d : dests) {
    if (d.vertex == kNoVertexId || broken_[index_of(d)].empty()) continue;
    const std::uint32_t at_root = root_sources(d);
    if (d.loads) {
      build_tree(d, true);
      loads_.apply_tree(tree_, problem_.sources_at.data(), at_root, -1);
    }
    repair(d);
    if (d.loads) {
      build_tree(d, false);
      loads_.apply_tree(tree_, problem_.sources_at.data(), at_root, +1);
    }
  }

  std::size_t budget = 0;
  if (incremental_.rebalance > 0) budget = static_cast<std::size_t>(incremental_.rebalance);
  if (incremental_.rebalance < 0) {
    double sum = 0.0;
    for (double r : loads_.routes()) sum += r;
    const double mean = graph_.edge_count() ? sum / graph_.edge_count() : 0.0;
    budget = std::max<std::size_t>(static_cast<std::size_t>(to_repair),
                                   static_cast<std::size_t>(2.0 * mean));
  }
  const std::size_t moved = budget ? rebalance(budget) : 0;

  result.lfts = tables_from_columns(fabric_, graph_.view, columns_, threads_);
  result.channel_load.assign(fabric_.channel_count(), 0.0);
  for (EdgeId e = 0; e < graph_.edge_count(); ++e)
    result.channel_load[graph_.channel[e]] += loads_.routes()[e];
  result.unreachable = problem_.unroutable;
  auto& inc = result.incremental;
  inc.used = true;
  inc.entries = entries;
  inc.rebalanced = moved;
  // Entries that differ from the previous tables: the destination
  // switches' own entries set right, repairs that chose a different port,
  // and the moves (an entry moved twice counts twice).
  const std::uint64_t changed = root_fixes_ + repaired_ + moved + restored;
  inc.restored = restored;
  inc.repaired = root_fixes_ + repaired_;
  inc.kept = entries > changed ? entries - changed : 0;
  return true;
}

}  // namespace
}  // namespace routing

RoutingResult route_psssp_incremental(const Fabric& fabric, const ForwardingTables& previous,
                                      const RoutingOptions& options,
                                      const IncrementalOptions& incremental,
                                      const ForwardingTables* reference) {
  const auto start = std::chrono::steady_clock::now();
  std::string reason;
  if (!options.minimal) {
    reason = "non-minimal routing re-routes in full";
  } else if (!fabric.switches().empty()) {
    RoutingResult result;
    routing::IncrementalRouter router(fabric, previous, options, incremental, reference);
    if (router.run(result, reason)) {
      result.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return result;
    }
  }
  RoutingResult result = route_psssp(fabric, options);
  result.incremental.reason = reason;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace psssp
