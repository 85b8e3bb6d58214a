// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// IncrementalRouter: which entries still deliver, and the loads of the intact paths
// (incremental_router.h).
#include <algorithm>
#include <cstring>

#include "incremental_router.h"

namespace psssp::routing {

void IncrementalRouter::find_components() {
  const std::uint32_t n = graph_.vertex_count;
  component_.assign(n, kNone);
  std::vector<Vertex> queue;
  for (Vertex s = 0; s < n; ++s) {
    if (component_[s] != kNone) continue;
    const std::uint32_t c = static_cast<std::uint32_t>(component_size_.size());
    component_[s] = c;
    queue.assign(1, s);
    for (std::size_t i = 0; i < queue.size(); ++i)
      for (EdgeId e = graph_.first_edge[queue[i]]; e < graph_.first_edge[queue[i] + 1]; ++e)
        if (component_[graph_.target[e]] == kNone) {
          component_[graph_.target[e]] = c;
          queue.push_back(graph_.target[e]);
        }
    component_size_.push_back(static_cast<std::uint32_t>(queue.size()));
  }
}

// Rows of the previous tables and the reference are both switch-major: one
// pass over them, a block of 64 switches per task (no two tasks share a
// word), marks where they differ, so that check() need not read the
// reference across its rows once per LID.
void IncrementalRouter::find_differences() {
  bool any = false;
  for (const PortNum* r : reference_rows_) any = any || r;
  if (!any) return;
  const std::size_t lids = static_cast<std::size_t>(fabric_.max_lid()) + 1;
  const std::size_t known = std::min(lids, previous_.lid_count());
  differs_words_ = (graph_.vertex_count + 63) / 64;
  differs_.assign(lids * differs_words_, 0);
  parallel::parallel_for(differs_words_, threads_, [&](std::size_t w, unsigned) {
    const Vertex end = std::min<Vertex>(graph_.vertex_count, static_cast<Vertex>(64 * (w + 1)));
    for (Vertex v = static_cast<Vertex>(64 * w); v < end; ++v) {
      const PortNum* ref = reference_rows_[v];
      if (!ref) continue;
      const NodeId node = graph_.view.node_of_vertex[v];
      const PortNum* prev = previous_.has_switch(node) ? previous_.row(node) : nullptr;
      const std::uint64_t bit = std::uint64_t{1} << (v % 64);
      for (std::size_t lid = 0; lid < lids; lid += 64) {
        const std::size_t stop = std::min(lids, lid + 64);
        if (prev && stop <= known && std::memcmp(ref + lid, prev + lid, stop - lid) == 0) continue;
        for (std::size_t l = lid; l < stop; ++l)
          if (ref[l] != (prev && l < known ? prev[l] : kNoPath))
            differs_[l * differs_words_ + w] |= bit;
      }
    }
  });
}

void IncrementalRouter::check(const Destination& d, DeliveryWalk& walk) {
  PortNum* col = column(d.lid);
  const std::uint32_t comp = component_[d.vertex];
  if (col[d.vertex] != d.final_port) {
    touch(d);
    col[d.vertex] = d.final_port;
  }
  if (component_size_.size() > 1)
    for (Vertex u = 0; u < graph_.vertex_count; ++u)
      if (component_[u] != comp && col[u] != kNoPath) {
        touch(d);
        col[u] = kNoPath;  // no route exists
      }
  // Only the entries that differ from the reference (a bit each).
  std::vector<Vertex> restored;
  if (!differs_.empty()) {
    const std::uint64_t* bits = &differs_[static_cast<std::size_t>(d.lid) * differs_words_];
    for (std::size_t w = 0; w < differs_words_; ++w)
      for (std::uint64_t word = bits[w]; word; word &= word - 1) {
        const Vertex u = static_cast<Vertex>(w * 64 + static_cast<unsigned>(__builtin_ctzll(word)));
        if (component_[u] != comp || u == d.vertex) continue;
        const PortNum ref = reference_rows_[u][d.lid];
        if (ref != col[u] && edge_of(u, ref) != kNoEdge) {
          touch(d);
          col[u] = ref;
          restored.push_back(u);
        }
      }
  }
  walk.run(graph_, col, d.vertex, component_);
  // A restored hop can lead into a region still broken, close a loop with
  // an entry that moved when its cable failed, or join a detour (the next
  // switch's own reference hop still dead): those keep their entry, so what
  // is restored is live and minimal (good paths never pass a bad switch, so
  // one more walk settles it).
  bool reverted = false;
  Hops least;
  for (const Vertex u : restored) {
    bool back = walk.state[u] == DeliveryWalk::kBad || walk.state[u] == DeliveryWalk::kFailure;
    if (!back && walk.state[u] == DeliveryWalk::kGood) {
      if (least.hop.empty()) find_hops(d.vertex, least);
      back = walk.depth[u] > least.hop[u];
    }
    if (back) {
      col[u] = before_[index_of(d)][u];
      reverted = true;
    }
  }
  if (reverted) {
    walk.clear();
    walk.run(graph_, col, d.vertex, component_);
  }
}

// Routes per edge of d's switches whose path delivers (reverse walk order: a
// subtree is complete before it moves one hop on), into the caller's packed
// totals (routes in the low bits, destinations above kPackedShift: one
// read-modify-write per edge, and half the cache lines of two arrays of
// doubles); `sub` is per-thread scratch.
void IncrementalRouter::add_intact_load(const Destination& d, const DeliveryWalk& walk,
                                        std::vector<std::uint64_t>& packed,
                                        std::vector<std::uint64_t>& sub) const {
  const auto& order = walk.order;
  const Vertex* target = graph_.target.data();
  for (std::size_t i = 1; i < order.size(); ++i) sub[order[i]] = problem_.sources_at[order[i]];
  sub[d.vertex] = 0;
  for (std::size_t i = order.size() - 1; i >= 1; --i) {
    const Vertex u = order[i];
    const std::uint64_t s = sub[u];
    if (s == 0) continue;
    const EdgeId e = walk.next[u];
    packed[e] += (std::uint64_t{1} << kPackedShift) + s;
    sub[target[e]] += s;
  }
}

void IncrementalRouter::tree_from(const DeliveryWalk& walk) {
  tree_.order.assign(walk.order.begin(), walk.order.end());
  for (std::size_t i = 1; i < tree_.order.size(); ++i) {
    const Vertex u = tree_.order[i];
    tree_.next_edge[u] = walk.next[u];
  }
}

void IncrementalRouter::build_tree(const Destination& d) {
  walk_.run(graph_, column(d.lid), d.vertex, component_);
  tree_from(walk_);
  walk_.clear();
}

// u (bad) hops over e to a good switch; then every bad switch whose path
// now delivers is good with its entry unchanged, and the bad neighbours of
// the newly good switches become candidates.

}  // namespace psssp::routing
