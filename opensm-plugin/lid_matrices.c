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

/* One switch: every entry the engine gives, through OpenSM's own setter
 * (it allocates the LID's row and keeps the least hops in slot 0). */
static int write_switch(psssp_engine_t *engine, osm_switch_t *sw, uint32_t id, uint8_t *buf,
                        size_t columns, osm_log_t *log) {
  const unsigned ports = sw->num_ports;
  size_t c;
  unsigned p;

  if (psssp_engine_copy_hops(engine, id, buf, ports) != 0) {
    OSM_LOG(log, OSM_LOG_ERROR, "ERR F510: psssp: no hop table for switch 0x%016" PRIx64 ": %s\n",
            cl_ntoh64(osm_node_get_node_guid(sw->p_node)), psssp_engine_error(engine));
    return -1;
  }
  for (c = 0; c < columns; c++) {
    const uint16_t lid = psssp_engine_hop_lid(engine, c);
    const uint8_t *row = buf + c * ports;

    if (!lid || lid > sw->max_lid_ho) continue;
    for (p = 0; p < ports; p++) {
      if (row[p] == OSM_NO_PATH) continue;
      if (osm_switch_set_hops(sw, lid, (uint8_t)p, row[p]) != 0) {
        OSM_LOG(log, OSM_LOG_ERROR,
                "ERR F510: psssp: cannot set hops for LID %u at switch 0x%016" PRIx64
                " (out of memory)\n",
                lid, cl_ntoh64(osm_node_get_node_guid(sw->p_node)));
        return -1;
      }
    }
  }
  return 0;
}

int psssp_write_hops(psssp_engine_t *engine, osm_subn_t *subn, const struct psssp_node_index *index,
                     osm_log_t *log) {
  cl_qmap_t *switches = &subn->sw_guid_tbl;
  const size_t columns = psssp_engine_hop_lid_count(engine);
  osm_switch_t *sw;
  uint8_t *buf = NULL;
  size_t widest = 1;
  int rc = -1;

  for (sw = (osm_switch_t *)cl_qmap_head(switches); sw != (osm_switch_t *)cl_qmap_end(switches);
       sw = (osm_switch_t *)cl_qmap_next(&sw->map_item))
    if (sw->num_ports > widest) widest = sw->num_ports;
  buf = malloc((columns ? columns : 1) * widest);
  if (!buf) {
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
    if (write_switch(engine, sw, id, buf, columns, log) != 0) goto out;
  }
  rc = 0;
out:
  if (rc != 0) clear_all_hops(subn);
  free(buf);
  return rc;
}
