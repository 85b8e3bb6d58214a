// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Refinement: rip up and reroute every load-carrying LID once per pass, in
// round-robin order over the switches; with threads, speculatively
// (psssp-route.md, "Determinism and threads").
#include <algorithm>

#include "router.h"

namespace psssp::routing {

bool Router::fast_layered() const { return !full_effort_ && layers_.has_dag_lists(); }

bool Router::speculative() const {
  if (team_.size() <= 1 || !fast_layered() || !by_rank_.empty()) return false;
  for (const auto& [begin, end] : refine_order_)
    if (end - begin != 1) return false;
  return true;
}

Router::Reroute Router::reroute(const Destination& d, const Layers& layers, SearchTree& tree,
                                const double* w, std::vector<PortNum>& out, bool check) {
  if (check && layered_tree_stays(graph_, layers, w, tree)) return Reroute::kept;
  const PortNum* current = column(d.lid);
  out.assign(current, current + graph_.vertex_count);
  search(d, layers, tree, w, out.data(), true);
  return std::equal(out.begin(), out.end(), current) ? Reroute::same : Reroute::changed;
}

std::size_t Router::refine() {
  if (refine_order_.empty()) refine_order_ = refinement_order();
  if (speculative()) return refine_speculatively();
  if (!by_rank_.empty()) return refine_by_rank();
  std::size_t changed = 0;
  for (const auto& [begin, end] : refine_order_) changed += refine_port(begin, end);
  return changed;
}

std::size_t Router::refine_port(std::size_t begin, std::size_t end) {
  const auto& dests = problem_.destinations;
  std::size_t changed = 0;
  for (std::size_t i = begin; i < end; ++i) {
    const Destination& d = dests[i];
    const Layers layers = layers_of(d);
    for (std::size_t j = begin; j < end; ++j)
      if (j != i) {
        tree_from_columns(dests[j], layers, tree_);
        loads_.penalize(tree_, lmc_penalty());
      }
    tree_from_columns(d, layers, tree_);
    add_tree(d, -1);
    const bool check = fast_layered() && stay_checks_.try_now();
    const Reroute r = reroute(d, layers, tree_, loads_.weights(d), scratch_column_, check);
    if (check) stay_checks_.record(r == Reroute::kept);
    if (r == Reroute::changed) {
      std::copy(scratch_column_.begin(), scratch_column_.end(), column(d.lid));
      ++changed;
    }
    add_tree(d, +1);
    loads_.clear_penalties();
  }
  return changed;
}

std::size_t Router::refine_speculatively() {
  const auto& dests = problem_.destinations;
  const unsigned width = team_.size();
  if (slots_.empty()) {
    spare_loads_.reserve(width - 1);  // slot 0 is the router's own state
    spare_trees_.reserve(width - 1);
    slots_.push_back(Slot{&loads_, &tree_, {}, Reroute::same});
    for (unsigned k = 1; k < width; ++k) {
      spare_loads_.push_back(loads_);
      spare_trees_.emplace_back(graph_.vertex_count);
      slots_.push_back(Slot{&spare_loads_.back(), &spare_trees_.back(), {}, Reroute::same});
    }
  }
  // Every slot's loads equal loads_ at the start of a batch. Where most
  // columns change (a pass far from its fixed point), speculation is mostly
  // discarded: the pass then goes on one LID at a time for a while (Backoff)
  // and re-copies the loads into the slots before it speculates again.
  bool slots_stale = false;
  const auto resync = [&] {
    if (slots_stale)
      for (std::size_t k = 1; k < slots_.size(); ++k) slots_[k].loads->copy_from(loads_);
    slots_stale = false;
  };
  Backoff speculation;
  std::size_t changed = 0;
  std::vector<const Destination*> batch;
  for (std::size_t next = 0; next < refine_order_.size();) {
    if (!speculation.try_now()) {
      const auto& [begin, end] = refine_order_[next++];
      changed += refine_port(begin, end);
      slots_stale = true;
      continue;
    }
    resync();
    batch.clear();
    // Each search reorders its root's DAG lists: one search per switch.
    while (batch.size() < width && next + batch.size() < refine_order_.size()) {
      const Destination& d = dests[refine_order_[next + batch.size()].first];
      bool same_root = false;
      for (const Destination* b : batch) same_root |= b->vertex == d.vertex;
      if (same_root) break;
      batch.push_back(&d);
    }
    const bool check = stay_checks_.try_now();
    team_.run_each(static_cast<std::uint32_t>(batch.size()),
                   [&](std::uint32_t k) { refine_in_slot(*batch[k], slots_[k], check); });
    if (check) {
      bool stayed = true;
      for (std::size_t k = 0; k < batch.size(); ++k) stayed &= slots_[k].result == Reroute::kept;
      stay_checks_.record(stayed);
    }
    std::size_t first = 0;
    while (first < batch.size() && slots_[first].result != Reroute::changed) ++first;
    if (first < batch.size()) {
      commit_slot(batch, first);
      ++changed;
      next += first + 1;
    } else {
      next += batch.size();
    }
    speculation.record(first + 1 >= batch.size());  // false: searches were discarded
  }
  resync();  // the invariant for a later pass
  return changed;
}

void Router::refine_in_slot(const Destination& d, Slot& slot, bool check) {
  const Layers layers = layers_of(d);
  tree_from_columns(d, layers, *slot.tree);
  const std::uint32_t at_root = root_sources(d);
  slot.loads->apply_tree(*slot.tree, d, problem_.sources_at.data(), at_root, -1);
  slot.result = reroute(d, layers, *slot.tree, slot.loads->weights(d), slot.column, check);
  if (slot.result != Reroute::changed)
    slot.loads->apply_tree(*slot.tree, d, problem_.sources_at.data(), at_root, +1);
}

void Router::commit_slot(const std::vector<const Destination*>& batch, std::size_t first) {
  const Destination& d = *batch[first];
  const Layers layers = layers_of(d);
  tree_from_columns(d, layers, old_tree_);
  Slot& winner = slots_[first];
  std::copy(winner.column.begin(), winner.column.end(), column(d.lid));
  const std::uint32_t* sources = problem_.sources_at.data();
  winner.loads->apply_tree(*winner.tree, d, sources, root_sources(d), +1);
  for (std::size_t k = 0; k < slots_.size(); ++k) {
    if (k == first) continue;
    Slot& slot = slots_[k];
    if (k < batch.size() && slot.result == Reroute::changed) {  // discarded: old tree back
      const Destination& other = *batch[k];
      tree_from_columns(other, layers_of(other), *slot.tree);
      slot.loads->apply_tree(*slot.tree, other, sources, root_sources(other), +1);
    }
    slot.loads->apply_tree(old_tree_, d, sources, root_sources(d), -1);
    slot.loads->apply_tree(*winner.tree, d, sources, root_sources(d), +1);
  }
}

std::vector<std::pair<std::size_t, std::size_t>> Router::refinement_order() const {
  const auto& dests = problem_.destinations;
  std::vector<std::uint32_t> seen(graph_.vertex_count, 0);
  std::vector<std::pair<std::uint64_t, std::pair<std::size_t, std::size_t>>> keyed;
  for (std::size_t begin = 0, end = 0; begin < dests.size(); begin = end) {
    end = begin + 1;
    while (end < dests.size() && dests[end].port == dests[begin].port) ++end;
    const Vertex v = dests[begin].vertex;
    if (v == kNoVertexId || !dests[begin].loads) continue;
    keyed.push_back({(std::uint64_t{seen[v]++} << 32) | v, {begin, end}});
  }
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<std::size_t, std::size_t>> order;
  order.reserve(keyed.size());
  for (const auto& k : keyed) order.push_back(k.second);
  return order;
}

}  // namespace psssp::routing
