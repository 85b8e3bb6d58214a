// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "cycle_search.h"

#include <algorithm>
#include <cstdint>

namespace psssp::deadlock {
namespace {

enum class Color : std::uint8_t { white, gray, black };

struct Frame {
  DependencyVertex vertex;
  boost::graph_traits<DependencyGraph>::out_edge_iterator next, end;
  DependencyEdge via;  // the tree edge that entered this vertex (unset for roots)
};

}  // namespace

std::vector<DependencyEdge> find_cycle(const DependencyGraph& graph) {
  const std::size_t n = boost::num_vertices(graph);
  std::vector<Color> color(n, Color::white);
  std::vector<Frame> stack;
  for (DependencyVertex root = 0; root < n; ++root) {
    if (color[root] != Color::white || boost::out_degree(root, graph) == 0) continue;
    auto [first, last] = boost::out_edges(root, graph);
    stack.push_back(Frame{root, first, last, {}});
    color[root] = Color::gray;
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (top.next == top.end) {
        color[top.vertex] = Color::black;
        stack.pop_back();
        continue;
      }
      const DependencyEdge e = *top.next++;
      const DependencyVertex t = boost::target(e, graph);
      if (color[t] == Color::white) {
        color[t] = Color::gray;
        auto [f, l] = boost::out_edges(t, graph);
        stack.push_back(Frame{t, f, l, e});
      } else if (color[t] == Color::gray) {
        // Back edge: the cycle is the stack from t's frame up, closed by e.
        std::size_t k = stack.size();
        while (stack[k - 1].vertex != t) --k;
        std::vector<DependencyEdge> cycle;
        for (std::size_t i = k; i < stack.size(); ++i) cycle.push_back(stack[i].via);
        cycle.push_back(e);
        const auto smallest = std::min_element(
            cycle.begin(), cycle.end(), [&](const DependencyEdge& a, const DependencyEdge& b) {
              return boost::source(a, graph) < boost::source(b, graph);
            });
        std::rotate(cycle.begin(), smallest, cycle.end());
        return cycle;
      }
    }
  }
  return {};
}

}  // namespace psssp::deadlock
