/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "subnet_snapshot.h"

#include <complib/cl_qmap.h>
#include <iba/ib_types.h>
#include <opensm/osm_config.h>
#include <opensm/osm_node.h>
#include <opensm/osm_port.h>
#include <opensm/osm_switch.h>
#include <stdlib.h>

static int compare_guid(const void *a, const void *b) {
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

uint32_t psssp_node_index_find(const struct psssp_node_index *index, uint64_t guid) {
  const uint64_t *hit = bsearch(&guid, index->guids, index->count, sizeof(uint64_t), compare_guid);
  return hit ? (uint32_t)(hit - index->guids) : UINT32_MAX;
}

int psssp_node_index_build(osm_subn_t *subn, osm_log_t *log, struct psssp_node_index *index) {
  cl_qmap_t *nodes = &subn->node_guid_tbl;
  osm_node_t *node;
  size_t i = 0;

  index->count = cl_qmap_count(nodes);
  index->guids = malloc((index->count ? index->count : 1) * sizeof(uint64_t));
  if (!index->guids) {
    OSM_LOG(log, OSM_LOG_ERROR, "ERR F500: psssp: out of memory\n");
    return -1;
  }
  for (node = (osm_node_t *)cl_qmap_head(nodes); node != (osm_node_t *)cl_qmap_end(nodes);
       node = (osm_node_t *)cl_qmap_next(&node->map_item))
    index->guids[i++] = cl_ntoh64(osm_node_get_node_guid(node));
  /* cl_qmap sorts by network-order keys; re-sort in host order so node ids
   * match the offline router's GUID order. */
  qsort(index->guids, index->count, sizeof(uint64_t), compare_guid);
  return 0;
}

void psssp_node_index_free(struct psssp_node_index *index) {
  free(index->guids);
  index->guids = NULL;
  index->count = 0;
}

static unsigned width_lanes(const ib_port_info_t *pi) {
  switch (pi->link_width_active) {
    case IB_LINK_WIDTH_ACTIVE_1X:
      return 1;
    case IB_LINK_WIDTH_ACTIVE_2X:
      return 2;
    case IB_LINK_WIDTH_ACTIVE_4X:
      return 4;
    case IB_LINK_WIDTH_ACTIVE_8X:
      return 8;
    case IB_LINK_WIDTH_ACTIVE_12X:
      return 12;
    default:
      return 0;
  }
}

static int speed_code(const osm_physp_t *physp) {
  const ib_port_info_t *pi = &physp->port_info;

  switch (ib_port_info_get_link_speed_ext_active(pi)) {
    case IB_LINK_SPEED_EXT_ACTIVE_14:
      return PSSSP_SPEED_FDR;
    case IB_LINK_SPEED_EXT_ACTIVE_25:
      return PSSSP_SPEED_EDR;
    case IB_LINK_SPEED_EXT_ACTIVE_50:
      return PSSSP_SPEED_HDR;
    default:
      break;
  }
  if (physp->ext_port_info.link_speed_active & FDR10) return PSSSP_SPEED_FDR10;
  switch (ib_port_info_get_link_speed_active(pi)) {
    case IB_LINK_SPEED_ACTIVE_2_5:
      return PSSSP_SPEED_SDR;
    case IB_LINK_SPEED_ACTIVE_5:
      return PSSSP_SPEED_DDR;
    case IB_LINK_SPEED_ACTIVE_10:
      return PSSSP_SPEED_QDR;
    default:
      return PSSSP_SPEED_UNKNOWN;
  }
}

static int node_kind(const osm_node_t *node) {
  switch (osm_node_get_type(node)) {
    case IB_NODE_TYPE_SWITCH:
      return PSSSP_NODE_SWITCH;
    case IB_NODE_TYPE_ROUTER:
      return PSSSP_NODE_ROUTER;
    default:
      return PSSSP_NODE_CA;
  }
}

/* LID range of an end port (a switch's port 0 or a CA port), 0 if none. */
static void port_lids(osm_subn_t *subn, const osm_physp_t *physp, uint16_t *lid, uint8_t *lmc) {
  const osm_port_t *port = osm_get_port_by_guid(subn, osm_physp_get_port_guid(physp));
  uint16_t min_lid = 0, max_lid = 0;
  unsigned count;

  *lid = 0;
  *lmc = 0;
  if (!port) return;
  osm_port_get_lid_range_ho(port, &min_lid, &max_lid);
  if (!min_lid) return;
  *lid = min_lid;
  for (count = (unsigned)(max_lid - min_lid) + 1; count > 1; count >>= 1) ++*lmc;
}

static int add_ports(psssp_engine_t *engine, osm_subn_t *subn, osm_node_t *node, uint32_t id,
                     osm_log_t *log) {
  const uint8_t num_physp = osm_node_get_num_physp(node);
  const int is_switch = osm_node_get_type(node) == IB_NODE_TYPE_SWITCH;
  uint8_t p;

  for (p = is_switch ? 0 : 1; p < num_physp; p++) {
    osm_physp_t *physp = osm_node_get_physp_ptr(node, p);
    uint16_t lid = 0;
    uint8_t lmc = 0;

    if (!physp || !osm_physp_is_valid(physp)) continue;
    if (p == 0 || !is_switch) port_lids(subn, physp, &lid, &lmc);
    if (psssp_engine_set_port(engine, id, p, cl_ntoh64(osm_physp_get_port_guid(physp)), lid, lmc,
                              width_lanes(&physp->port_info), speed_code(physp),
                              p == 0 || osm_link_is_healthy(physp)) != 0) {
      OSM_LOG(log, OSM_LOG_ERROR, "ERR F504: psssp: port %u of node 0x%016" PRIx64 ": %s\n", p,
              cl_ntoh64(osm_node_get_node_guid(node)), psssp_engine_error(engine));
      return -1;
    }
  }
  return 0;
}

static int add_cables(psssp_engine_t *engine, const struct psssp_node_index *index,
                      osm_node_t *node, uint32_t id, osm_log_t *log) {
  const uint8_t num_physp = osm_node_get_num_physp(node);
  uint8_t p;

  for (p = 1; p < num_physp; p++) {
    osm_physp_t *physp = osm_node_get_physp_ptr(node, p);
    osm_physp_t *remote;
    uint32_t remote_id;

    if (!physp || !osm_physp_is_valid(physp)) continue;
    remote = osm_physp_get_remote(physp);
    if (!remote || !osm_physp_is_valid(remote)) continue;
    remote_id = psssp_node_index_find(index, cl_ntoh64(osm_node_get_node_guid(remote->p_node)));
    if (remote_id == UINT32_MAX) {
      OSM_LOG(log, OSM_LOG_ERROR,
              "ERR F505: psssp: inconsistent subnet: port %u of node 0x%016" PRIx64
              " leads to a node missing from the node table\n",
              p, cl_ntoh64(osm_node_get_node_guid(node)));
      return -1;
    }
    if (psssp_engine_connect(engine, id, p, remote_id, osm_physp_get_port_num(remote)) != 0) {
      OSM_LOG(log, OSM_LOG_ERROR, "ERR F505: psssp: inconsistent subnet: %s\n",
              psssp_engine_error(engine));
      return -1;
    }
  }
  return 0;
}

int psssp_snapshot_subnet(psssp_engine_t *engine, osm_subn_t *subn,
                          const struct psssp_node_index *index, osm_log_t *log) {
  osm_node_t *node;
  uint32_t id;

  psssp_engine_begin(engine);
  for (id = 0; id < index->count; id++) {
    node = osm_get_node_by_guid(subn, cl_hton64(index->guids[id]));
    if (!node || psssp_engine_add_node(engine, node_kind(node), index->guids[id], node->print_desc,
                                       (unsigned)osm_node_get_num_physp(node) - 1) != id) {
      OSM_LOG(log, OSM_LOG_ERROR, "ERR F504: psssp: cannot add node 0x%016" PRIx64 ": %s\n",
              index->guids[id], psssp_engine_error(engine));
      return -1;
    }
    if (add_ports(engine, subn, node, id, log) != 0) return -1;
  }
  for (id = 0; id < index->count; id++)
    if (add_cables(engine, index, osm_get_node_by_guid(subn, cl_hton64(index->guids[id])), id,
                   log) != 0)
      return -1;
  return 0;
}

int psssp_snapshot_current_lfts(psssp_engine_t *engine, osm_subn_t *subn,
                                const struct psssp_node_index *index, osm_log_t *log) {
  cl_qmap_t *switches = &subn->sw_guid_tbl;
  osm_switch_t *sw;

  for (sw = (osm_switch_t *)cl_qmap_head(switches); sw != (osm_switch_t *)cl_qmap_end(switches);
       sw = (osm_switch_t *)cl_qmap_next(&sw->map_item)) {
    const uint64_t guid = cl_ntoh64(osm_node_get_node_guid(sw->p_node));
    const uint32_t id = psssp_node_index_find(index, guid);
    if (id == UINT32_MAX || !sw->lft) continue;
    if (psssp_engine_set_current_lft(engine, id, sw->lft, sw->lft_size) != 0) {
      OSM_LOG(log, OSM_LOG_ERROR,
              "ERR F509: psssp: cannot take the current table of switch 0x%016" PRIx64 ": %s\n",
              guid, psssp_engine_error(engine));
      return -1;
    }
  }
  return 0;
}

int psssp_write_lfts(psssp_engine_t *engine, osm_subn_t *subn, const struct psssp_node_index *index,
                     osm_log_t *log) {
  cl_qmap_t *switches = &subn->sw_guid_tbl;
  const size_t vector_size = cl_ptr_vector_get_size(&subn->port_lid_tbl);
  const uint16_t max_lid = (uint16_t)(vector_size ? vector_size - 1 : 0);
  osm_switch_t *sw;
  uint8_t *row = malloc((size_t)max_lid + 1);
  int rc = -1;

  if (!row) {
    OSM_LOG(log, OSM_LOG_ERROR, "ERR F500: psssp: out of memory\n");
    goto out;
  }

  /* First pass: every switch must have a table and room for every LID. */
  for (sw = (osm_switch_t *)cl_qmap_head(switches); sw != (osm_switch_t *)cl_qmap_end(switches);
       sw = (osm_switch_t *)cl_qmap_next(&sw->map_item)) {
    const uint64_t guid = cl_ntoh64(osm_node_get_node_guid(sw->p_node));
    const uint32_t id = psssp_node_index_find(index, guid);
    if (id == UINT32_MAX || !sw->new_lft || sw->lft_size <= max_lid ||
        psssp_engine_copy_lft(engine, id, row, (size_t)max_lid + 1) != 0) {
      OSM_LOG(log, OSM_LOG_ERROR,
              "ERR F506: psssp: no routed table for switch 0x%016" PRIx64
              " (LID space %u, table size %u); leaving all tables unchanged\n",
              guid, max_lid, sw->lft_size);
      goto out;
    }
  }
  for (sw = (osm_switch_t *)cl_qmap_head(switches); sw != (osm_switch_t *)cl_qmap_end(switches);
       sw = (osm_switch_t *)cl_qmap_next(&sw->map_item)) {
    const uint32_t id = psssp_node_index_find(index, cl_ntoh64(osm_node_get_node_guid(sw->p_node)));
    psssp_engine_copy_lft(engine, id, sw->new_lft, (size_t)max_lid + 1);
  }
  rc = 0;
out:
  free(row);
  return rc;
}
