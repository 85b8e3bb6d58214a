// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// C entry points of the psssp engine: a subnet snapshot built node by node
// from OpenSM's tables, routed by the same core as `psssp-sim route`
// (engine_route.cc) after the hop tables are built (engine_hops.cc).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "engine_state.h"
#include "formats/ibdmchk_writer.h"
#include "formats/layer_table_io.h"
#include "parallel/fault_injection.h"

using psssp::bridge::discard_started_route;
using psssp::bridge::guarded;
using psssp::bridge::index_once;

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
                  PSSSP_SPEED_NDR == static_cast<int>(psssp::LinkSpeed::ndr) &&
                  PSSSP_SPEED_XDR == static_cast<int>(psssp::LinkSpeed::xdr),
              "psssp_speed must follow psssp::LinkSpeed");

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

int psssp_engine_write_ibdmchk(const psssp_engine_t* e, const char* path_sl_path,
                               const char* sl2vl_path, size_t max_lines) {
  if (!e->routed || !e->options.vls) return -1;
  try {
    if (psssp::ibdmchk_path_sl_lines(e->fabric) > max_lines) return 1;
    std::ofstream path_sls(path_sl_path, std::ios::trunc);
    psssp::write_ibdmchk_path_sls(path_sls, e->fabric, e->layers);
    path_sls.close();
    std::ofstream sl2vl(sl2vl_path, std::ios::trunc);
    psssp::write_ibdmchk_sl2vl(sl2vl, e->fabric, e->options.vls);
    sl2vl.close();
    return path_sls && sl2vl ? 0 : -1;
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
