// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The engine's state behind the C interface of engine_bridge.h, shared by
// the files that implement it (snapshot, routing, hop tables); internal to
// the plugin.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <new>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine_bridge.h"
#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"
#include "fabric/layer_table.h"
#include "plugin_options.h"
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
  // back, its entries return to them (routing/incremental/incremental.h).
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

namespace psssp::bridge {

// Runs `body`, turning any exception into an error code and a message in
// `error`, so nothing propagates into OpenSM's C code.
template <typename Body>
inline int guarded_into(std::string& error, Body&& body) {
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
inline int guarded(psssp_engine* e, Body&& body) {
  return guarded_into(e->error, std::forward<Body>(body));
}

// Indexes the snapshot once after it changed: index() rebuilds the fabric's
// lookup tables, so it must not run while a started routing reads them.
inline void index_once(psssp_engine* e) {
  if (e->indexed) return;
  e->fabric.index();
  e->indexed = true;
}

// Waits for a started routing and forgets its outcome.
inline void discard_started_route(psssp_engine* e) {
  if (e->route_thread.joinable()) e->route_thread.join();
}

}  // namespace psssp::bridge
