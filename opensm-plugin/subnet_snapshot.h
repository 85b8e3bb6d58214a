// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Copying OpenSM's subnet into the engine, and the routed LFTs back. */
#ifndef PSSSP_SUBNET_SNAPSHOT_H
#define PSSSP_SUBNET_SNAPSHOT_H

#include <opensm/osm_config.h>
#include <opensm/osm_log.h>
#include <opensm/osm_subnet.h>

#include "engine_bridge.h"

/* The subnet's node GUIDs (host order), ascending: position == engine node
 * id. Built once per sweep; the snapshot and the LFT write both use it. */
struct psssp_node_index {
  uint64_t *guids;
  size_t count;
};

/* 0 on success; -1 (out of memory) after logging. Free with psssp_node_index_free. */
int psssp_node_index_build(osm_subn_t *subn, osm_log_t *log, struct psssp_node_index *index);
void psssp_node_index_free(struct psssp_node_index *index);
/* The engine node id of a node GUID (host order), UINT32_MAX if unknown. */
uint32_t psssp_node_index_find(const struct psssp_node_index *index, uint64_t guid);

/* Rebuilds the engine's fabric from `subn`: nodes in node-GUID order (the
 * same order `psssp-sim route` uses for files), ports with LIDs, LMC, width,
 * speed and health, and cables. 0 on success; logs and returns -1 on failure. */
int psssp_snapshot_subnet(psssp_engine_t *engine, osm_subn_t *subn,
                          const struct psssp_node_index *index, osm_log_t *log);

/* Hands the engine every switch's current table (OpenSM's `lft`: what the
 * switch holds as far as OpenSM knows), for incremental re-routing. */
int psssp_snapshot_current_lfts(psssp_engine_t *engine, osm_subn_t *subn,
                                const struct psssp_node_index *index, osm_log_t *log);

/* Writes every switch's new_lft from the routed engine. Checks all switches
 * first, so a failure leaves every table untouched. */
int psssp_write_lfts(psssp_engine_t *engine, osm_subn_t *subn, const struct psssp_node_index *index,
                     osm_log_t *log);

#endif
