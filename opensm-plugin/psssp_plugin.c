/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* libpsssp.so: an OpenSM event plugin whose only job is to register the
 * `psssp` routing engine. OpenSM dlopen()s it for `event_plugin_name psssp`
 * and calls create() before it sets up routing engines, so `routing_engine
 * psssp` (or -R psssp) then finds the engine. */

/* Must come first: it defines the options that change OpenSM's struct layouts. */
#include <complib/cl_qmap.h>
#include <inttypes.h>
#include <opensm/osm_config.h>
#include <opensm/osm_event_plugin.h>
#include <opensm/osm_log.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine_bridge.h"
#include "lid_matrices.h"
#include "psssp/version.h"
#include "subnet_snapshot.h"

struct psssp_plugin {
  osm_opensm_t *osm;
  psssp_engine_t *engine; /* NULL when the options were rejected */
  char option_error[512];
  external_routing_engine_module_t module;
  /* This sweep's snapshot, taken by build_lid_matrices and used again by
   * build_fwd_tables (OpenSM calls them back to back under its lock). */
  struct psssp_node_index index;
  int snapshot_ready;
};

static double seconds_now(void) {
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void drop_snapshot(struct psssp_plugin *plugin) {
  /* A routing started on the snapshot ends with it, its outcome unused. */
  if (plugin->engine && psssp_engine_route_started(plugin->engine))
    psssp_engine_route_finish(plugin->engine, NULL);
  psssp_node_index_free(&plugin->index);
  plugin->snapshot_ready = 0;
}

/* Copies OpenSM's subnet into the engine; 0 on success (errors are logged). */
static int take_snapshot(struct psssp_plugin *plugin) {
  osm_subn_t *subn = &plugin->osm->subn;
  osm_log_t *log = &plugin->osm->log;

  drop_snapshot(plugin);
  if (psssp_node_index_build(subn, log, &plugin->index) != 0) return -1;
  if (psssp_snapshot_subnet(plugin->engine, subn, &plugin->index, log) != 0 ||
      psssp_snapshot_current_lfts(plugin->engine, subn, &plugin->index, log) != 0) {
    drop_snapshot(plugin);
    return -1;
  }
  plugin->snapshot_ready = 1;
  return 0;
}

/* Test build only: PSSSP_FAULT_AT_TASK=n makes the n-th parallel task of
 * the routing throw std::bad_alloc (tests/test_fault_injection.py). */
static void arm_routing_fault(void) {
#ifdef PSSSP_FAULT_INJECTION
  if (getenv("PSSSP_FAULT_AT_TASK"))
    psssp_engine_arm_task_fault(strtoull(getenv("PSSSP_FAULT_AT_TASK"), NULL, 10));
#endif
}

/* A fault armed for one step must count only that step's tasks, so the test
 * build routes after the hop tables when it arms one. */
static int faults_armed(void) {
#ifdef PSSSP_FAULT_INJECTION
  return getenv("PSSSP_FAULT_AT_TASK") || getenv("PSSSP_FAULT_AT_HOPS_TASK");
#else
  return 0;
#endif
}

/* Starts routing the snapshot on the engine's own thread, to run while the
 * hop tables are built and written; build_fwd_tables collects it. When no
 * thread starts, build_fwd_tables routes as before. */
static void start_routing(struct psssp_plugin *plugin) {
  if (psssp_engine_route_start(plugin->engine, plugin->osm->subn.min_data_vls) != 0)
    OSM_LOG(&plugin->osm->log, OSM_LOG_VERBOSE,
            "psssp: routing waits for the hop tables (no thread: %s)\n",
            psssp_engine_error(plugin->engine));
}

/* The switches' hop tables ("LID matrices"), the same OpenSM's min-hop step
 * builds, from one BFS per switch LID. Returns 1 (OpenSM builds them) when
 * lid_matrices=opensm, with hop weights, or after any failure; never < 0,
 * so a failure here never costs the psssp routing. */
static int build_lid_matrices(void *context) {
  struct psssp_plugin *plugin = context;
  osm_log_t *log = &plugin->osm->log;
  double start, snapshot, computed;

  drop_snapshot(plugin);
  if (!psssp_engine_builds_lid_matrices(plugin->engine)) return 1;
  if (plugin->osm->subn.opt.hop_weights_file) {
    OSM_LOG(log, OSM_LOG_INFO,
            "psssp: hop_weights_file is set: OpenSM builds the LID matrices with its weights\n");
    return 1;
  }
  start = seconds_now();
  if (take_snapshot(plugin) != 0) {
    OSM_LOG(log, OSM_LOG_ERROR,
            "ERR F510: psssp: no subnet snapshot for the LID matrices; OpenSM builds them\n");
    return 1;
  }
  snapshot = seconds_now();
  if (!faults_armed()) start_routing(plugin);
#ifdef PSSSP_FAULT_INJECTION
  /* Test build only: PSSSP_FAULT_AT_HOPS_TASK=n makes the n-th parallel task
   * of the LID matrix computation throw std::bad_alloc. */
  if (getenv("PSSSP_FAULT_AT_HOPS_TASK"))
    psssp_engine_arm_task_fault(strtoull(getenv("PSSSP_FAULT_AT_HOPS_TASK"), NULL, 10));
#endif
  if (psssp_engine_build_hops(plugin->engine) != 0) {
    OSM_LOG(log, OSM_LOG_ERROR,
            "ERR F510: psssp: cannot build the LID matrices: %s; OpenSM builds them\n",
            psssp_engine_error(plugin->engine));
    drop_snapshot(plugin);
    return 1;
  }
  computed = seconds_now();
  if (psssp_write_hops(plugin->engine, &plugin->osm->subn, &plugin->index, log) != 0) {
    OSM_LOG(log, OSM_LOG_ERROR, "ERR F510: psssp: LID matrices not written; OpenSM builds them\n");
    drop_snapshot(plugin);
    return 1;
  }
  OSM_LOG(log, OSM_LOG_INFO,
          "psssp: LID matrices for %zu switch LIDs built in %.3f s (snapshot %.3f s, "
          "BFS and %zu changed rows %.3f s, setting hops %.3f s%s)\n",
          psssp_engine_hop_lid_count(plugin->engine), seconds_now() - start, snapshot - start,
          psssp_engine_hop_rows_computed(plugin->engine), computed - snapshot,
          seconds_now() - computed,
          psssp_engine_route_started(plugin->engine) ? ", routing meanwhile" : "");
  if (faults_armed()) {
    arm_routing_fault();
    start_routing(plugin);
  }
  return 0;
}

/* The path SLs and SL-to-VL maps for ibdmchk -c / -d, next to opensm.fdbs,
 * named like the layer table (with opensm --guid: after that port). Not
 * written when the path-SL file would exceed PSSSP_IBDMCHK_MAX_LINES (one
 * line per source node and LID). */
#define PSSSP_IBDMCHK_MAX_LINES 4000000
static void write_ibdmchk_files(struct psssp_plugin *plugin, const char *dir) {
  osm_log_t *log = &plugin->osm->log;
  const char *sep = dir[strlen(dir) - 1] == '/' ? "" : "/";
  char tag[32] = "";
  char path_sl[4096], sl2vl[4096];
  int rc;

  if (plugin->osm->subn.opt.guid)
    snprintf(tag, sizeof(tag), ".0x%016" PRIx64, cl_ntoh64(plugin->osm->subn.opt.guid));
  snprintf(path_sl, sizeof(path_sl), "%s%spsssp-path-sl%s.ibdmchk", dir, sep, tag);
  snprintf(sl2vl, sizeof(sl2vl), "%s%spsssp-sl2vl%s.ibdmchk", dir, sep, tag);
  rc = psssp_engine_write_ibdmchk(plugin->engine, path_sl, sl2vl, PSSSP_IBDMCHK_MAX_LINES);
  if (rc < 0)
    OSM_LOG(log, OSM_LOG_ERROR, "ERR F50A: psssp: cannot write %s or %s\n", path_sl, sl2vl);
  else if (rc > 0)
    OSM_LOG(log, OSM_LOG_INFO, "psssp: %s not written: more than %d lines (source nodes x LIDs)\n",
            path_sl, PSSSP_IBDMCHK_MAX_LINES);
  else
    OSM_LOG(log, OSM_LOG_INFO, "psssp: for ibdmchk -c and -d: %s, %s\n", path_sl, sl2vl);
}

/* The layer table next to OpenSM's own dumps, for `psssp-sim check --layers`. */
static void write_layer_dump(struct psssp_plugin *plugin, const struct psssp_route_stats *stats) {
  osm_log_t *log = &plugin->osm->log;
  const char *dir = plugin->osm->subn.opt.dump_files_dir;
  char path[4096];

  if (!dir || !*dir) dir = ".";
  /* With opensm --guid the file is named after that port: Debian's
   * opensm@.service runs one instance per port, all dumping to /var/log, and
   * each keeps its own table. */
  if (plugin->osm->subn.opt.guid)
    snprintf(path, sizeof(path), "%s%spsssp-layers.0x%016" PRIx64 ".dump", dir,
             dir[strlen(dir) - 1] == '/' ? "" : "/", cl_ntoh64(plugin->osm->subn.opt.guid));
  else
    snprintf(path, sizeof(path), "%s%spsssp-layers.dump", dir,
             dir[strlen(dir) - 1] == '/' ? "" : "/");
  if (psssp_engine_write_layers(plugin->engine, path) != 0)
    OSM_LOG(log, OSM_LOG_ERROR, "ERR F508: psssp: cannot write %s\n", path);
  else
    OSM_LOG(log, OSM_LOG_INFO,
            "psssp: routes need %u virtual layers, spread over %u (SL = VL = layer) in %.3f s; "
            "table in %s\n",
            stats->layers_needed, stats->layers, stats->layer_seconds, path);
  write_ibdmchk_files(plugin, dir);
}

static int build_fwd_tables(void *context) {
  struct psssp_plugin *plugin = context;
  osm_log_t *log = &plugin->osm->log;
  struct psssp_route_stats stats;
  int routed, rc = -1;

  /* The routing build_lid_matrices started moments ago on its snapshot,
   * else a routing now, of a fresh snapshot if there is none. */
  if (psssp_engine_route_started(plugin->engine)) {
    routed = psssp_engine_route_finish(plugin->engine, &stats);
  } else {
    if (!plugin->snapshot_ready && take_snapshot(plugin) != 0) goto out;
    arm_routing_fault();
    routed = psssp_engine_route(plugin->engine, plugin->osm->subn.min_data_vls, &stats);
  }
  if (routed != 0) {
    OSM_LOG(log, OSM_LOG_ERROR, "ERR F502: psssp routing failed: %s\n",
            psssp_engine_error(plugin->engine));
    goto out;
  }
  if (stats.unreachable)
    OSM_LOG(log, OSM_LOG_INFO,
            "psssp: %u destinations are unreachable from part of the fabric "
            "(disconnected components); their LFT entries stay empty\n",
            stats.unreachable);
  if (psssp_write_lfts(plugin->engine, &plugin->osm->subn, &plugin->index, log) != 0) goto out;
  if (stats.incremental)
    OSM_LOG(log, OSM_LOG_INFO,
            "psssp: incremental re-route: %llu of %llu entries kept, %llu repaired "
            "(next hop gone or on a loop), %llu back on their original route, "
            "%llu moved by rebalancing\n",
            stats.kept, stats.entries, stats.repaired, stats.restored, stats.rebalanced);
  else if (stats.full_reason[0])
    OSM_LOG(log, OSM_LOG_INFO, "psssp: full re-route: %s\n", stats.full_reason);
  if (stats.layers_fallback[0]) OSM_LOG(log, OSM_LOG_INFO, "psssp: %s\n", stats.layers_fallback);
  if (psssp_engine_requested_vls(plugin->engine)) write_layer_dump(plugin, &stats);
  if (stats.incremental)
    OSM_LOG(log, OSM_LOG_INFO,
            "psssp: routed %u switches, %u CAs, %u host ports, %u LIDs in %.3f s; "
            "switch link load max %.0f mean %.1f routes; incremental\n",
            stats.switches, stats.cas, stats.host_ports, stats.lids, stats.seconds, stats.max_load,
            stats.mean_load);
  else
    OSM_LOG(log, OSM_LOG_INFO,
            "psssp: routed %u switches, %u CAs, %u host ports, %u LIDs in %.3f s; "
            "switch link load max %.0f mean %.1f routes; %s effort, %u refinement passes%s%s\n",
            stats.switches, stats.cas, stats.host_ports, stats.lids, stats.seconds, stats.max_load,
            stats.mean_load, stats.full_effort ? "full" : "fast", stats.refine_passes,
            stats.converged ? " (converged)" : "", stats.choices);
  rc = 0;
out:
  drop_snapshot(plugin);
  return rc;
}

/* SL (= virtual layer) of a path, for SA PathRecord answers. */
static uint8_t path_sl(void *context, uint8_t hint, const ib_net16_t slid, const ib_net16_t dlid) {
  struct psssp_plugin *plugin = context;

  (void)hint; /* the layer is what keeps the path deadlock-free */
  return psssp_engine_path_sl(plugin->engine, cl_ntoh16(slid), cl_ntoh16(dlid));
}

/* Layer i travels on VL i on every hop. */
static void update_sl2vl(void *context, osm_physp_t *port, uint8_t in_port, uint8_t out_port,
                         ib_slvl_table_t *table) {
  uint8_t sl;

  (void)context;
  (void)port;
  (void)in_port;
  (void)out_port;
  for (sl = 0; sl < IB_MAX_NUM_VLS - 1; sl++) ib_slvl_table_set(table, sl, sl);
}

static void destroy_engine(void *context) {
  (void)context; /* the plugin owns its state; delete_plugin frees it */
}

static int setup_engine(struct osm_routing_engine *re, struct osm_opensm *osm) {
  struct psssp_plugin *plugin = re->context;

  if (!plugin->engine) {
    OSM_LOG(&osm->log, OSM_LOG_ERROR,
            "ERR F501: psssp refuses to set up: bad event_plugin_options: %s\n",
            plugin->option_error);
    return -1;
  }
  if (psssp_engine_requested_vls(plugin->engine) && !osm->subn.opt.qos) {
    OSM_LOG(&osm->log, OSM_LOG_ERROR,
            "ERR F507: psssp refuses to set up: vls=%u needs QoS for SL-to-VL maps "
            "(opensm -Q, or 'qos TRUE' in opensm.conf)\n",
            psssp_engine_requested_vls(plugin->engine));
    return -1;
  }
  OSM_LOG(&osm->log, OSM_LOG_INFO, "psssp " PSSSP_VERSION " routing engine set up (%s)\n",
          psssp_engine_describe(plugin->engine));
  if (psssp_engine_requested_vls(plugin->engine)) {
    re->path_sl = path_sl;
    re->update_sl2vl = update_sl2vl;
  }
  /* Multicast routing and the opensm.fdbs dump read the hop tables: psssp
   * builds them unless lid_matrices=opensm (then build_lid_matrices returns
   * 1 and OpenSM builds its own). */
  re->build_lid_matrices = build_lid_matrices;
  re->ucast_build_fwd_tables = build_fwd_tables;
  re->destroy = destroy_engine;
  return 0;
}

static void *create_plugin(struct osm_opensm *osm) {
  struct psssp_plugin *plugin = calloc(1, sizeof(*plugin));
  const char *options = osm->subn.opt.event_plugin_options;

  if (!plugin) {
    OSM_LOG(&osm->log, OSM_LOG_ERROR, "ERR F500: psssp: out of memory\n");
    return NULL;
  }
  plugin->osm = osm;
  plugin->engine = psssp_engine_new(options, plugin->option_error, sizeof(plugin->option_error));
  /* Register even with bad options: setup then logs why it refuses, at the
   * moment OpenSM chooses engines, and OpenSM falls back. */
  plugin->module.name = "psssp";
  plugin->module.setup = setup_engine;
  plugin->module.context = plugin;
  if (osm_register_external_routing_engine(osm, &plugin->module, plugin) != 0) {
    OSM_LOG(&osm->log, OSM_LOG_ERROR, "ERR F503: psssp: cannot register the routing engine\n");
    psssp_engine_free(plugin->engine);
    free(plugin);
    return NULL;
  }
  return plugin;
}

static void delete_plugin(void *data) {
  struct psssp_plugin *plugin = data;

  if (!plugin) return;
  drop_snapshot(plugin);
  psssp_engine_free(plugin->engine);
  free(plugin);
}

static void report_event(void *data, osm_epi_event_id_t event_id, void *event_data) {
  (void)data;
  (void)event_id;
  (void)event_data;
}

osm_event_plugin_t osm_event_plugin = {
    .osm_version = OSM_VERSION,
    .create = create_plugin,
    .delete = delete_plugin,
    .report = report_event,
};
