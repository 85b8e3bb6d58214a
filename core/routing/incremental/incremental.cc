// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// route_psssp_incremental: keep, repair, rebalance (incremental.h); the
// steps in order (IncrementalRouter::run, incremental_router.h).
#include "incremental.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "incremental_router.h"

namespace psssp {
namespace routing {

bool IncrementalRouter::run(RoutingResult& result, std::string& reason) {
  prepare();
  std::vector<bool> routed_lid;
  const std::uint64_t entries = count_entries(routed_lid);
  if (!load_sums_fit(reason)) return false;
  std::vector<std::vector<std::uint64_t>> packed;
  const std::uint64_t failure_points = check_all(packed);
  clear_unrouted_lids(routed_lid);
  if (!few_enough_failures(entries, failure_points, reason)) return false;
  // The delivering routes' loads are in place before any repair chooses a
  // path.
  add_intact_loads(packed);
  repair_broken();
  std::uint64_t restored = 0, repaired = 0;
  count_changes(restored, repaired);
  const std::size_t moved = improve(rebalance_budget(failure_points, repaired), failure_points);
  fill_result(result, entries, restored, repaired, moved);
  return true;
}

void IncrementalRouter::prepare() {
  find_components();
  columns_from_tables(previous_, graph_.view, columns_, threads_);
  broken_.assign(problem_.destinations.size(), 0);
  failures_.assign(problem_.destinations.size(), 0);
  before_.assign(problem_.destinations.size(), {});
  straight_estimate_.assign(problem_.destinations.size(), {0, -1.0});
  worth_ = worth_per_change();
  reference_rows_.assign(graph_.vertex_count, nullptr);
  if (reference_ && reference_->lid_count() > fabric_.max_lid())
    for (Vertex v = 0; v < graph_.vertex_count; ++v)
      if (reference_->has_switch(graph_.view.node_of_vertex[v]))
        reference_rows_[v] = reference_->row(graph_.view.node_of_vertex[v]);
  find_differences();
}

std::uint64_t IncrementalRouter::count_entries(std::vector<bool>& routed_lid) const {
  std::uint64_t entries = 0;
  routed_lid.assign(static_cast<std::size_t>(fabric_.max_lid()) + 1, false);
  for (const Destination& d : problem_.destinations)
    if (d.vertex != kNoVertexId) {
      routed_lid[d.lid] = true;
      entries += component_size_[component_[d.vertex]];
    }
  return entries;
}

bool IncrementalRouter::load_sums_fit(std::string& reason) const {
  // The packed sums of the check pass (kPackedShift) hold whatever can be
  // routed with InfiniBand's LIDs; beyond that, full routing.
  double sources = 0.0, loaded = 0.0;
  for (const std::uint32_t s : problem_.sources_at) sources += s;
  for (const Destination& d : problem_.destinations) loaded += d.loads;
  if (sources * loaded >= static_cast<double>(kPackedRoutes) ||
      loaded >= static_cast<double>(std::uint64_t{1} << (64 - kPackedShift))) {
    reason = "too many sources and destinations for the incremental load sums";
    return false;
  }
  return true;
}

std::uint64_t IncrementalRouter::check_all(std::vector<std::vector<std::uint64_t>>& packed) {
  // Each destination writes only its own column, counts and copy; the
  // routes whose paths deliver are summed per thread in the same pass,
  // while the column is in cache.
  const unsigned threads = threads_;
  const auto& dests = problem_.destinations;
  const std::size_t edges = graph_.edge_count(), n = graph_.vertex_count;
  std::vector<std::vector<std::uint64_t>> sub(threads);
  std::vector<DeliveryWalk> walks(threads);
  packed.assign(threads, {});
  parallel::parallel_for(dests.size(), threads, [&](std::size_t i, unsigned t) {
    const Destination& d = dests[i];
    if (d.vertex == kNoVertexId) return;
    if (walks[t].state.empty()) walks[t] = DeliveryWalk(static_cast<std::uint32_t>(n));
    check(d, walks[t]);
    broken_[i] = static_cast<std::uint32_t>(walks[t].bad.size());
    for (const Vertex b : walks[t].bad) failures_[i] += walks[t].state[b] == DeliveryWalk::kFailure;
    if (d.loads) {
      if (packed[t].empty()) {
        packed[t].assign(edges, 0);
        sub[t].assign(n, 0);
      }
      add_intact_load(d, walks[t], packed[t], sub[t]);
    }
    walks[t].clear();
  });
  std::uint64_t failure_points = 0;
  for (std::size_t i = 0; i < dests.size(); ++i) failure_points += failures_[i];
  return failure_points;
}

void IncrementalRouter::clear_unrouted_lids(const std::vector<bool>& routed_lid) {
  // LIDs nobody can route to (unroutable ports, unused LIDs): no entries.
  for (std::size_t lid = 0; lid < routed_lid.size(); ++lid)
    if (!routed_lid[lid]) std::fill_n(column(static_cast<Lid>(lid)), graph_.vertex_count, kNoPath);
}

bool IncrementalRouter::few_enough_failures(std::uint64_t entries, std::uint64_t failure_points,
                                            std::string& reason) const {
  if (entries == 0) {
    reason = "nothing to route";
    return false;
  }
  // The entries that must change, not those whose path runs into one (in a
  // torus those are many, and they keep their entries).
  const double share = static_cast<double>(failure_points) / static_cast<double>(entries);
  if (share > incremental_.full_above) {
    char text[200];
    std::snprintf(text, sizeof text,
                  "%llu of %llu entries (%.1f%%) lost their next hop (dead, missing or on a "
                  "loop), more than %.1f%%",
                  static_cast<unsigned long long>(failure_points),
                  static_cast<unsigned long long>(entries), 100.0 * share,
                  100.0 * incremental_.full_above);
    reason = text;
    return false;
  }
  return true;
}

void IncrementalRouter::add_intact_loads(const std::vector<std::vector<std::uint64_t>>& packed) {
  const std::size_t edges = graph_.edge_count();
  std::vector<double> routes(edges, 0.0), counts(edges, 0.0);
  for (const std::vector<std::uint64_t>& p : packed)
    for (std::size_t e = 0; e < p.size(); ++e) {
      routes[e] += static_cast<double>(p[e] & kPackedRoutes);
      counts[e] += static_cast<double>(p[e] >> kPackedShift);
    }
  loads_.add_totals(routes, counts);
}

void IncrementalRouter::repair_broken() {
  // Each destination with broken entries in routing order: its delivering
  // part out of the loads, repaired, its whole tree in.
  for (const Destination& d : problem_.destinations) {
    if (d.vertex == kNoVertexId || broken_[index_of(d)] == 0) continue;
    const std::uint32_t at_root = root_sources(d);
    walk_.run(graph_, column(d.lid), d.vertex, component_);
    tree_from(walk_);
    if (d.loads) loads_.apply_tree(tree_, d, problem_.sources_at.data(), at_root, -1);
    repair(d);
    if (d.loads) loads_.apply_tree(tree_, d, problem_.sources_at.data(), at_root, +1);
    walk_.clear();
  }
}

void IncrementalRouter::count_changes(std::uint64_t& restored, std::uint64_t& repaired) const {
  // Entries that differ from the previous tables: back to the reference, or
  // set right (the destination switches' own entries, kNoPath where the
  // LID became unreachable, the repairs).
  for (const Destination& d : problem_.destinations) {
    const std::vector<PortNum>& b = before_[index_of(d)];
    if (b.empty()) continue;
    const PortNum* col = column(d.lid);
    for (Vertex u = 0; u < graph_.vertex_count; ++u) {
      if (col[u] == b[u]) continue;
      if (reference_rows_[u] && reference_rows_[u][d.lid] == col[u])
        ++restored;
      else
        ++repaired;
    }
  }
}

std::size_t IncrementalRouter::rebalance_budget(std::uint64_t failure_points,
                                                std::uint64_t repaired) const {
  std::size_t budget = 0;
  if (incremental_.rebalance > 0) budget = static_cast<std::size_t>(incremental_.rebalance);
  if (incremental_.rebalance < 0 && failure_points > 0) {
    // After a fault: at most changes_per_lost changes per entry that lost
    // its hop, all changes together.
    const std::uint64_t allowed =
        static_cast<std::uint64_t>(incremental_.changes_per_lost) * failure_points;
    budget = allowed > repaired ? static_cast<std::size_t>(allowed - repaired) : 0;
  } else if (incremental_.rebalance < 0) {
    double sum = 0.0;
    for (double r : loads_.routes()) sum += r;
    const double mean = graph_.edge_count() ? sum / graph_.edge_count() : 0.0;
    budget = std::max<std::size_t>(static_cast<std::size_t>(repaired),
                                   static_cast<std::size_t>(2.0 * mean));
  }
  return budget;
}

std::size_t IncrementalRouter::improve(std::size_t budget, std::uint64_t failure_points) {
  std::size_t moved = 0;
  if (failure_points > 0) {
    moved += shortcuts(budget);
    // The shortcuts go first: per change they save more route hops where
    // the budget is short (a torus row's detour); what is left straightens
    // whole destinations.
    if (moved < budget) moved += straighten(budget - moved);
  }
  if (moved < budget) moved += rebalance(budget - moved);
  return moved;
}

void IncrementalRouter::fill_result(RoutingResult& result, std::uint64_t entries,
                                    std::uint64_t restored, std::uint64_t repaired,
                                    std::size_t moved) const {
  result.lfts = tables_from_columns(fabric_, graph_.view, columns_, threads_);
  result.channel_load.assign(fabric_.channel_count(), 0.0);
  for (EdgeId e = 0; e < graph_.edge_count(); ++e)
    result.channel_load[graph_.channel[e]] += loads_.routes()[e];
  result.unreachable = problem_.unroutable;
  auto& inc = result.incremental;
  inc.used = true;
  inc.entries = entries;
  inc.rebalanced = moved;
  // An entry moved twice counts twice.
  const std::uint64_t changed = restored + repaired + moved;
  inc.restored = restored;
  inc.repaired = repaired;
  inc.kept = entries > changed ? entries - changed : 0;
}
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
      result.capacity_weights = router.weighs_capacity();
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
