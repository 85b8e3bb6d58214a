/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "lid_matrices.h"

#include <complib/cl_qmap.h>
#include <inttypes.h>
#include <opensm/osm_config.h>
#include <opensm/osm_node.h>
#include <opensm/osm_switch.h>
#include <stdlib.h>

static void clear_all_hops(osm_subn_t *subn) {
  cl_qmap_t *switches = &subn->sw_guid_tbl;
  osm_switch_t *sw;

  for (sw = (osm_switch_t *)cl_qmap_head(switches); sw != (osm_switch_t *)cl_qmap_end(switches);
       sw = (osm_switch_t *)cl_qmap_next(&sw->map_item))
    osm_switch_clear_hops(sw);
}

/* Every switch's hop table is written in place by the engine, in parallel:
 * the same bytes as one osm_switch_set_hops call per entry (the setter
 * checks LID <= max_lid_ho and port < num_ports, allocates a missing row
 * with malloc filled with OSM_NO_PATH, and keeps the least hops in slot 0),
 * without ~20 million calls into OpenSM at 4096 hosts. OpenSM's lock is held
 * and nothing else touches the switches meanwhile. */
int psssp_write_hops(psssp_engine_t *engine, osm_subn_t *subn, const struct psssp_node_index *index,
                     osm_log_t *log) {
  cl_qmap_t *switches = &subn->sw_guid_tbl;
  const size_t count = cl_qmap_count(switches);
  struct psssp_hop_table *tables = calloc(count ? count : 1, sizeof(*tables));
  osm_switch_t *sw;
  size_t n = 0;
  int rc = -1;

  if (!tables) {
    OSM_LOG(log, OSM_LOG_ERROR, "ERR F500: psssp: out of memory\n");
    goto out;
  }
  for (sw = (osm_switch_t *)cl_qmap_head(switches); sw != (osm_switch_t *)cl_qmap_end(switches);
       sw = (osm_switch_t *)cl_qmap_next(&sw->map_item)) {
    const uint64_t guid = cl_ntoh64(osm_node_get_node_guid(sw->p_node));
    const uint32_t id = psssp_node_index_find(index, guid);

    if (id == UINT32_MAX) {
      OSM_LOG(log, OSM_LOG_ERROR,
              "ERR F510: psssp: switch 0x%016" PRIx64 " is missing from the snapshot\n", guid);
      goto out;
    }
    if (!sw->hops) continue; /* no LID table yet: osm_switch_set_hops would fail */
    tables[n].node = id;
    tables[n].rows = sw->hops;
    tables[n].num_rows = sw->num_hops;
    tables[n].ports = sw->num_ports;
    tables[n].max_lid = sw->max_lid_ho;
    n++;
  }
  if (psssp_engine_fill_hop_tables(engine, tables, n) != 0) {
    OSM_LOG(log, OSM_LOG_ERROR, "ERR F510: psssp: cannot write the hop tables: %s\n",
            psssp_engine_error(engine));
    goto out;
  }
  rc = 0;
out:
  if (rc != 0) clear_all_hops(subn);
  free(tables);
  return rc;
}
