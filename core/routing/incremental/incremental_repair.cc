// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// IncrementalRouter: new hops for the failure points, and shortcuts behind detours
// (incremental_router.h).

#include <boost/range/iterator_range.hpp>

#include "incremental_router.h"

namespace psssp::routing {

void IncrementalRouter::attach(const double* weight, Vertex u, EdgeId e, PortNum* col,
                               CandidateQueue& failures, CandidateQueue& others) {
  DeliveryWalk& w = walk_;
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
    for (const auto re :
         boost::make_iterator_range(boost::out_edges(ReverseVertex{x}, graph_.reverse))) {
      const EdgeId in = graph_.reverse[re];  // b -> x
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
  const double* weight = loads_.weights(d);
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
    attach(weight, c.u, c.e, col, failures, others);
  }
  for (const Vertex p : parents_) child_[p] = kNone;
  parents_.clear();
  for (const Vertex b : w.bad) {
    // Connected to the root, so never left bad; kNoPath would be the safe side.
    if (w.state[b] != DeliveryWalk::kGood) col[b] = kNoPath;
  }
  find_shortcuts(d, w.order.size());
  // What straightening d would add and save, while its tree is at hand.
  if (d.loads) straight_estimate_[index_of(d)] = estimate_straight(d, w.order.size());
}

// The switches that kept their entry may now run through a repaired detour:
// a good neighbour with a shorter path (one before the switch in tree order,
// so it is not behind it) would take the switch's routes off the detour.
// Recorded here with their gain (hops saved times the routes through the
// switch); shortcuts() makes the best ones. Any subset keeps the tree
// order, so never a loop.
void IncrementalRouter::find_shortcuts(const Destination& d, std::size_t first) {
  DeliveryWalk& w = walk_;
  const double* weight = loads_.weights(d);
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

double IncrementalRouter::worth_per_change() const {
  double sources = 0.0, with_sources = 0.0;
  for (const std::uint32_t s : problem_.sources_at) {
    sources += s;
    with_sources += s > 0;
  }
  return kShortcutSwitches * (with_sources > 0 ? sources / with_sources : 1.0);
}

std::size_t IncrementalRouter::shortcuts(std::size_t budget) {
  if (budget == 0 || shortcuts_.empty()) return 0;
  std::stable_sort(shortcuts_.begin(), shortcuts_.end(),
                   [](const Shortcut& a, const Shortcut& b) { return a.gain > b.gain; });
  // Each one is a path moving under traffic: only those that shorten the
  // routes of a few switches' hosts (kShortcutSwitches switches' worth of
  // sources by one hop).
  const double worth = worth_per_change();
  std::size_t keep = 0;
  while (keep < shortcuts_.size() && keep < budget && shortcuts_[keep].gain >= worth) ++keep;
  shortcuts_.resize(keep);
  std::stable_sort(shortcuts_.begin(), shortcuts_.end(),
                   [](const Shortcut& a, const Shortcut& b) { return a.dest < b.dest; });
  for (std::size_t i = 0; i < shortcuts_.size();) {
    const Destination& d = problem_.destinations[shortcuts_[i].dest];
    const std::uint32_t at_root = root_sources(d);
    // Routes to LIDs that add no load (switch LIDs) are shortened too, but
    // their trees were never in the loads.
    if (d.loads) {
      build_tree(d);
      loads_.apply_tree(tree_, d, problem_.sources_at.data(), at_root, -1);
    }
    PortNum* col = column(d.lid);
    for (; i < shortcuts_.size() && shortcuts_[i].dest == index_of(d); ++i)
      col[shortcuts_[i].x] = graph_.out_port[shortcuts_[i].e];
    if (d.loads) {
      build_tree(d);
      loads_.apply_tree(tree_, d, problem_.sources_at.data(), at_root, +1);
    }
  }
  return shortcuts_.size();
}

}  // namespace psssp::routing
