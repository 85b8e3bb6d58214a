// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "hop_layers.h"

#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>
#include <boost/pending/queue.hpp>

#include "parallel/run_workers.h"

namespace psssp::routing {
namespace {

// Records hop counts and the discovery order of one BFS.
struct LayerRecorder : boost::default_bfs_visitor {
  std::uint16_t* hops;
  std::uint16_t* order;
  std::uint32_t* count;
  template <typename E, typename G>
  void tree_edge(E e, const G& g) const {
    hops[boost::target(e, g)] = static_cast<std::uint16_t>(hops[boost::source(e, g)] + 1);
  }
  template <typename V, typename G>
  void discover_vertex(V v, const G&) const {
    order[(*count)++] = static_cast<std::uint16_t>(v);
  }
};

}  // namespace

HopLayers::HopLayers(const RoutingGraph& graph, const std::vector<bool>& wanted, unsigned threads,
                     bool dag_lists)
    : n_(graph.vertex_count), row_(graph.vertex_count, 0) {
  std::vector<Vertex> roots;
  for (Vertex v = 0; v < graph.vertex_count; ++v)
    if (wanted[v]) {
      row_[v] = static_cast<std::uint32_t>(roots.size());
      roots.push_back(v);
    }
  hops_.assign(roots.size() * n_, kUnreached);
  order_.assign(roots.size() * n_, 0);
  reached_.assign(roots.size(), 0);

  parallel::parallel_slices(
      roots.size(), threads, [&](std::size_t begin, std::size_t end, unsigned) {
        std::vector<boost::default_color_type> color(n_);
        boost::queue<boost::graph_traits<ReverseGraph>::vertex_descriptor> queue;
        for (std::size_t r = begin; r < end; ++r) {
          std::fill(color.begin(), color.end(), boost::white_color);
          LayerRecorder rec;
          rec.hops = &hops_[r * n_];
          rec.order = &order_[r * n_];
          rec.count = &reached_[r];
          rec.hops[roots[r]] = 0;
          boost::breadth_first_visit(graph.reverse, roots[r], queue, rec, color.data());
        }
      });
  if (!dag_lists) return;

  // Minimal-hop edges per root, in one pass over each root's BFS order (the
  // roots split over the threads).
  dag_begin_.assign(roots.size() * (n_ + 1), 0);
  dag_.resize(roots.size());
  parallel::parallel_slices(
      roots.size(), threads, [&](std::size_t begin, std::size_t end, unsigned) {
        for (std::size_t r = begin; r < end; ++r) {
          const std::uint16_t* hops = &hops_[r * n_];
          const std::uint16_t* order = &order_[r * n_];
          std::uint32_t* starts = &dag_begin_[r * (n_ + 1)];
          std::vector<std::uint8_t>& list = dag_[r];
          for (std::uint32_t i = 1; i < reached_[r]; ++i) {
            const Vertex u = order[i];
            const std::uint16_t want = static_cast<std::uint16_t>(hops[u] - 1);
            starts[i] = static_cast<std::uint32_t>(list.size());
            for (EdgeId e = graph.first_edge[u]; e < graph.first_edge[u + 1]; ++e)
              if (hops[graph.target[e]] == want)
                list.push_back(static_cast<std::uint8_t>(e - graph.first_edge[u]));
          }
          starts[reached_[r]] = static_cast<std::uint32_t>(list.size());
          list.shrink_to_fit();
        }
      });
}

}  // namespace psssp::routing
