// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The routing entry points of engine_bridge.h: on the caller's thread, or
// started on a thread of its own and collected later.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "engine/engine.h"
#include "engine_state.h"

using psssp::bridge::guarded;
using psssp::bridge::guarded_into;
using psssp::bridge::index_once;

namespace {

std::size_t live_switch_cables(const psssp::Fabric& f) {
  std::size_t n = 0;
  for (const psssp::NodeId sw : f.switches())
    for (const psssp::Port& p : f.node(sw).ports)
      if (p.usable() && f.node(p.remote.node).is_switch()) ++n;
  return n / 2;
}

// The tables of the last full routing, by switch GUID; a full routing of a
// fabric with fewer live cables (too many failed at once) does not replace
// them, so the original routes still return when the cables do.
void keep_reference(psssp_engine& e) {
  const std::size_t cables = live_switch_cables(e.fabric);
  if (!e.reference.empty() && cables < e.reference_cables) return;
  e.reference_cables = cables;
  e.reference.clear();
  const psssp::ForwardingTables& lfts = e.result.lfts;
  for (const psssp::NodeId sw : e.fabric.switches())
    if (lfts.has_switch(sw))
      e.reference[e.fabric.node(sw).guid].assign(lfts.row(sw), lfts.row(sw) + lfts.lid_count());
}

// The reference remapped to this sweep's switches (kNoPath where unknown).
psssp::ForwardingTables reference_tables(const psssp_engine& e) {
  psssp::ForwardingTables tables(e.fabric);
  for (const psssp::NodeId sw : e.fabric.switches()) {
    const auto it = e.reference.find(e.fabric.node(sw).guid);
    if (it == e.reference.end() || !tables.has_switch(sw)) continue;
    const std::size_t n = std::min(it->second.size(), tables.lid_count());
    std::copy(it->second.begin(), it->second.begin() + static_cast<std::ptrdiff_t>(n),
              tables.row(sw));
  }
  return tables;
}

}  // namespace

namespace {

// The numbers of a run whose routing was moved into e.result, for the C
// side's log lines.
void fill_stats(const psssp_engine& e, const psssp::engine::EngineRun& run,
                psssp_route_stats& stats) {
  std::memset(&stats, 0, sizeof stats);
  const psssp::RoutingResult& r = e.result;  // run.routing, moved there
  stats.switches = static_cast<unsigned>(e.fabric.switches().size());
  stats.cas = static_cast<unsigned>(e.fabric.node_count() - e.fabric.switches().size());
  stats.host_ports = static_cast<unsigned>(e.fabric.host_ports().size());
  stats.lids = static_cast<unsigned>(e.fabric.max_lid());
  stats.seconds = run.seconds;
  stats.layer_seconds = e.options.vls ? run.layers.seconds : 0.0;
  stats.layers_needed = e.layers_needed;
  stats.layers = e.layers_used;
  stats.full_effort = r.full_effort ? 1 : 0;
  stats.refine_passes = r.refine_passes_run;
  stats.converged = r.converged ? 1 : 0;
  std::snprintf(stats.choices, sizeof stats.choices, "%s", psssp::engine::choice_notes(r).c_str());
  stats.unreachable = static_cast<unsigned>(r.unreachable.size());
  const auto& inc = r.incremental;
  stats.incremental = inc.used ? 1 : 0;
  stats.entries = inc.entries;
  stats.kept = inc.kept;
  stats.repaired = inc.repaired;
  stats.restored = inc.restored;
  stats.rebalanced = inc.rebalanced;
  std::snprintf(stats.full_reason, sizeof stats.full_reason, "%s",
                run.incremental_asked && !inc.used ? inc.reason.c_str() : "");
  std::snprintf(stats.layers_fallback, sizeof stats.layers_fallback, "%s",
                run.layers_fallback.c_str());
  stats.max_load = run.switch_links.max;
  stats.mean_load = run.switch_links.mean;
}

// Routes the indexed snapshot (psssp_engine_route); throws on failure.
void route_now(psssp_engine* e, unsigned data_vls, psssp_route_stats* stats) {
  psssp::engine::RouteInputs inputs;
  inputs.data_vls = data_vls;
  // Incremental from the switches' tables once this process has routed.
  const bool from_current = e->routed_before && e->current.lid_count() > 0;
  const psssp::ForwardingTables reference =
      from_current && e->options.incremental ? reference_tables(*e) : psssp::ForwardingTables();
  if (from_current) {
    inputs.previous = &e->current;
    inputs.reference = &reference;
  }
  psssp::engine::EngineRun run = psssp::engine::run_engine(e->fabric, e->options, inputs);
  e->result = std::move(run.routing);
  if (e->options.vls) {
    e->layers = std::move(run.layers.table);
    e->layers_needed = run.layers.layers_needed;
    e->layers_used = run.layers.layers_used;
  }
  if (!e->result.incremental.used) keep_reference(*e);
  e->routed_before = true;
  e->routed = true;
  if (stats) fill_stats(*e, run, *stats);
}

// A second routing while a started one reads the snapshot is refused.
bool refused_while_started(psssp_engine* e) {
  if (!e->route_thread.joinable()) return false;
  e->error = "a started routing is still running";
  return true;
}

}  // namespace

int psssp_engine_route(psssp_engine_t* e, unsigned data_vls, struct psssp_route_stats* stats) {
  if (refused_while_started(e)) return -1;
  return guarded(e, [&] {
    index_once(e);
    route_now(e, data_vls, stats);
  });
}

int psssp_engine_route_start(psssp_engine_t* e, unsigned data_vls) {
  if (refused_while_started(e)) return -1;
  return guarded(e, [&] {
    index_once(e);
    e->route_rc = 0;
    e->route_error.clear();
    e->route_thread = std::thread([e, data_vls] {
      e->route_rc = guarded_into(e->route_error, [&] { route_now(e, data_vls, &e->route_stats); });
    });
  });
}

int psssp_engine_route_started(const psssp_engine_t* e) {
  return e->route_thread.joinable() ? 1 : 0;
}

int psssp_engine_route_finish(psssp_engine_t* e, struct psssp_route_stats* stats) {
  if (!e->route_thread.joinable()) {
    e->error = "no routing was started";
    return -1;
  }
  e->route_thread.join();
  if (e->route_rc != 0) {
    e->error = e->route_error;
    return -1;
  }
  if (stats) *stats = e->route_stats;
  return 0;
}
