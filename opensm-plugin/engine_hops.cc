// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The hop-table entry points of engine_bridge.h: OpenSM's LID matrices from
// one BFS per switch LID, kept across sweeps, written in place.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "engine_state.h"
#include "parallel/run_workers.h"
#include "parallel/thread_count.h"

using psssp::bridge::guarded;
using psssp::bridge::index_once;

namespace {

// Brings e->hop_entries up to date with e->hops: every row after a change
// of switches or targets, else only the rows changed_entries names.
void update_hop_entries(psssp_engine* e) {
  const psssp::routing::MinHopMatrix& hops = e->hops;
  const std::size_t n = hops.switch_count();
  const std::size_t targets = hops.target_count();
  size_t width = 1;
  for (psssp::NodeId sw : e->fabric.switches())
    width = std::max<size_t>(width, e->fabric.node(sw).ports.size());
  std::vector<std::uint8_t> changed;
  if (e->hop_entries_valid && width == e->hop_width)
    changed = hops.changed_entries(e->hop_entries_of);
  else
    changed.assign(n * targets, 1);
  e->hop_entries_valid = false;  // until every changed row is written
  e->hop_width = width;
  e->hop_entries.resize(n * targets * width);
  std::vector<std::size_t> computed(n, 0);
  const unsigned workers = psssp::parallel::effective_threads(e->options.routing.threads);
  psssp::parallel::parallel_for(n, workers, [&](size_t i, unsigned) {
    const psssp::NodeId sw = e->fabric.switches()[i];
    const std::uint32_t s = hops.switch_index(sw);
    for (size_t t = 0; t < targets; ++t) {
      if (!changed[t * n + s]) continue;
      hops.entries(sw, t, &e->hop_entries[(s * targets + t) * width]);
      ++computed[s];
    }
  });
  e->hop_rows_computed = 0;
  for (std::size_t c : computed) e->hop_rows_computed += c;
  e->hop_entries_of = hops;
  e->hop_entries_valid = true;
}

}  // namespace

int psssp_engine_build_hops(psssp_engine_t* e) {
  e->hops_built = false;
  return guarded(e, [&] {
    index_once(e);
    e->hops = psssp::routing::MinHopMatrix(e->fabric, e->options.routing.threads);
    update_hop_entries(e);
    e->hops_built = true;
  });
}

size_t psssp_engine_hop_rows_computed(const psssp_engine_t* e) {
  return e->hops_built ? e->hop_rows_computed : 0;
}

size_t psssp_engine_hop_lid_count(const psssp_engine_t* e) {
  return e->hops_built ? e->hops.target_count() : 0;
}

uint16_t psssp_engine_hop_lid(const psssp_engine_t* e, size_t column) {
  return e->hops_built && column < e->hops.target_count() ? e->hops.target_lid(column) : 0;
}

int psssp_engine_copy_hops(psssp_engine_t* e, uint32_t node, uint8_t* hops, unsigned ports) {
  return guarded(e, [&] {
    if (!e->hops_built) throw std::logic_error("no hop matrix was built");
    if (node >= e->fabric.node_count() || !e->fabric.node(node).is_switch() ||
        e->fabric.node(node).ports.size() != ports)
      throw psssp::FabricError("node " + std::to_string(node) + " is not a switch with " +
                               std::to_string(ports) + " ports");
    for (size_t c = 0; c < e->hops.target_count(); ++c) e->hops.entries(node, c, hops + c * ports);
  });
}

namespace {

// One switch's table (see psssp_engine_fill_hop_tables), from its rows
// of e->hop_entries.
void fill_hop_table(const psssp_engine* e, const psssp_hop_table& t) {
  const std::size_t targets = e->hops.target_count();
  const std::uint32_t s = e->hops.switch_index(t.node);
  for (size_t c = 0; c < targets; ++c) {
    const psssp::Lid lid = e->hops.target_lid(c);
    if (!lid || lid > t.max_lid || lid >= t.num_rows) continue;
    const std::uint8_t* entries = &e->hop_entries[(s * targets + c) * e->hop_width];
    std::uint8_t least = psssp::routing::kNoHops;
    for (unsigned p = 0; p < t.ports; ++p) least = std::min(least, entries[p]);
    if (least == psssp::routing::kNoHops) continue;  // no osm_switch_set_hops call: no row
    std::uint8_t* row = t.rows[lid];
    if (!row) {
      row = static_cast<std::uint8_t*>(std::malloc(t.ports));  // OpenSM free()s it
      if (!row) throw std::bad_alloc();
      std::memset(row, psssp::routing::kNoHops, t.ports);
      t.rows[lid] = row;
    }
    // Each set entry overwrites its port; slot 0 ends as the least of what
    // it held (or was set to) and everything set.
    for (unsigned p = 0; p < t.ports; ++p)
      row[p] = entries[p] == psssp::routing::kNoHops ? row[p] : entries[p];
    row[0] = std::min(row[0], least);
  }
}

}  // namespace

int psssp_engine_fill_hop_tables(psssp_engine_t* e, psssp_hop_table* tables, size_t count) {
  return guarded(e, [&] {
    if (!e->hops_built) throw std::logic_error("no hop matrix was built");
    size_t widest = 1;
    for (size_t i = 0; i < count; ++i) {
      const psssp_hop_table& t = tables[i];
      if (t.node >= e->fabric.node_count() || !e->fabric.node(t.node).is_switch() ||
          e->fabric.node(t.node).ports.size() != t.ports)
        throw psssp::FabricError("node " + std::to_string(t.node) + " is not a switch with " +
                                 std::to_string(t.ports) + " ports");
      widest = std::max<size_t>(widest, t.ports);
    }
    if (widest > e->hop_width) throw std::logic_error("hop entries narrower than a switch");
    const unsigned workers = psssp::parallel::effective_threads(e->options.routing.threads);
    psssp::parallel::parallel_for(count, workers,
                                  [&](size_t i, unsigned) { fill_hop_table(e, tables[i]); });
  });
}
