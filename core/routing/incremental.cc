// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// route_psssp_incremental: keep, repair, rebalance (incremental.h).
#include "incremental.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <queue>

#include "delivery_walk.h"
#include "destinations.h"
#include "lid_columns.h"
#include "link_loads.h"
#include "parallel/run_workers.h"
#include "parallel/thread_count.h"
#include "routing_graph.h"
#include "search_kernels.h"

namespace psssp {
namespace routing {
namespace {

// Columns are LID-major (as in the router): one destination's entries for
// every switch are contiguous.
class IncrementalRouter {
 public:
  IncrementalRouter(const Fabric& fabric, const ForwardingTables& previous,
                    const RoutingOptions& options, const IncrementalOptions& incremental,
                    const ForwardingTables* reference)
      : fabric_(fabric),
        previous_(previous),
        reference_(reference),
        options_(options),
        incremental_(incremental),
        graph_(make_routing_graph(fabric)),
        problem_(make_problem(fabric, graph_, options)),
        loads_(graph_, options),
        tree_(graph_.vertex_count),
        columns_((static_cast<std::size_t>(fabric.max_lid()) + 1) * graph_.vertex_count, kNoPath),
        walk_(graph_.vertex_count),
        cost_(graph_.vertex_count, 0.0),
        child_(graph_.vertex_count, kNone),
        sibling_(graph_.vertex_count, kNone),
        mark_(graph_.vertex_count, 0),
        position_(graph_.vertex_count, 0),
        flow_(graph_.vertex_count, 0.0),
        threads_(parallel::effective_threads(options.threads)) {}

  // False (with `reason`) when the fabric needs a full routing.
  bool run(RoutingResult& result, std::string& reason);

 private:
  static constexpr Vertex kNone = 0xFFFFFFFFu;
  // A shortcut must save at least this many source switches' routes one
  // hop each (hops saved times routes through the switch), else it is
  // churn for nothing (shortcuts()).
  static constexpr double kShortcutSwitches = 4.0;
  // A repair candidate: the bad switch u may hop over e to a good switch,
  // giving a path of `length` hops and `cost`; smallest first.
  struct Candidate {
    std::uint32_t length;
    double cost;
    double routes;
    Vertex u;
    EdgeId e;
    bool operator>(const Candidate& o) const {
      if (length != o.length) return length > o.length;
      if (cost != o.cost) return cost > o.cost;
      if (routes != o.routes) return routes > o.routes;
      if (u != o.u) return u > o.u;
      return e > o.e;
    }
  };
  using CandidateQueue =
      std::priority_queue<Candidate, std::vector<Candidate>, std::greater<Candidate>>;

  PortNum* column(Lid lid) {
    return &columns_[static_cast<std::size_t>(lid) * graph_.vertex_count];
  }
  const PortNum* column(Lid lid) const {
    return &columns_[static_cast<std::size_t>(lid) * graph_.vertex_count];
  }
  EdgeId edge_of(Vertex u, PortNum port) const { return DeliveryWalk::edge_of(graph_, u, port); }
  std::uint32_t root_sources(const Destination& d) const {
    return problem_.sources_at[d.vertex] - (d.self_source ? 1u : 0u);
  }
  std::size_t index_of(const Destination& d) const {
    return static_cast<std::size_t>(&d - problem_.destinations.data());
  }
  // Keeps a copy of d's column before its first change (for the counts).
  void touch(const Destination& d) {
    std::vector<PortNum>& b = before_[index_of(d)];
    if (b.empty()) {
      const PortNum* col = column(d.lid);
      b.assign(col, col + graph_.vertex_count);
    }
  }
  void find_components();
  void find_differences();
  // Hops from u to d's root over the column; kNone without a path or when it
  // passes `avoid` (the tables are loop-free when this is called).
  std::uint32_t path_length(const Destination& d, Vertex u, Vertex avoid) const;
  // Sum of routes over the edges where the paths from u via `a` and via `b`
  // towards d differ (they meet at the latest at the root and coincide from
  // there); `extra` is added per edge of the path via `b`.
  void path_costs(const Destination& d, EdgeId a, EdgeId b, double extra, double& cost_a,
                  double& cost_b);
  bool try_move(const Destination& d, Vertex u, EdgeId alt);
  // Sets d's root entry, kNoPath where d cannot be reached, the reference
  // entries where their hop is live, then walks the column; restored entries
  // whose path does not deliver go back to what they were. Leaves `walk` run.
  void check(const Destination& d, DeliveryWalk& walk);
  void add_intact_load(const Destination& d, const DeliveryWalk& walk, std::vector<double>& routes,
                       std::vector<double>& dests, std::vector<double>& sub) const;
  // tree_ from a walk's good vertices.
  void tree_from(const DeliveryWalk& walk);
  // The tree of d over the current (delivering) column.
  void build_tree(const Destination& d);
  // The walk's bad switches hop to good ones; tree_ is the whole tree after.
  void repair(const Destination& d);
  void attach(Vertex u, EdgeId e, PortNum* col, CandidateQueue& failures, CandidateQueue& others);
  // Records the shortcuts of d's switches from tree_.order[first] on (the
  // ones the repair attached or kept behind a detour).
  void find_shortcuts(const Destination& d, std::size_t first);
  // Makes the `budget` shortcuts with the largest gain; returns how many.
  std::size_t shortcuts(std::size_t budget);
  struct Shortcut {
    double gain;
    std::uint32_t dest;
    Vertex x;
    EdgeId e;
  };
  std::size_t rebalance(std::size_t budget);

  const Fabric& fabric_;
  const ForwardingTables& previous_;
  const ForwardingTables* reference_;
  std::vector<const PortNum*> reference_rows_;  // per vertex; null without a reference row
  // LID-major bits (differs_words_ words per LID): previous entry differs
  // from the reference row's; empty without a reference.
  std::vector<std::uint64_t> differs_;
  std::size_t differs_words_ = 0;
  const RoutingOptions& options_;
  const IncrementalOptions& incremental_;
  RoutingGraph graph_;
  RoutingProblem problem_;
  LinkLoads loads_;
  SearchTree tree_;
  std::vector<PortNum> columns_;
  std::vector<std::uint32_t> component_;  // per vertex: connected component
  std::vector<std::uint32_t> component_size_;
  std::vector<std::uint32_t> in_first_;  // per vertex: its edges in in_edges_ (CSR)
  std::vector<EdgeId> in_edges_;         // edges by target
  DeliveryWalk walk_;                    // for the destination at hand (serial phases)
  std::vector<double> cost_;             // per vertex: path cost to the destination at hand
  std::vector<Vertex> child_;            // per vertex: first bad switch hopping to it (repair)
  std::vector<Vertex> sibling_;          // per bad switch: the next one with the same hop
  std::vector<std::uint32_t> mark_;      // per vertex: path_costs' stamp
  std::vector<std::size_t> position_;    // per vertex: place in tree_.order (shortcut)
  std::vector<double> flow_;             // per vertex: routes through it (find_shortcuts)
  std::vector<Shortcut> shortcuts_;
  std::uint32_t stamp_ = 0;
  std::vector<Vertex> propagate_;      // repair scratch
  std::vector<Vertex> parents_;        // repair scratch: the vertices with a child_
  std::vector<std::uint32_t> broken_;  // per destination: switches whose path does not deliver
  // Per destination: those among them whose own hop is dead, missing or on
  // a loop (the entries that must change).
  std::vector<std::uint32_t> failures_;
  std::vector<std::vector<PortNum>> before_;  // per destination: column before its first change
  unsigned threads_;
};

void IncrementalRouter::find_components() {
  const std::uint32_t n = graph_.vertex_count;
  in_first_.assign(n + 1, 0);
  for (EdgeId e = 0; e < graph_.edge_count(); ++e) ++in_first_[graph_.target[e] + 1];
  for (Vertex v = 0; v < n; ++v) in_first_[v + 1] += in_first_[v];
  in_edges_.resize(graph_.edge_count());
  std::vector<std::uint32_t> fill(in_first_.begin(), in_first_.end() - 1);
  for (EdgeId e = 0; e < graph_.edge_count(); ++e) in_edges_[fill[graph_.target[e]]++] = e;
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
  // A restored hop can lead into a region still broken, or close a loop
  // with an entry that moved when its cable failed: those keep their entry
  // (good paths never pass a bad switch, so one more walk settles it).
  bool reverted = false;
  for (const Vertex u : restored)
    if (walk.state[u] == DeliveryWalk::kBad || walk.state[u] == DeliveryWalk::kFailure) {
      col[u] = before_[index_of(d)][u];
      reverted = true;
    }
  if (reverted) {
    walk.clear();
    walk.run(graph_, col, d.vertex, component_);
  }
}

// Routes per edge of d's switches whose path delivers (reverse walk order: a
// subtree is complete before it moves one hop on), into the caller's totals;
// `sub` is per-thread scratch.
void IncrementalRouter::add_intact_load(const Destination& d, const DeliveryWalk& walk,
                                        std::vector<double>& routes, std::vector<double>& dests,
                                        std::vector<double>& sub) const {
  const auto& order = walk.order;
  for (std::size_t i = 1; i < order.size(); ++i) sub[order[i]] = problem_.sources_at[order[i]];
  sub[d.vertex] = 0.0;
  for (std::size_t i = order.size() - 1; i >= 1; --i) {
    const Vertex u = order[i];
    if (sub[u] == 0.0) continue;
    const EdgeId e = walk.next[u];
    routes[e] += sub[u];
    dests[e] += 1.0;
    sub[graph_.target[e]] += sub[u];
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
void IncrementalRouter::attach(Vertex u, EdgeId e, PortNum* col, CandidateQueue& failures,
                               CandidateQueue& others) {
  DeliveryWalk& w = walk_;
  const double* weight = loads_.weights();
  const auto& routes = loads_.routes();
  col[u] = graph_.out_port[e];
  propagate_.assign(1, u);
  for (std::size_t i = 0; i < propagate_.size(); ++i) {
    const Vertex x = propagate_[i];
    const EdgeId xe = graph_.edge_at_port(x, col[x]);
    const Vertex next = graph_.target[xe];
    w.state[x] = DeliveryWalk::kGood;
    w.depth[x] = w.depth[next] + 1;
    cost_[x] = weight[xe] + cost_[next];
    tree_.order.push_back(x);
    tree_.next_edge[x] = xe;
    for (Vertex c = child_[x]; c != kNone; c = sibling_[c])
      if (w.state[c] != DeliveryWalk::kGood) propagate_.push_back(c);
  }
  for (const Vertex x : propagate_) {
    for (std::uint32_t k = in_first_[x]; k < in_first_[x + 1]; ++k) {
      const EdgeId in = in_edges_[k];  // b -> x
      const Vertex b = graph_.source[in];
      const std::uint8_t s = w.state[b];
      if (s != DeliveryWalk::kBad && s != DeliveryWalk::kFailure) continue;
      const Candidate c{w.depth[x] + 1, weight[in] + cost_[x], routes[in], b, in};
      (s == DeliveryWalk::kFailure ? failures : others).push(c);
    }
  }
}

// Fewest changed entries: the failure points (own hop dead, or on a loop)
// hop to a good neighbour, shortest resulting path first, then the lowest
// path cost (sum of link weights, the full search's measure), then fewer
// routes on the link; every switch whose path runs through them keeps its
// entry. Only when no failure point has a good neighbour does another bad
// switch change its hop. The result may be longer than minimal.
void IncrementalRouter::repair(const Destination& d) {
  DeliveryWalk& w = walk_;
  PortNum* col = column(d.lid);
  const double* weight = loads_.weights();
  const auto& routes = loads_.routes();
  touch(d);
  cost_[d.vertex] = 0.0;
  for (std::size_t i = 1; i < w.order.size(); ++i) {
    const Vertex u = w.order[i];
    const EdgeId e = graph_.edge_at_port(u, col[u]);
    cost_[u] = weight[e] + cost_[graph_.target[e]];
  }
  CandidateQueue failures, others;
  for (const Vertex b : w.bad) {
    const EdgeId own = edge_of(b, col[b]);
    if (own != kNoEdge) {  // a loop member or a path into a failure point
      const Vertex next = graph_.target[own];
      if (child_[next] == kNone) parents_.push_back(next);
      sibling_[b] = child_[next];
      child_[next] = b;
    }
    for (EdgeId e = graph_.first_edge[b]; e < graph_.first_edge[b + 1]; ++e) {
      const Vertex t = graph_.target[e];
      if (w.state[t] != DeliveryWalk::kGood) continue;
      const Candidate c{w.depth[t] + 1, weight[e] + cost_[t], routes[e], b, e};
      (w.state[b] == DeliveryWalk::kFailure ? failures : others).push(c);
    }
  }
  for (;;) {
    CandidateQueue& q = failures.empty() ? others : failures;
    if (q.empty()) break;
    const Candidate c = q.top();
    q.pop();
    if (w.state[c.u] == DeliveryWalk::kGood) continue;
    attach(c.u, c.e, col, failures, others);
  }
  for (const Vertex p : parents_) child_[p] = kNone;
  parents_.clear();
  for (const Vertex b : w.bad) {
    // Connected to the root, so never left bad; kNoPath would be the safe side.
    if (w.state[b] != DeliveryWalk::kGood) col[b] = kNoPath;
  }
  find_shortcuts(d, w.order.size());
}

// The switches that kept their entry may now run through a repaired detour:
// a good neighbour with a shorter path (one before the switch in tree order,
// so it is not behind it) would take the switch's routes off the detour.
// Recorded here with their gain (hops saved times the routes through the
// switch); shortcuts() makes the best ones. Any subset keeps the tree
// order, so never a loop.
void IncrementalRouter::find_shortcuts(const Destination& d, std::size_t first) {
  DeliveryWalk& w = walk_;
  const double* weight = loads_.weights();
  for (std::size_t i = 0; i < tree_.order.size(); ++i) position_[tree_.order[i]] = i;
  for (std::size_t i = tree_.order.size(); i-- > 1;) flow_[tree_.order[i]] = 0.0;
  for (std::size_t i = tree_.order.size(); i-- > 1;) {
    const Vertex x = tree_.order[i];
    flow_[x] += problem_.sources_at[x];
    flow_[graph_.target[tree_.next_edge[x]]] += flow_[x];
  }
  for (std::size_t i = first; i < tree_.order.size(); ++i) {
    const Vertex x = tree_.order[i];
    if (flow_[x] == 0.0) continue;
    EdgeId best = kNoEdge;
    double best_cost = 0.0;
    std::uint32_t best_depth = w.depth[x];
    for (EdgeId e = graph_.first_edge[x]; e < graph_.first_edge[x + 1]; ++e) {
      const Vertex t = graph_.target[e];
      if (w.state[t] != DeliveryWalk::kGood || position_[t] >= i) continue;
      const std::uint32_t depth = w.depth[t] + 1;
      const double c = weight[e] + cost_[t];
      if (depth < best_depth || (best != kNoEdge && depth == best_depth && c < best_cost)) {
        best = e;
        best_cost = c;
        best_depth = depth;
      }
    }
    if (best != kNoEdge)
      shortcuts_.push_back(Shortcut{flow_[x] * (w.depth[x] - best_depth),
                                    static_cast<std::uint32_t>(index_of(d)), x, best});
  }
}

std::size_t IncrementalRouter::shortcuts(std::size_t budget) {
  if (budget == 0 || shortcuts_.empty()) return 0;
  std::stable_sort(shortcuts_.begin(), shortcuts_.end(),
                   [](const Shortcut& a, const Shortcut& b) { return a.gain > b.gain; });
  // Each one is a path moving under traffic: only those that shorten the
  // routes of a few switches' hosts (kShortcutSwitches switches' worth of
  // sources by one hop).
  double sources = 0.0, with_sources = 0.0;
  for (const std::uint32_t s : problem_.sources_at) {
    sources += s;
    with_sources += s > 0;
  }
  const double worth = kShortcutSwitches * (with_sources > 0 ? sources / with_sources : 1.0);
  std::size_t keep = 0;
  while (keep < shortcuts_.size() && keep < budget && shortcuts_[keep].gain >= worth) ++keep;
  shortcuts_.resize(keep);
  std::stable_sort(shortcuts_.begin(), shortcuts_.end(),
                   [](const Shortcut& a, const Shortcut& b) { return a.dest < b.dest; });
  for (std::size_t i = 0; i < shortcuts_.size();) {
    const Destination& d = problem_.destinations[shortcuts_[i].dest];
    const std::uint32_t at_root = root_sources(d);
    build_tree(d);
    loads_.apply_tree(tree_, problem_.sources_at.data(), at_root, -1);
    PortNum* col = column(d.lid);
    for (; i < shortcuts_.size() && shortcuts_[i].dest == index_of(d); ++i)
      col[shortcuts_[i].x] = graph_.out_port[shortcuts_[i].e];
    build_tree(d);
    loads_.apply_tree(tree_, problem_.sources_at.data(), at_root, +1);
  }
  return shortcuts_.size();
}

std::uint32_t IncrementalRouter::path_length(const Destination& d, Vertex u, Vertex avoid) const {
  const PortNum* col = column(d.lid);
  std::uint32_t n = 0;
  while (u != d.vertex) {
    const EdgeId e = edge_of(u, col[u]);
    if (e == kNoEdge || u == avoid || n > graph_.vertex_count) return kNone;
    u = graph_.target[e];
    ++n;
  }
  return n;
}

void IncrementalRouter::path_costs(const Destination& d, EdgeId a, EdgeId b, double extra,
                                   double& cost_a, double& cost_b) {
  const auto& routes = loads_.routes();
  const PortNum* col = column(d.lid);
  if (++stamp_ == 0) {
    std::fill(mark_.begin(), mark_.end(), 0);
    stamp_ = 1;
  }
  for (Vertex v = graph_.target[a];; v = graph_.target[graph_.edge_at_port(v, col[v])]) {
    mark_[v] = stamp_;
    if (v == d.vertex) break;
  }
  cost_b = routes[b] + extra;
  Vertex meet = graph_.target[b];
  while (mark_[meet] != stamp_) {
    const EdgeId e = graph_.edge_at_port(meet, col[meet]);
    cost_b += routes[e] + extra;
    meet = graph_.target[e];
  }
  cost_a = routes[a];
  for (Vertex v = graph_.target[a]; v != meet;) {
    const EdgeId e = graph_.edge_at_port(v, col[v]);
    cost_a += routes[e];
    v = graph_.target[e];
  }
}

// Moves d's entry at u onto `alt` if that lowers the moved routes' path cost
// (routes over the links where old and new path differ, the moved routes
// counted on the new one) by more than the margin. The caller makes sure
// alt's path does not pass u.
bool IncrementalRouter::try_move(const Destination& d, Vertex u, EdgeId alt) {
  PortNum* col = column(d.lid);
  const EdgeId now = graph_.edge_at_port(u, col[u]);
  if (now == alt) return false;
  const double margin = incremental_.margin;
  double old_cost, new_cost;
  path_costs(d, now, alt, 0.0, old_cost, new_cost);
  if (!(new_cost + margin < old_cost)) return false;  // even with no routes moved
  build_tree(d);
  const std::uint32_t at_root = root_sources(d);
  loads_.apply_tree(tree_, problem_.sources_at.data(), at_root, -1);
  const double flow = loads_.subtree_sources()[u];
  loads_.apply_tree(tree_, problem_.sources_at.data(), at_root, +1);
  if (flow == 0.0) return false;
  path_costs(d, now, alt, flow, old_cost, new_cost);
  if (!(new_cost + margin < old_cost)) return false;
  loads_.apply_tree(tree_, problem_.sources_at.data(), at_root, -1);
  col[u] = graph_.out_port[alt];
  build_tree(d);
  loads_.apply_tree(tree_, problem_.sources_at.data(), at_root, +1);
  return true;
}

// A link carrying well under the mean of its switch's links (a cable that
// came back, or tables made for another fabric) takes on routes: those its
// switch x sends over its other links, and those x's neighbours p send
// elsewhere although x, which forwards them over the light link, is as near
// (the choice of a spine is made below it). A move never makes a path
// longer: the new next hop's path is shorter than the switch's own, so it
// cannot pass the switch (no loops). One entry at a time, each only if
// try_move finds it cheaper; at most `budget` moves.
std::size_t IncrementalRouter::rebalance(std::size_t budget) {
  const auto& routes = loads_.routes();
  std::size_t moved = 0;
  for (Vertex x = 0; x < graph_.vertex_count && moved < budget; ++x) {
    const EdgeId first = graph_.first_edge[x], last = graph_.first_edge[x + 1];
    if (last - first < 2) continue;
    double sum = 0.0;
    for (EdgeId e = first; e < last; ++e) sum += routes[e];
    const double mean = sum / static_cast<double>(last - first), light = 0.5 * mean;
    for (EdgeId e = first; e < last && moved < budget; ++e) {
      if (!(routes[e] + incremental_.margin < light)) continue;
      const Vertex y = graph_.target[e];
      for (const Destination& d : problem_.destinations) {
        if (moved >= budget || routes[e] + incremental_.margin >= mean) break;
        if (!d.loads || d.vertex == kNoVertexId || d.vertex == x) continue;
        if (component_[x] != component_[d.vertex]) continue;
        const std::uint32_t lx = path_length(d, x, kNone);
        if (column(d.lid)[x] != graph_.out_port[e]) {
          const std::uint32_t ly = path_length(d, y, x);
          if (ly != kNone && lx != kNone && ly + 1 <= lx && try_move(d, x, e)) ++moved;
          continue;
        }
        for (std::uint32_t k = in_first_[x]; k < in_first_[x + 1]; ++k) {
          const EdgeId in = in_edges_[k];
          const Vertex p = graph_.source[in];
          if (p == d.vertex || moved >= budget) continue;
          const std::uint32_t lp = path_length(d, p, kNone);
          if (lp != kNone && lx + 1 <= lp && try_move(d, p, in)) ++moved;
        }
      }
    }
  }
  return moved;
}

bool IncrementalRouter::run(RoutingResult& result, std::string& reason) {
  find_components();
  columns_from_tables(previous_, graph_.view, columns_, threads_);
  broken_.assign(problem_.destinations.size(), 0);
  failures_.assign(problem_.destinations.size(), 0);
  before_.assign(problem_.destinations.size(), {});
  reference_rows_.assign(graph_.vertex_count, nullptr);
  if (reference_ && reference_->lid_count() > fabric_.max_lid())
    for (Vertex v = 0; v < graph_.vertex_count; ++v)
      if (reference_->has_switch(graph_.view.node_of_vertex[v]))
        reference_rows_[v] = reference_->row(graph_.view.node_of_vertex[v]);
  find_differences();

  const unsigned threads = threads_;
  const auto& dests = problem_.destinations;
  std::uint64_t entries = 0, to_repair = 0, failure_points = 0;
  std::vector<bool> routed_lid(static_cast<std::size_t>(fabric_.max_lid()) + 1, false);
  for (const Destination& d : dests)
    if (d.vertex != kNoVertexId) {
      routed_lid[d.lid] = true;
      entries += component_size_[component_[d.vertex]];
    }
  // Each destination writes only its own column, counts and copy; the
  // routes whose paths deliver are summed per thread in the same pass,
  // while the column is in cache.
  const std::size_t edges = graph_.edge_count(), n = graph_.vertex_count;
  std::vector<std::vector<double>> routes(threads), counts(threads), sub(threads);
  std::vector<DeliveryWalk> walks(threads);
  parallel::parallel_for(dests.size(), threads, [&](std::size_t i, unsigned t) {
    const Destination& d = dests[i];
    if (d.vertex == kNoVertexId) return;
    if (walks[t].state.empty()) walks[t] = DeliveryWalk(static_cast<std::uint32_t>(n));
    check(d, walks[t]);
    broken_[i] = static_cast<std::uint32_t>(walks[t].bad.size());
    for (const Vertex b : walks[t].bad) failures_[i] += walks[t].state[b] == DeliveryWalk::kFailure;
    if (d.loads) {
      if (routes[t].empty()) {
        routes[t].assign(edges, 0.0);
        counts[t].assign(edges, 0.0);
        sub[t].assign(n, 0.0);
      }
      add_intact_load(d, walks[t], routes[t], counts[t], sub[t]);
    }
    walks[t].clear();
  });
  for (std::size_t i = 0; i < dests.size(); ++i) {
    to_repair += broken_[i];
    failure_points += failures_[i];
  }
  // LIDs nobody can route to (unroutable ports, unused LIDs): no entries.
  for (std::size_t lid = 0; lid < routed_lid.size(); ++lid)
    if (!routed_lid[lid]) std::fill_n(column(static_cast<Lid>(lid)), graph_.vertex_count, kNoPath);
  if (entries == 0) {
    reason = "nothing to route";
    return false;
  }
  // The entries that must change, not those whose path runs into one (in a
  // torus those are many, and they keep their entries).
  const double share = static_cast<double>(failure_points) / static_cast<double>(entries);
  if (share > incremental_.full_above) {
    char text[200];
    std::snprintf(text, sizeof text,
                  "%llu of %llu entries (%.1f%%) lost their next hop (dead, missing or on a "
                  "loop), more than %.1f%%",
                  static_cast<unsigned long long>(failure_points),
                  static_cast<unsigned long long>(entries), 100.0 * share,
                  100.0 * incremental_.full_above);
    reason = text;
    return false;
  }

  // The delivering routes' loads are in place before any repair chooses a
  // path; then each destination with broken entries in routing order: its
  // delivering part out of the loads, repaired, its whole tree in.
  for (unsigned t = 0; t < threads; ++t)
    if (!routes[t].empty()) loads_.add_totals(routes[t], counts[t]);
  for (const Destination& d : dests) {
    if (d.vertex == kNoVertexId || broken_[index_of(d)] == 0) continue;
    const std::uint32_t at_root = root_sources(d);
    walk_.run(graph_, column(d.lid), d.vertex, component_);
    tree_from(walk_);
    if (d.loads) loads_.apply_tree(tree_, problem_.sources_at.data(), at_root, -1);
    repair(d);
    if (d.loads) loads_.apply_tree(tree_, problem_.sources_at.data(), at_root, +1);
    walk_.clear();
  }

  // Entries that differ from the previous tables: back to the reference, or
  // set right (the destination switches' own entries, kNoPath where the
  // LID became unreachable, the repairs).
  std::uint64_t restored = 0, repaired = 0;
  for (const Destination& d : dests) {
    const std::vector<PortNum>& b = before_[index_of(d)];
    if (b.empty()) continue;
    const PortNum* col = column(d.lid);
    for (Vertex u = 0; u < graph_.vertex_count; ++u) {
      if (col[u] == b[u]) continue;
      if (reference_rows_[u] && reference_rows_[u][d.lid] == col[u])
        ++restored;
      else
        ++repaired;
    }
  }

  std::size_t budget = 0;
  if (incremental_.rebalance > 0) budget = static_cast<std::size_t>(incremental_.rebalance);
  if (incremental_.rebalance < 0 && failure_points > 0) {
    // After a fault: at most as many changes again as the entries that
    // lost their hop, all changes together.
    budget = 2 * failure_points > repaired ? 2 * failure_points - repaired : 0;
  } else if (incremental_.rebalance < 0) {
    double sum = 0.0;
    for (double r : loads_.routes()) sum += r;
    const double mean = graph_.edge_count() ? sum / graph_.edge_count() : 0.0;
    budget = std::max<std::size_t>(static_cast<std::size_t>(repaired),
                                   static_cast<std::size_t>(2.0 * mean));
  }
  std::size_t moved = 0;
  if (failure_points > 0) moved += shortcuts(budget);
  if (moved < budget) moved += rebalance(budget - moved);

  result.lfts = tables_from_columns(fabric_, graph_.view, columns_, threads_);
  result.channel_load.assign(fabric_.channel_count(), 0.0);
  for (EdgeId e = 0; e < graph_.edge_count(); ++e)
    result.channel_load[graph_.channel[e]] += loads_.routes()[e];
  result.unreachable = problem_.unroutable;
  auto& inc = result.incremental;
  inc.used = true;
  inc.entries = entries;
  inc.rebalanced = moved;
  // An entry moved twice counts twice.
  const std::uint64_t changed = restored + repaired + moved;
  inc.restored = restored;
  inc.repaired = repaired;
  inc.kept = entries > changed ? entries - changed : 0;
  return true;
}

}  // namespace
}  // namespace routing

RoutingResult route_psssp_incremental(const Fabric& fabric, const ForwardingTables& previous,
                                      const RoutingOptions& options,
                                      const IncrementalOptions& incremental,
                                      const ForwardingTables* reference) {
  const auto start = std::chrono::steady_clock::now();
  std::string reason;
  if (!options.minimal) {
    reason = "non-minimal routing re-routes in full";
  } else if (!fabric.switches().empty()) {
    RoutingResult result;
    routing::IncrementalRouter router(fabric, previous, options, incremental, reference);
    if (router.run(result, reason)) {
      result.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return result;
    }
  }
  RoutingResult result = route_psssp(fabric, options);
  result.incremental.reason = reason;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace psssp
