// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// C entry points of the psssp engine: a subnet snapshot built node by node
// from OpenSM's tables, routed by the same core as `psssp-sim route`.
#include "engine_bridge.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "deadlock/layer_assignment.h"
#include "fabric/fabric.h"
#include "formats/guid_list.h"
#include "formats/layer_table_io.h"
#include "parallel/fault_injection.h"
#include "parallel/run_workers.h"
#include "parallel/thread_count.h"
#include "plugin_options.h"
#include "routing/incremental.h"
#include "routing/min_hop_matrix.h"
#include "routing/psssp_routing.h"

struct psssp_engine {
  psssp::PluginOptions options;
  std::string description;
  std::string error;
  psssp::Fabric fabric;
  bool indexed = false;  // fabric.index() ran since the snapshot last changed
  psssp::RoutingResult result;
  psssp::LayerTable layers;  // empty unless vls=N
  unsigned layers_needed = 1, layers_used = 1;
  bool routed = false;
  psssp::routing::MinHopMatrix hops;  // after psssp_engine_build_hops
  bool hops_built = false;
  // Every switch's entries (MinHopMatrix::entries) for every target, kept
  // across sweeps: OpenSM clears its hop tables before every routing, and
  // after a fault only the entries the fault can change are computed again.
  // [(switch index * targets + target) * hop_width + port]
  std::vector<std::uint8_t> hop_entries;
  std::size_t hop_width = 0;
  psssp::routing::MinHopMatrix hop_entries_of;  // the matrix hop_entries were computed from
  bool hop_entries_valid = false;
  std::size_t hop_rows_computed = 0;  // in the last psssp_engine_build_hops
  // The switches' tables as OpenSM holds them, for incremental re-routing;
  // used only after this engine has routed once in this process.
  psssp::ForwardingTables current;
  bool routed_before = false;
  // The last full routing's tables by switch GUID: once a failed cable is
  // back, its entries return to them (routing/incremental.h).
  std::unordered_map<uint64_t, std::vector<psssp::PortNum>> reference;
  std::size_t reference_cables = 0;  // live switch cables when it was made
  // A routing started by psssp_engine_route_start: it runs on its own thread
  // while the plugin writes OpenSM's hop tables, and writes only `result`,
  // `layers*`, `reference*`, `routed*` and the three fields below until
  // psssp_engine_route_finish joins it.
  std::thread route_thread;
  int route_rc = 0;
  std::string route_error;
  psssp_route_stats route_stats{};
};

// The C enums of engine_bridge.h mirror the core's: the bridge casts between them.
static_assert(PSSSP_NODE_SWITCH == static_cast<int>(psssp::NodeType::switch_node) &&
                  PSSSP_NODE_CA == static_cast<int>(psssp::NodeType::ca) &&
                  PSSSP_NODE_ROUTER == static_cast<int>(psssp::NodeType::router),
              "psssp_node_kind must follow psssp::NodeType");
static_assert(PSSSP_SPEED_UNKNOWN == static_cast<int>(psssp::LinkSpeed::unknown) &&
                  PSSSP_SPEED_SDR == static_cast<int>(psssp::LinkSpeed::sdr) &&
                  PSSSP_SPEED_DDR == static_cast<int>(psssp::LinkSpeed::ddr) &&
                  PSSSP_SPEED_QDR == static_cast<int>(psssp::LinkSpeed::qdr) &&
                  PSSSP_SPEED_FDR10 == static_cast<int>(psssp::LinkSpeed::fdr10) &&
                  PSSSP_SPEED_FDR == static_cast<int>(psssp::LinkSpeed::fdr) &&
                  PSSSP_SPEED_EDR == static_cast<int>(psssp::LinkSpeed::edr) &&
                  PSSSP_SPEED_HDR == static_cast<int>(psssp::LinkSpeed::hdr) &&
                  PSSSP_SPEED_NDR == static_cast<int>(psssp::LinkSpeed::ndr),
              "psssp_speed must follow psssp::LinkSpeed");

namespace {

// Runs `body`, turning any exception into an error code and a message in
// `error`, so nothing propagates into OpenSM's C code.
template <typename Body>
int guarded_into(std::string& error, Body&& body) {
  try {
    body();
    return 0;
  } catch (const std::bad_alloc&) {
    error = "out of memory";
  } catch (const std::exception& ex) {
    error = ex.what();
  } catch (...) {
    error = "unknown internal error";
  }
  return -1;
}

template <typename Body>
int guarded(psssp_engine* e, Body&& body) {
  return guarded_into(e->error, std::forward<Body>(body));
}

// Indexes the snapshot once after it changed: index() rebuilds the fabric's
// lookup tables, so it must not run while a started routing reads them.
void index_once(psssp_engine* e) {
  if (e->indexed) return;
  e->fabric.index();
  e->indexed = true;
}

// Waits for a started routing and forgets its outcome.
void discard_started_route(psssp_engine* e) {
  if (e->route_thread.joinable()) e->route_thread.join();
}

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

extern "C" {

psssp_engine_t* psssp_engine_new(const char* options, char* err, size_t err_len) {
  try {
    auto* e = new psssp_engine;
    try {
      e->options = psssp::parse_plugin_options(options ? options : "");
      e->description = psssp::describe(e->options);
      return e;
    } catch (...) {
      delete e;
      throw;
    }
  } catch (const std::exception& ex) {
    if (err && err_len) std::snprintf(err, err_len, "%s", ex.what());
  } catch (...) {
    if (err && err_len) std::snprintf(err, err_len, "unknown internal error");
  }
  return nullptr;
}

void psssp_engine_free(psssp_engine_t* engine) {
  if (engine) discard_started_route(engine);
  delete engine;
}

const char* psssp_engine_describe(const psssp_engine_t* engine) {
  return engine->description.c_str();
}

const char* psssp_engine_error(const psssp_engine_t* engine) { return engine->error.c_str(); }

void psssp_engine_begin(psssp_engine_t* e) {
  discard_started_route(e);
  e->fabric = psssp::Fabric();
  e->indexed = false;
  e->result = psssp::RoutingResult();
  e->layers = psssp::LayerTable();
  e->layers_needed = e->layers_used = 1;
  e->routed = false;
  e->hops = psssp::routing::MinHopMatrix();
  e->hops_built = false;
  e->current = psssp::ForwardingTables();
  e->error.clear();
}

int psssp_engine_set_current_lft(psssp_engine_t* e, uint32_t node, const uint8_t* lft,
                                 size_t count) {
  return guarded(e, [&] {
    if (e->current.lid_count() == 0) {
      index_once(e);
      e->current = psssp::ForwardingTables(e->fabric);
    }
    if (node >= e->fabric.node_count() || !e->current.has_switch(node))
      throw psssp::FabricError("node " + std::to_string(node) + " is not a switch");
    psssp::PortNum* row = e->current.row(node);
    const size_t n = std::min(count, e->current.lid_count());
    std::copy(lft, lft + n, row);
  });
}

uint32_t psssp_engine_add_node(psssp_engine_t* e, int kind, uint64_t guid, const char* description,
                               unsigned num_ports) {
  uint32_t id = UINT32_MAX;
  guarded(e, [&] {
    const auto type = kind == PSSSP_NODE_SWITCH   ? psssp::NodeType::switch_node
                      : kind == PSSSP_NODE_ROUTER ? psssp::NodeType::router
                                                  : psssp::NodeType::ca;
    char name[24];
    std::snprintf(name, sizeof name, "0x%016llx", static_cast<unsigned long long>(guid));
    if (num_ports > psssp::kMaxPorts)
      throw psssp::FabricError(std::string(name) + ": too many ports");
    e->indexed = false;
    id = e->fabric.add_node(type, name, static_cast<psssp::PortNum>(num_ports));
    psssp::Node& n = e->fabric.node(id);
    n.guid = guid;
    n.description = description ? description : "";
  });
  return id;
}

int psssp_engine_set_port(psssp_engine_t* e, uint32_t node, unsigned port, uint64_t guid,
                          uint16_t lid, uint8_t lmc, unsigned width, int speed, int healthy) {
  return guarded(e, [&] {
    if (node >= e->fabric.node_count() || port > e->fabric.node(node).num_ports())
      throw psssp::FabricError("node " + std::to_string(node) + " has no port " +
                               std::to_string(port));
    e->indexed = false;
    psssp::Port& p = e->fabric.port(psssp::PortRef{node, static_cast<psssp::PortNum>(port)});
    p.guid = guid;
    p.lid = lid;
    p.lmc = lmc;
    p.rate.width = static_cast<psssp::LinkWidth>(width);
    p.rate.speed = static_cast<psssp::LinkSpeed>(speed);
    p.healthy = healthy != 0;
  });
}

int psssp_engine_connect(psssp_engine_t* e, uint32_t node, unsigned port, uint32_t remote_node,
                         unsigned remote_port) {
  return guarded(e, [&] {
    const psssp::PortRef a{node, static_cast<psssp::PortNum>(port)};
    const psssp::PortRef b{remote_node, static_cast<psssp::PortNum>(remote_port)};
    e->indexed = false;
    e->fabric.connect(a, b);  // keeps the rates set_port stored
    // A link is only as healthy as its worse end.
    const bool healthy = e->fabric.port(a).healthy && e->fabric.port(b).healthy;
    e->fabric.port(a).healthy = e->fabric.port(b).healthy = healthy;
  });
}

namespace {

// Routes the indexed snapshot (psssp_engine_route); throws on failure.
void route_now(psssp_engine* e, unsigned data_vls, psssp_route_stats* stats) {
  psssp::RoutingOptions routing = e->options.routing;
  if (!e->options.guid_file.empty())
    routing.guid_list = psssp::read_guid_list(e->options.guid_file);
  const bool incremental = e->options.incremental && e->routed_before && e->current.lid_count() > 0;
  if (incremental) {
    const psssp::ForwardingTables reference = reference_tables(*e);
    e->result = psssp::route_psssp_incremental(e->fabric, e->current, routing,
                                               e->options.incremental_options, &reference);
  } else {
    e->result = psssp::route_psssp(e->fabric, routing);
  }
  if (!e->result.incremental.used) keep_reference(*e);
  e->routed_before = true;
  double layer_seconds = 0.0;
  if (e->options.vls) {
    // The hardware may offer fewer data VLs than the admin asked for.
    psssp::deadlock::LayerOptions lo;
    lo.max_layers = data_vls ? std::min(e->options.vls, data_vls) : e->options.vls;
    psssp::deadlock::LayerAssignment a =
        psssp::deadlock::assign_layers(e->fabric, e->result.lfts, lo);
    e->layers = std::move(a.table);
    e->layers_needed = a.layers_needed;
    e->layers_used = a.layers_used;
    layer_seconds = a.seconds;
  }
  e->routed = true;
  if (!stats) return;
  std::memset(stats, 0, sizeof *stats);
  stats->switches = static_cast<unsigned>(e->fabric.switches().size());
  stats->cas = static_cast<unsigned>(e->fabric.node_count() - e->fabric.switches().size());
  stats->host_ports = static_cast<unsigned>(e->fabric.host_ports().size());
  stats->lids = static_cast<unsigned>(e->fabric.max_lid());
  stats->seconds = e->result.seconds + layer_seconds;
  stats->layers_needed = e->layers_needed;
  stats->layers = e->layers_used;
  stats->full_effort = e->result.full_effort ? 1 : 0;
  stats->refine_passes = e->result.refine_passes_run;
  stats->converged = e->result.converged ? 1 : 0;
  stats->unreachable = static_cast<unsigned>(e->result.unreachable.size());
  const auto& inc = e->result.incremental;
  stats->incremental = inc.used ? 1 : 0;
  stats->entries = inc.entries;
  stats->kept = inc.kept;
  stats->repaired = inc.repaired;
  stats->restored = inc.restored;
  stats->rebalanced = inc.rebalanced;
  std::snprintf(stats->full_reason, sizeof stats->full_reason, "%s",
                incremental && !inc.used ? inc.reason.c_str() : "");
  // Load statistics over the switch-to-switch channels that exist.
  double sum = 0;
  unsigned count = 0;
  for (const psssp::NodeId sw : e->fabric.switches()) {
    const psssp::Node& n = e->fabric.node(sw);
    for (psssp::PortNum p = 1; p < n.ports.size(); ++p) {
      const psssp::Port& port = n.ports[p];
      if (!port.usable() || !e->fabric.node(port.remote.node).is_switch()) continue;
      const psssp::ChannelId c = e->fabric.channel(psssp::PortRef{sw, p});
      const double load = c < e->result.channel_load.size() ? e->result.channel_load[c] : 0.0;
      sum += load;
      ++count;
      if (load > stats->max_load) stats->max_load = load;
    }
  }
  stats->mean_load = count ? sum / count : 0.0;
}

}  // namespace

int psssp_engine_route(psssp_engine_t* e, unsigned data_vls, struct psssp_route_stats* stats) {
  if (e->route_thread.joinable()) {
    e->error = "a started routing is still running";
    return -1;
  }
  return guarded(e, [&] {
    index_once(e);
    route_now(e, data_vls, stats);
  });
}

int psssp_engine_route_start(psssp_engine_t* e, unsigned data_vls) {
  if (e->route_thread.joinable()) {
    e->error = "a started routing is still running";
    return -1;
  }
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

namespace {

// Brings e->hop_entries up to date with e->hops: every row after a change
// of switches or targets, else only the rows changed_entries names.
void update_hop_entries(psssp_engine* e) {
  const psssp::routing::MinHopMatrix& hops = e->hops;
  const std::size_t n = hops.switch_count();
  const std::size_t targets = hops.target_count();
  size_t width = 1;
  for (psssp::NodeId sw : e->fabric.switches())
    width = std::max<size_t>(width, e->fabric.node(sw).ports.size());
  std::vector<std::uint8_t> changed;
  if (e->hop_entries_valid && width == e->hop_width)
    changed = hops.changed_entries(e->hop_entries_of);
  else
    changed.assign(n * targets, 1);
  e->hop_entries_valid = false;  // until every changed row is written
  e->hop_width = width;
  e->hop_entries.resize(n * targets * width);
  std::vector<std::size_t> computed(n, 0);
  const unsigned workers = psssp::parallel::effective_threads(e->options.routing.threads);
  psssp::parallel::parallel_for(n, workers, [&](size_t i, unsigned) {
    const psssp::NodeId sw = e->fabric.switches()[i];
    const std::uint32_t s = hops.switch_index(sw);
    for (size_t t = 0; t < targets; ++t) {
      if (!changed[t * n + s]) continue;
      hops.entries(sw, t, &e->hop_entries[(s * targets + t) * width]);
      ++computed[s];
    }
  });
  e->hop_rows_computed = 0;
  for (std::size_t c : computed) e->hop_rows_computed += c;
  e->hop_entries_of = hops;
  e->hop_entries_valid = true;
}

}  // namespace

int psssp_engine_build_hops(psssp_engine_t* e) {
  e->hops_built = false;
  return guarded(e, [&] {
    index_once(e);
    e->hops = psssp::routing::MinHopMatrix(e->fabric, e->options.routing.threads);
    update_hop_entries(e);
    e->hops_built = true;
  });
}

size_t psssp_engine_hop_rows_computed(const psssp_engine_t* e) {
  return e->hops_built ? e->hop_rows_computed : 0;
}

size_t psssp_engine_hop_lid_count(const psssp_engine_t* e) {
  return e->hops_built ? e->hops.target_count() : 0;
}

uint16_t psssp_engine_hop_lid(const psssp_engine_t* e, size_t column) {
  return e->hops_built && column < e->hops.target_count() ? e->hops.target_lid(column) : 0;
}

int psssp_engine_copy_hops(psssp_engine_t* e, uint32_t node, uint8_t* hops, unsigned ports) {
  return guarded(e, [&] {
    if (!e->hops_built) throw std::logic_error("no hop matrix was built");
    if (node >= e->fabric.node_count() || !e->fabric.node(node).is_switch() ||
        e->fabric.node(node).ports.size() != ports)
      throw psssp::FabricError("node " + std::to_string(node) + " is not a switch with " +
                               std::to_string(ports) + " ports");
    for (size_t c = 0; c < e->hops.target_count(); ++c) e->hops.entries(node, c, hops + c * ports);
  });
}

namespace {

// One switch's table (see psssp_engine_fill_hop_tables), from its rows
// of e->hop_entries.
void fill_hop_table(const psssp_engine* e, const psssp_hop_table& t) {
  const std::size_t targets = e->hops.target_count();
  const std::uint32_t s = e->hops.switch_index(t.node);
  for (size_t c = 0; c < targets; ++c) {
    const psssp::Lid lid = e->hops.target_lid(c);
    if (!lid || lid > t.max_lid || lid >= t.num_rows) continue;
    const std::uint8_t* entries = &e->hop_entries[(s * targets + c) * e->hop_width];
    std::uint8_t least = psssp::routing::kNoHops;
    for (unsigned p = 0; p < t.ports; ++p) least = std::min(least, entries[p]);
    if (least == psssp::routing::kNoHops) continue;  // no osm_switch_set_hops call: no row
    std::uint8_t* row = t.rows[lid];
    if (!row) {
      row = static_cast<std::uint8_t*>(std::malloc(t.ports));  // OpenSM free()s it
      if (!row) throw std::bad_alloc();
      std::memset(row, psssp::routing::kNoHops, t.ports);
      t.rows[lid] = row;
    }
    // Each set entry overwrites its port; slot 0 ends as the least of what
    // it held (or was set to) and everything set.
    for (unsigned p = 0; p < t.ports; ++p)
      row[p] = entries[p] == psssp::routing::kNoHops ? row[p] : entries[p];
    row[0] = std::min(row[0], least);
  }
}

}  // namespace

int psssp_engine_fill_hop_tables(psssp_engine_t* e, psssp_hop_table* tables, size_t count) {
  return guarded(e, [&] {
    if (!e->hops_built) throw std::logic_error("no hop matrix was built");
    size_t widest = 1;
    for (size_t i = 0; i < count; ++i) {
      const psssp_hop_table& t = tables[i];
      if (t.node >= e->fabric.node_count() || !e->fabric.node(t.node).is_switch() ||
          e->fabric.node(t.node).ports.size() != t.ports)
        throw psssp::FabricError("node " + std::to_string(t.node) + " is not a switch with " +
                                 std::to_string(t.ports) + " ports");
      widest = std::max<size_t>(widest, t.ports);
    }
    if (widest > e->hop_width) throw std::logic_error("hop entries narrower than a switch");
    const unsigned workers = psssp::parallel::effective_threads(e->options.routing.threads);
    psssp::parallel::parallel_for(count, workers,
                                  [&](size_t i, unsigned) { fill_hop_table(e, tables[i]); });
  });
}

int psssp_engine_builds_lid_matrices(const psssp_engine_t* e) {
  return e->options.lid_matrices == psssp::PluginOptions::LidMatrices::psssp;
}

unsigned psssp_engine_requested_vls(const psssp_engine_t* e) { return e->options.vls; }

void psssp_engine_arm_task_fault(uint64_t n) { psssp::parallel::arm_task_fault(n); }

uint8_t psssp_engine_path_sl(const psssp_engine_t* e, uint16_t slid, uint16_t dlid) {
  if (!e->routed || !e->options.vls) return 0;
  return e->layers.layer(slid, dlid);
}

int psssp_engine_write_layers(const psssp_engine_t* e, const char* path) {
  if (!e->routed || !e->options.vls) return -1;
  try {
    std::ofstream out(path, std::ios::trunc);
    psssp::write_layer_table(out, e->fabric, e->layers);
    out.close();
    return out ? 0 : -1;
  } catch (...) {
    return -1;
  }
}

int psssp_engine_copy_lft(const psssp_engine_t* e, uint32_t node, uint8_t* lft, size_t lid_count) {
  if (!e->routed || !e->result.lfts.has_switch(node)) return -1;
  const size_t have = e->result.lfts.lid_count();
  const psssp::PortNum* row = e->result.lfts.row(node);
  for (size_t lid = 0; lid < lid_count; ++lid) lft[lid] = lid < have ? row[lid] : psssp::kNoPath;
  return 0;
}

}  // extern "C"
