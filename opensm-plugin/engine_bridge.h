// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The narrow C interface between OpenSM's C world and the C++ routing core.
 * OpenSM's headers cannot be compiled as C++ (a struct member is named
 * `delete`), so the plugin glue is C and everything else sits behind these
 * functions. None of them throws or aborts: failures return an error code
 * and leave a message in the engine (psssp_engine_error). */
#ifndef PSSSP_ENGINE_BRIDGE_H
#define PSSSP_ENGINE_BRIDGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct psssp_engine psssp_engine_t;

enum psssp_node_kind { PSSSP_NODE_SWITCH = 0, PSSSP_NODE_CA = 1, PSSSP_NODE_ROUTER = 2 };

/* Link speeds in the order of psssp::LinkSpeed. */
enum psssp_speed {
  PSSSP_SPEED_UNKNOWN = 0,
  PSSSP_SPEED_SDR,
  PSSSP_SPEED_DDR,
  PSSSP_SPEED_QDR,
  PSSSP_SPEED_FDR10,
  PSSSP_SPEED_FDR,
  PSSSP_SPEED_EDR,
  PSSSP_SPEED_HDR,
  PSSSP_SPEED_NDR,
  PSSSP_SPEED_XDR
};

struct psssp_route_stats {
  unsigned switches, cas, host_ports, lids;
  double seconds;             /* routing computation only */
  double layer_seconds;       /* vls=N: the layer assignment's part of seconds */
  double max_load, mean_load; /* routes per switch-to-switch channel */
  unsigned unreachable;       /* destinations some switch cannot reach */
  unsigned layers_needed;     /* fewest layers that are each acyclic (1 without vls=N) */
  unsigned layers;            /* layers in use after spreading routes over them */
  int full_effort;            /* endpoint affinity and repeated refinement were used */
  unsigned refine_passes;     /* refinement passes done */
  int converged;              /* the last of them changed no table */
  char choices[96];           /* "; tree layout", "; load weighed by capacity", ...: the log's */
  int incremental;            /* re-routed from the current tables */
  unsigned long long entries, kept, repaired, restored, rebalanced; /* incremental: entries */
  char full_reason[160];     /* why the routing was full, if incremental was possible */
  char layers_fallback[160]; /* vls=N: which routing fit, when the first needed too many layers */
};

/* Parses `options` (event_plugin_options text). Returns NULL and writes a
 * message to `err` when an option is unknown or malformed. */
psssp_engine_t *psssp_engine_new(const char *options, char *err, size_t err_len);
void psssp_engine_free(psssp_engine_t *engine);
/* One line describing the effective options, for the log. */
const char *psssp_engine_describe(const psssp_engine_t *engine);
const char *psssp_engine_error(const psssp_engine_t *engine);

/* Subnet snapshot: rebuilt from scratch at every sweep (begin clears all). */
void psssp_engine_begin(psssp_engine_t *engine);
/* Returns the node's index, or UINT32_MAX on failure. */
uint32_t psssp_engine_add_node(psssp_engine_t *engine, int kind, uint64_t guid,
                               const char *description, unsigned num_ports);
int psssp_engine_set_port(psssp_engine_t *engine, uint32_t node, unsigned port, uint64_t guid,
                          uint16_t lid, uint8_t lmc, unsigned width, int speed, int healthy);
int psssp_engine_connect(psssp_engine_t *engine, uint32_t node, unsigned port, uint32_t remote_node,
                         unsigned remote_port);

/* The table a switch holds now (OpenSM's view of it, LIDs 0..count-1), for
 * incremental re-routing; call after the snapshot, before routing. */
int psssp_engine_set_current_lft(psssp_engine_t *engine, uint32_t node, const uint8_t *lft,
                                 size_t count);

/* Routes the snapshot. With vls=N it also assigns virtual layers; `data_vls`
 * is the number of data VLs every port offers (0 = unknown): needing more
 * layers than min(N, data_vls) is an error naming both numbers.
 * 0 on success; negative with psssp_engine_error set. */
int psssp_engine_route(psssp_engine_t *engine, unsigned data_vls, struct psssp_route_stats *stats);

/* The same routing on a thread of its own, so that the caller can write
 * OpenSM's hop tables meanwhile: psssp_engine_route_start returns at once
 * (negative when no thread could start; then route with psssp_engine_route),
 * psssp_engine_route_finish waits for it and returns what psssp_engine_route
 * would have. Until then the caller must not change the snapshot (begin,
 * add_node, set_port, connect, set_current_lft) or read the routing's
 * results; psssp_engine_begin and psssp_engine_free wait for a started
 * routing and drop its outcome. */
int psssp_engine_route_start(psssp_engine_t *engine, unsigned data_vls);
int psssp_engine_route_started(const psssp_engine_t *engine);
int psssp_engine_route_finish(psssp_engine_t *engine, struct psssp_route_stats *stats);
/* OpenSM's min-hop matrices ("LID matrices") of the snapshot, computed by
 * the core (routing/min_hop_matrix.h): exactly the hop tables OpenSM's own
 * osm_ucast_mgr_build_lid_matrices builds with every hop weight 1. 0 on
 * success; negative with psssp_engine_error set. */
int psssp_engine_build_hops(psssp_engine_t *engine);
/* (switch, switch LID) rows of the hop tables the last psssp_engine_build_hops
 * computed; the others are kept from the sweep before (nothing they depend
 * on changed), ready for psssp_engine_fill_hop_tables. */
size_t psssp_engine_hop_rows_computed(const psssp_engine_t *engine);
/* The switch base LIDs the hop tables have entries for (the columns). */
size_t psssp_engine_hop_lid_count(const psssp_engine_t *engine);
uint16_t psssp_engine_hop_lid(const psssp_engine_t *engine, size_t column);
/* The entries OpenSM sets for switch `node`: hops[c * ports + p] for column
 * c and port p < ports, 0xFF where it sets none (port 0 carries only the
 * switch's own LID, hops 0). `ports` counts port 0 and must be the node's.
 * 0 on success; negative with psssp_engine_error set. */
int psssp_engine_copy_hops(psssp_engine_t *engine, uint32_t node, uint8_t *hops, unsigned ports);
/* One switch's hop table where OpenSM keeps it (osm_switch_t's hops,
 * num_hops, num_ports and max_lid_ho), to be written in place. */
struct psssp_hop_table {
  uint32_t node;     /* the switch's snapshot index */
  uint8_t **rows;    /* one row per LID: NULL, or num_ports bytes from malloc */
  unsigned num_rows; /* entries of rows */
  unsigned ports;    /* port 0 included; must be the node's */
  unsigned max_lid;  /* rows above it are left alone, as osm_switch_set_hops does */
};
/* Writes psssp_engine_copy_hops's entries into every table with the effect
 * of one osm_switch_set_hops(sw, lid, port, hops) per entry that is not
 * 0xFF: a missing row is malloc'ed and filled with 0xFF first, and row[0]
 * keeps the least hops written to the row. Switches are written in parallel
 * (each touches only its own rows). 0 on success; negative with
 * psssp_engine_error set (some rows may then be written or allocated). */
int psssp_engine_fill_hop_tables(psssp_engine_t *engine, struct psssp_hop_table *tables,
                                 size_t count);
/* Whether the options leave the LID matrices to psssp (lid_matrices=psssp). */
int psssp_engine_builds_lid_matrices(const psssp_engine_t *engine);

/* Virtual layers requested by the options (0 = deadlock-free mode off). */
unsigned psssp_engine_requested_vls(const psssp_engine_t *engine);
/* The layer (= SL) of the route slid -> dlid (host order); 0 without layers.
 * Safe to call from OpenSM's SA threads while no sweep is routing. */
uint8_t psssp_engine_path_sl(const psssp_engine_t *engine, uint16_t slid, uint16_t dlid);
/* Writes the layer table (psssp-sim check --layers reads it). 0 on success. */
int psssp_engine_write_layers(const psssp_engine_t *engine, const char *path);
/* Writes the path SLs (ibdmchk -c) and SL-to-VL maps (ibdmchk -d) of the
 * layers, SL = VL = layer. 0 on success, -1 on a failure, 1 when the path-SL
 * file would have more than max_lines lines (neither is written then). */
int psssp_engine_write_ibdmchk(const psssp_engine_t *engine, const char *path_sl_path,
                               const char *sl2vl_path, size_t max_lines);
/* Copies a routed switch's LFT for LIDs 0..lid_count-1 (kNoPath = 0xFF). */
int psssp_engine_copy_lft(const psssp_engine_t *engine, uint32_t node, uint8_t *lft,
                          size_t lid_count);

/* Test seam (core/parallel/fault_injection.h): the n-th parallel task of the
 * next routing throws std::bad_alloc; 0 disarms. Only the test build of the
 * plugin (libpsssp_faultinject.so) calls it. */
void psssp_engine_arm_task_fault(uint64_t n);

#ifdef __cplusplus
}
#endif

#endif
