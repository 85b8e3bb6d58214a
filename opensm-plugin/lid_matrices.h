// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Writing the engine's min-hop matrices into OpenSM's switches: the hop
 * tables (osm_switch_t.hops, as osm_switch_set_hops leaves them) that OpenSM's own min-hop step
 * would build, read by multicast routing and the opensm.fdbs / lid-matrix dumps. */
#ifndef PSSSP_LID_MATRICES_H
#define PSSSP_LID_MATRICES_H

#include <opensm/osm_config.h>
#include <opensm/osm_log.h>
#include <opensm/osm_subnet.h>

#include "engine_bridge.h"
#include "subnet_snapshot.h"

/* Sets every switch's hop table from the engine (psssp_engine_build_hops
 * must have succeeded on this sweep's snapshot). Entries for LIDs above a
 * switch's max_lid_ho are skipped, as OpenSM's own step skips them. 0 on
 * success; on failure logs, clears every switch's hop table (OpenSM then
 * builds them itself from scratch) and returns -1. */
int psssp_write_hops(psssp_engine_t *engine, osm_subn_t *subn, const struct psssp_node_index *index,
                     osm_log_t *log);

#endif
