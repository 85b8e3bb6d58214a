// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// IncrementalRouter: whole destinations back onto minimal paths after their
// repair (incremental_router.h).
#include <algorithm>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>
#include <boost/pending/queue.hpp>

#include "incremental_router.h"

namespace psssp::routing {

namespace {

// Hop counts and discovery order of one BFS (Boost.Graph) toward a root.
struct HopRecorder : boost::default_bfs_visitor {
  std::vector<std::uint32_t>* hop;
  std::vector<Vertex>* order;
  template <typename E, typename G>
  void tree_edge(E e, const G& g) const {
    (*hop)[boost::target(e, g)] = (*hop)[boost::source(e, g)] + 1;
  }
  template <typename V, typename G>
  void discover_vertex(V v, const G&) const {
    order->push_back(static_cast<Vertex>(v));
  }
};

}  // namespace

// Hops from every switch of `root`'s component to it, and those switches in
// BFS order, over live switch cables (the reversed graph, as HopLayers);
// computed once per switch (the LIDs of its hosts share them, and the repair
// visits them in no such order).
const IncrementalRouter::Hops& IncrementalRouter::hops_to(Vertex root) {
  Hops& h = hops_[root];
  if (h.order.empty()) find_hops(root, h);
  return h;
}

void IncrementalRouter::find_hops(Vertex root, Hops& h) const {
  h.order.clear();
  h.hop.assign(graph_.vertex_count, kNone);
  h.hop[root] = 0;
  std::vector<boost::default_color_type> color(graph_.vertex_count, boost::white_color);
  boost::queue<boost::graph_traits<ReverseGraph>::vertex_descriptor> queue;
  HopRecorder rec;
  rec.hop = &h.hop;
  rec.order = &h.order;
  boost::breadth_first_visit(graph_.reverse, root, queue, rec, color.data());
}

// straight_column's added changes and route hops saved, counted over the
// switches the repair attached (tree_.order from `first` on, their depth in
// walk_): only their paths changed, the others keep theirs. For ordering and
// choosing in straighten(), which recomputes the column exactly. Saved -1:
// not worth a look.
std::pair<std::int64_t, double> IncrementalRouter::estimate_straight(const Destination& d,
                                                                     std::size_t first) {
  // Each attached switch is at least one hop from d: if even that bound
  // saves less than one change's worth, no BFS (on a fat tree the attached
  // switches are mostly spines without hosts).
  double most = 0.0;
  for (std::size_t i = first; i < tree_.order.size(); ++i) {
    const Vertex u = tree_.order[i];
    most += static_cast<double>(problem_.sources_at[u]) * (walk_.depth[u] - 1.0);
  }
  if (most < worth_) return {0, -1.0};
  const PortNum* col = column(d.lid);
  const std::vector<PortNum>& before = before_[index_of(d)];
  const std::vector<std::uint32_t>& hop = hops_to(d.vertex).hop;
  std::int64_t added = 0;
  double saved = 0.0;
  for (std::size_t i = first; i < tree_.order.size(); ++i) {
    const Vertex u = tree_.order[i];
    const auto nearer = [&](PortNum port) {
      const EdgeId e = edge_of(u, port);
      return e != kNoEdge && hop[graph_.target[e]] + 1 == hop[u];
    };
    // Back to `before`, kept, or a new entry.
    const bool differs = nearer(before[u]) ? false : nearer(col[u]) ? col[u] != before[u] : true;
    added += differs - (col[u] != before[u]);
    saved += static_cast<double>(problem_.sources_at[u]) *
             (static_cast<double>(walk_.depth[u]) - hop[u]);
  }
  return {added, saved};
}

// The entries of d that make every path minimal: an entry stays where its
// next hop is one hop nearer (the one before d's first change if that one
// is, else the one it has now); the others take the nearer neighbour with
// the least path cost (the repair's measure). Written to straight_; returns
// the entries that differ from before d's first change, minus those that
// differ now (the changes it adds; negative when it restores more). Needs
// tree_ to be d's tree; leaves the minimal tree's edges in straight_edge_.
std::int64_t IncrementalRouter::straight_column(const Destination& d, double& saved) {
  const PortNum* col = column(d.lid);
  // Hops of every switch's path now (tree_ is d's tree), for the route hops saved.
  depth_[d.vertex] = 0;
  for (std::size_t i = 1; i < tree_.order.size(); ++i) {
    const Vertex v = tree_.order[i];
    depth_[v] = depth_[graph_.target[tree_.next_edge[v]]] + 1;
  }
  const std::vector<PortNum>& before = before_[index_of(d)];
  const double* weight = loads_.weights(d);
  const Hops& h = hops_to(d.vertex);
  const std::vector<std::uint32_t>& hop = h.hop;
  std::int64_t added = 0;
  saved = 0.0;
  straight_.assign(col, col + graph_.vertex_count);
  cost_[d.vertex] = 0.0;
  for (std::size_t i = 1; i < h.order.size(); ++i) {
    const Vertex u = h.order[i];
    const auto nearer = [&](PortNum port) {
      const EdgeId e = edge_of(u, port);
      return e != kNoEdge && hop[graph_.target[e]] + 1 == hop[u] ? e : kNoEdge;
    };
    EdgeId e = nearer(before[u]);
    if (e == kNoEdge) e = nearer(col[u]);
    if (e == kNoEdge) {
      double best = 0.0;
      for (EdgeId a = graph_.first_edge[u]; a < graph_.first_edge[u + 1]; ++a) {
        const Vertex t = graph_.target[a];
        if (hop[t] + 1 != hop[u]) continue;
        const double c = weight[a] + cost_[t];
        if (e == kNoEdge || c < best) {
          e = a;
          best = c;
        }
      }
    }
    cost_[u] = weight[e] + cost_[graph_.target[e]];
    straight_[u] = graph_.out_port[e];
    straight_edge_[u] = e;
    added += (straight_[u] != before[u]) - (col[u] != before[u]);
    saved +=
        static_cast<double>(problem_.sources_at[u]) * (static_cast<double>(depth_[u]) - hop[u]);
  }
  return added;
}

// With what is left of the budget, the destinations the repair changed go
// back to minimal paths whole (straight_column): those that give entries
// back first, then those that save the most route hops per added change,
// each at least the shortcuts' bar (worth_per_change). Runs after the
// shortcuts (whose recorded moves assume the repaired tree order). Returns
// the changes added.
std::size_t IncrementalRouter::straighten(std::size_t budget) {
  struct Option {
    std::int64_t added;
    double per_change;
    std::uint32_t dest;
  };
  std::vector<Option> options;
  const double worth = worth_;
  for (std::size_t i = 0; i < before_.size(); ++i) {
    const Destination& d = problem_.destinations[i];
    // Only load-carrying LIDs the repair changed (estimated there, on its
    // tree, without another walk): a longer path to a switch LID costs no
    // bandwidth, and a kept column stays as it is.
    const auto [added, saved] = straight_estimate_[i];
    if (before_[i].empty() || d.vertex == kNoVertexId || !d.loads || saved < 0.0) continue;
    if (std::equal(before_[i].begin(), before_[i].end(), column(d.lid))) continue;
    const double per_change = saved / static_cast<double>(std::max<std::int64_t>(added, 1));
    // Changes that give entries back are always worth it; the others must
    // save as many route hops per change as a shortcut.
    if ((added >= 0 && per_change < worth) || (added == 0 && saved == 0.0)) continue;
    options.push_back(Option{added, per_change, static_cast<std::uint32_t>(i)});
  }
  // Those that give entries back first (they free budget), then the most
  // route hops saved per added change.
  std::stable_sort(options.begin(), options.end(), [](const Option& a, const Option& b) {
    if ((a.added < 0) != (b.added < 0)) return a.added < 0;
    return a.per_change > b.per_change;
  });
  std::int64_t left = static_cast<std::int64_t>(budget), spent = 0;
  for (const Option& o : options) {
    const Destination& d = problem_.destinations[o.dest];
    const std::uint32_t at_root = root_sources(d);
    build_tree(d);
    loads_.apply_tree(tree_, d, problem_.sources_at.data(), at_root, -1);
    double saved = 0.0;
    const std::int64_t added = straight_column(d, saved);
    if (added <= left && (added < 0 || saved >= worth * static_cast<double>(added))) {
      std::copy(straight_.begin(), straight_.end(), column(d.lid));
      left -= added;
      spent += added;
      // The minimal tree: BFS order has every switch after its next hop.
      const std::vector<Vertex>& order = hops_to(d.vertex).order;
      tree_.order.assign(order.begin(), order.end());
      for (std::size_t k = 1; k < order.size(); ++k)
        tree_.next_edge[order[k]] = straight_edge_[order[k]];
    }
    loads_.apply_tree(tree_, d, problem_.sources_at.data(), at_root, +1);
  }
  return spent > 0 ? static_cast<std::size_t>(spent) : 0;
}

}  // namespace psssp::routing
