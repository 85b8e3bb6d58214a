/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* libpsssp_pathsl.so: an OpenSM event plugin that, after every routing, writes the SL of every
 * host-to-host path as the routing engine in use hands it to the SA: psssp-path-sl.dump next to
 * OpenSM's own dumps, in the SL file format of `psssp-sim check --deadlock --sl-file` ("SLID DLID
 * SL").
 *
 * It writes when OpenSM reports unicast routing done (the switches have
 * their tables and SL-to-VL maps): SUBNET UP comes too late for `opensm -o`,
 * which sets its exit flag first and so never reports it.
 *
 * SA PathRecord answers are path_sl(hint, SLID, DLID) of the engine (lash,
 * dfsssp, nue, torus-2QoS, psssp with vls=N), where the hint is the SL the
 * SA chose first: 0 with QoS on and no QoS policy file, as in
 * compare-engines. Asking the SA over MADs does not scale under ibsim
 * (umad2sim has no RMPP, so a GetTable answer stops after one MAD, and one
 * Get per pair is a million MADs for 1000 hosts); the engine's own path_sl,
 * called here under OpenSM's lock like the SA calls it, is the same answer.
 * Engines without path_sl get a header only: every path is on the hint SL. */

/* Must come first: it defines the options that change OpenSM's struct layouts. */
#include <opensm/osm_config.h>
/* (the other OpenSM headers after it) */
#include <complib/cl_passivelock.h>
#include <complib/cl_qmap.h>
#include <errno.h>
#include <opensm/osm_event_plugin.h>
#include <opensm/osm_log.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_port.h>
#include <opensm/osm_version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PATH_SL_FILE "psssp-path-sl.dump"
#define PATH_SL_HINT 0 /* the SA's own choice without a QoS policy */
/* About 750 MB of dump and 5 s of writing (8000 hosts); beyond, the dump
 * says why it has no paths rather than stall OpenSM and fill the disk. */
#define PATH_SL_MAX_PATHS (64LL << 20)

/* The limit: PSSSP_PATHSL_MAX_PATHS from the environment, else the default. */
static long long max_paths(void) {
  const char *text = getenv("PSSSP_PATHSL_MAX_PATHS");
  char *end;
  long long value;

  if (!text || !*text) return PATH_SL_MAX_PATHS;
  value = strtoll(text, &end, 10);
  return *end || value < 0 ? PATH_SL_MAX_PATHS : value;
}

struct lid_range {
  uint16_t first, count;
  int host; /* a CA or router port: a source of paths */
};

static int by_first_lid(const void *a, const void *b) {
  const struct lid_range *x = a, *y = b;

  return (int)x->first - (int)y->first;
}

/* The LID range of every port with a LID, by LID; *hosts counts
 * the CA and router ports. NULL when memory runs out (errno ENOMEM). */
static struct lid_range *port_lids(osm_subn_t *subn, size_t *n, size_t *hosts) {
  cl_qmap_t *ports = &subn->port_guid_tbl;
  struct lid_range *out;
  cl_map_item_t *item;
  size_t k = 0;

  *n = *hosts = 0;
  out = calloc(cl_qmap_count(ports) + 1, sizeof(*out));
  if (!out) return NULL;
  for (item = cl_qmap_head(ports); item != cl_qmap_end(ports); item = cl_qmap_next(item)) {
    osm_port_t *port = (osm_port_t *)item;
    uint16_t lo, hi;

    if (!port->p_node) continue;
    osm_port_get_lid_range_ho(port, &lo, &hi);
    if (lo == 0 || hi < lo) continue; /* no LID yet */
    out[k].first = lo;
    out[k].count = (uint16_t)(hi - lo + 1);
    out[k].host = osm_node_get_type(port->p_node) != IB_NODE_TYPE_SWITCH;
    *hosts += (size_t)out[k].host;
    k++;
  }
  *n = k;
  /* Ascending LIDs: the dump then lists routes in (SLID, DLID) order, which
   * its reader takes without sorting. */
  qsort(out, k, sizeof(*out), by_first_lid);
  return out;
}

/* "SLID DLID SL\n" without printf: the dump has (hosts x LIDs) lines, 20
 * million for 4096 hosts, and formatting dominates writing them. */
static void put_line(FILE *f, uint16_t slid, uint16_t dlid, uint8_t sl) {
  char line[24], *p = line + sizeof(line);
  unsigned v;

  *--p = '\n';
  v = sl;
  do *--p = (char)('0' + v % 10);
  while (v /= 10);
  *--p = ' ';
  v = dlid;
  do *--p = (char)('0' + v % 10);
  while (v /= 10);
  *--p = ' ';
  v = slid;
  do *--p = (char)('0' + v % 10);
  while (v /= 10);
  fwrite_unlocked(p, 1, (size_t)(line + sizeof(line) - p), f);
}

/* Paths from every host LID to every LID of another port. */
static long long path_count(const struct lid_range *lids, size_t n) {
  long long all = 0, paths = 0;
  size_t i;

  for (i = 0; i < n; i++) all += lids[i].count;
  for (i = 0; i < n; i++)
    if (lids[i].host) paths += (long long)lids[i].count * (all - lids[i].count);
  return paths;
}

/* Writes the dump: one line per path from a host port LID to any other
 * port's LID (hosts and switches: the routes `psssp-sim check --deadlock`
 * follows). Returns the number of paths written, or -1 (errno set). */
static long long write_path_sls(osm_opensm_t *osm, FILE *f, const char *engine) {
  struct osm_routing_engine *re = osm->routing_engine_used;
  struct lid_range *lids;
  long long paths = 0;
  size_t n, hosts, s, d;
  unsigned used = 0;

  lids = port_lids(&osm->subn, &n, &hosts);
  if (!lids) return -1;
  fprintf(f,
          "# psssp-path-sl 1: SL of every path from a host port as the SA answers PathRecords\n"
          "# routing engine %s; path_sl hint %d; %zu host ports, %zu ports with LIDs\n"
          "# SLID DLID SL\n",
          engine, PATH_SL_HINT, hosts, n);
  if (!re || !re->path_sl) {
    fprintf(f, "# the engine has no path_sl: every path is on SL %d\n", PATH_SL_HINT);
    free(lids);
    return 0;
  }
  if (path_count(lids, n) > max_paths()) {
    fprintf(f, "# not written: %lld paths, more than the limit of %lld\n", path_count(lids, n),
            max_paths());
    free(lids);
    return 0;
  }
  for (s = 0; s < n; s++) {
    if (!lids[s].host) continue;
    for (uint16_t i = 0; i < lids[s].count; i++) {
      const uint16_t slid = (uint16_t)(lids[s].first + i);
      for (d = 0; d < n; d++) {
        if (d == s) continue;
        for (uint16_t j = 0; j < lids[d].count; j++) {
          const uint16_t dlid = (uint16_t)(lids[d].first + j);
          const uint8_t sl =
              re->path_sl(re->context, PATH_SL_HINT, cl_hton16(slid), cl_hton16(dlid));
          put_line(f, slid, dlid, sl);
          used |= 1u << (sl & 15);
          paths++;
        }
      }
    }
  }
  fprintf(f, "# %lld paths; SL mask 0x%04x\n", paths, used);
  free(lids);
  return ferror(f) ? -1 : paths;
}

static void dump_path_sls(osm_opensm_t *osm) {
  osm_log_t *log = &osm->log;
  const char *dir = osm->subn.opt.dump_files_dir;
  const char *engine;
  char path[4096];
  struct timespec t0, t1;
  long long paths;
  FILE *f;

  if (!dir || !*dir) dir = ".";
  snprintf(path, sizeof(path), "%s%s" PATH_SL_FILE, dir, dir[strlen(dir) - 1] == '/' ? "" : "/");
  clock_gettime(CLOCK_MONOTONIC, &t0);
  f = fopen(path, "w");
  if (!f) {
    OSM_LOG(log, OSM_LOG_ERROR, "ERR F520: psssp_pathsl: cannot write %s: %s\n", path,
            strerror(errno));
    return;
  }
  setvbuf(f, NULL, _IOFBF, 1 << 20);
  cl_plock_acquire(&osm->lock);
  engine = osm->routing_engine_used && osm->routing_engine_used->name
               ? osm->routing_engine_used->name
               : "none";
  paths = write_path_sls(osm, f, engine);
  cl_plock_release(&osm->lock);
  if (fclose(f) != 0) paths = -1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (paths < 0)
    OSM_LOG(log, OSM_LOG_ERROR, "ERR F520: psssp_pathsl: cannot write %s: %s\n", path,
            strerror(errno));
  else
    OSM_LOG(log, OSM_LOG_INFO, "psssp_pathsl: SLs of %lld paths (engine %s) in %s, %.3f s\n", paths,
            engine, path,
            (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
}

static void *create_plugin(struct osm_opensm *osm) { return osm; }

static void delete_plugin(void *data) { (void)data; }

static void report_event(void *data, osm_epi_event_id_t event_id, void *event_data) {
  (void)event_data;
  if (event_id == OSM_EVENT_ID_UCAST_ROUTING_DONE) dump_path_sls(data);
}

osm_event_plugin_t osm_event_plugin = {
    .osm_version = OSM_VERSION,
    .create = create_plugin,
    .delete = delete_plugin,
    .report = report_event,
};
