// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "layer_assignment.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>

#include "acyclic_slots.h"
#include "layer_graph.h"
#include "layer_spread.h"
#include "parallel/run_workers.h"
#include "parallel/thread_count.h"
#include "path_survey.h"
#include "path_table.h"
#include "route_walk.h"

namespace psssp::deadlock {
namespace {

// Layers tried before giving up counting how many would be needed.
constexpr unsigned kSearchCap = 64;

// The switch-to-switch dependencies of the route from `source` to `dlid`.
WalkEnd route_dependencies(const Geometry& g, const RouteTracer& tracer, NodeId source, Lid dlid,
                           std::vector<Hop>& hops, std::vector<Dependency>& deps) {
  const WalkEnd end = walk_route(tracer, source, dlid, hops, g.port_of_channel);
  deps.clear();
  for (std::size_t i = 1; i < hops.size(); ++i) {
    const Hop& h = hops[i];
    if (!h.to_switch || !hops[i - 1].to_switch) continue;
    deps.push_back(Dependency{g.slots.slot(h.sw, h.in_port, h.out_port),
                              g.slots.switch_channel_into(h.sw, h.in_port),
                              g.fabric.channel(PortRef{h.sw, h.out_port})});
  }
  return end;
}

std::string layers_message(unsigned needed, unsigned cap, unsigned available) {
  return (needed == 0 ? "needs more than " + std::to_string(cap)
                      : "needs " + std::to_string(needed)) +
         " virtual layers, " + std::to_string(available) + " available";
}

// One assignment: the paths' dependency counts, first fit in one order or
// the next, balancing over the spare layers, then the layer table. Paths are
// stored destination-major (d * sources + s), the order every pass visits.
class LayerPlanner {
 public:
  LayerPlanner(const Fabric& fabric, const ForwardingTables& lfts, const LayerOptions& options)
      : options_(options),
        g_(fabric),
        tracer_(fabric, lfts),
        sources_(source_switches(fabric)),
        dests_(destination_lids(fabric)),
        ns_(sources_.size()),
        paths_(ns_, dests_.size()),
        order_(options.order) {
    for (const SourceSwitch& s : sources_) rows_.push_back(tracer_.row_of(s.node));
    for (std::size_t s = 0; s < ns_; ++s)
      for (const SourcePort& p : sources_[s].ports) paths_.weight[s] += p.lid_count;
  }

  LayerAssignment run() {
    LayerAssignment result;
    result.table = LayerTable(g_.fabric);
    survey_paths();
    choose_first_fit(result);
    const unsigned n = options_.balance ? options_.max_layers : result.layers_needed;
    result.work_bytes = result.table.memory_bytes() + 2 * paths_.length.size() + columns_.size() +
                        g_.slots.size() + layers_.size() * LayerGraph::bytes(g_);
    columns_ = {};
    layers_.clear();  // spreading needs no graphs
    std::vector<std::size_t> load;
    if (one_layer_ && options_.balance && n > 1) {
      load = deal_one_layer(paths_, sources_, dests_, n, result.table);
    } else {
      load = spread_layers(paths_, order_, n, result.layers_needed, options_.balance);
      write_layer_table(paths_, sources_, dests_, result.table);
    }
    result.routes_per_layer = load;
    result.paths = ns_ * dests_.size();
    result.layers_used = 0;
    for (unsigned l = 0; l < n; ++l)
      if (load[l] != 0) result.layers_used = l + 1;
    result.layers_used = std::max(result.layers_used, 1u);
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    return result;
  }

 private:
  // Dependencies per path (capped), so paths can be visited by length; also
  // the union of all dependencies: acyclic means one layer holds them all.
  void survey_paths() {
    // Destinations are independent: each thread surveys a share of them into
    // its own union and lengths seen; a loop found by several threads is
    // reported for the lowest destination, as one thread would.
    const auto threads = static_cast<unsigned>(std::max<std::size_t>(
        1, std::min<std::size_t>(parallel::effective_threads(options_.threads), dests_.size())));
    std::vector<std::vector<std::uint8_t>> in_union(threads);
    std::vector<std::vector<bool>> has_length(threads);
    std::vector<std::unique_ptr<PathSurvey>> surveys(threads);
    parallel::parallel_for(dests_.size(), threads, [&](std::size_t d, unsigned w) {
      if (!surveys[w]) {
        surveys[w] = std::make_unique<PathSurvey>(g_.fabric, g_.slots, tracer_);
        in_union[w].assign(g_.slots.size(), 0);
        has_length[w].assign(256, false);
      }
      PathSurvey& survey = *surveys[w];
      survey.begin(dests_[d]);
      for (std::size_t s = 0; s < ns_; ++s) {
        prefetch_first_hop(s + 4, d);
        WalkEnd end = WalkEnd::delivered;
        const std::size_t count = survey.count(sources_[s].node, in_union[w], end);
        if (end == WalkEnd::loop)
          throw LayerError("forwarding loop on the route from " +
                               describe_node(g_.fabric, sources_[s].node) + " to LID " +
                               std::to_string(dests_[d]) + ": no layering is deadlock-free",
                           0, options_.max_layers);
        const auto len = static_cast<std::uint8_t>(std::min<std::size_t>(count, 255));
        paths_.length[d * ns_ + s] = len;
        has_length[w][len] = true;
      }
    });
    std::vector<std::uint8_t> all(g_.slots.size(), 0);
    for (const auto& u : in_union)
      for (std::size_t i = 0; i < u.size(); ++i) all[i] |= u[i];
    // Every subset of an acyclic graph is acyclic: first fit would put every
    // route into layer 0, and balancing may move any route anywhere.
    one_layer_ = slots_acyclic(g_.fabric, g_.slots, all);
    for (unsigned len = 1; len < 256; ++len)
      for (const auto& seen : has_length)
        if (!seen.empty() && seen[len]) {
          paths_.lengths.push_back(len);
          break;
        }
  }

  // First fit: the lowest layer whose graph stays acyclic. Returns the
  // layers needed, 0 when more than search_cap().
  unsigned first_fit() {
    if (columns_.empty()) transpose_lfts();
    layers_.clear();
    layers_.push_back(std::make_unique<LayerGraph>(g_));
    bool capped = false;
    std::size_t last_d = dests_.size();
    paths_.for_each(order_, [&](std::size_t s, std::size_t d) {
      if (capped) return;
      if (d != last_d) {  // forget what was known about the last destination
        last_d = d;
        if (++token_ == 0) {
          std::fill(in_layer0_.begin(), in_layer0_.end(), 0u);
          token_ = 1;
        }
      }
      Walk walk = cached_dependencies(s, d);
      if (walk == Walk::rest_in_layer0) {
        if (layers_[0]->holds(deps_)) {
          paths_.layer[d * ns_ + s] = 0;
          mark_in_layer0();
          return;
        }
        walk = cached_dependencies(s, d, /*stop_in_layer0=*/false);  // the whole route after all
      }
      if (walk == Walk::failed) {
        route_dependencies(g_, tracer_, sources_[s].node, dests_[d], hops_, deps_);
        walked_.clear();
      }
      for (unsigned l = 0;; ++l) {
        if (l == layers_.size()) {
          if (l == search_cap()) {
            capped = true;
            return;
          }
          layers_.push_back(std::make_unique<LayerGraph>(g_));
        }
        if (layers_[l]->add(deps_)) {
          paths_.layer[d * ns_ + s] = static_cast<std::uint8_t>(l);
          if (l == 0) mark_in_layer0();
          break;
        }
      }
    });
    return capped ? 0 : static_cast<unsigned>(layers_.size());
  }

  // The switches of the route just placed in layer 0: every dependency from
  // each of them on toward the destination is in layer 0 now, and stays
  // there (a layer only loses the edges of a route it refuses).
  void mark_in_layer0() {
    for (const std::uint32_t row : walked_) in_layer0_[row] = token_;
  }

  enum class Walk { complete, rest_in_layer0, failed };
  // The dependencies of the route from sources_[s] toward dests_[d] into
  // deps_, straight from the LFT bytes and the tracer's port table (no hop
  // list); walked_: the switches walked. With stop_in_layer0 the walk stops
  // at a switch whose way onward an earlier route toward the same
  // destination put in layer 0 (in_layer0_): deps_ then ends with the
  // dependency where the route enters that switch (rest_in_layer0). Routes
  // of a destination from neighbouring sources mostly merge after a hop or
  // two, so most walks stop early; a route whose dependencies are all in
  // layer 0 goes there unchanged (add() would return true and change
  // nothing). failed: not delivered (route_dependencies then walks it; the
  // survey has already refused loops).
  Walk cached_dependencies(std::size_t s, std::size_t d, bool stop_in_layer0 = true) {
    deps_.clear();
    walked_.clear();
    const Lid dlid = dests_[d];
    std::uint32_t row = rows_[s];
    if (row == RouteTracer::kNoRow || dlid >= tracer_.lid_limit()) return Walk::failed;
    const std::uint32_t want = tracer_.terminal_of_lid(dlid);
    const std::uint8_t* column = columns_.data() + d * tracer_.switch_count();
    ChannelId prev = kNoChannel;  // the channel into `row` from a switch
    for (std::size_t hops = 0; hops <= max_hops_; ++hops) {
      if (stop_in_layer0 && in_layer0_[row] == token_) {
        if (prev != kNoChannel && out_to_switch_[row]) {
          const PortRef at = g_.slots.arrival(prev);
          deps_.push_back(
              Dependency{g_.slots.slot(at.node, at.port, out_port_[row]), prev, out_[row]});
        }
        return Walk::rest_in_layer0;
      }
      const PortNum p = column[row];
      ChannelId channel = 0;
      const std::uint32_t next = tracer_.step_port(row, p, want, channel);
      if (next == RouteTracer::kFailed) return Walk::failed;
      walked_.push_back(row);
      out_port_[row] = p;
      out_[row] = channel;
      out_to_switch_[row] = next != RouteTracer::kArrived;
      if (next == RouteTracer::kArrived) return Walk::complete;
      if (prev != kNoChannel) {
        const PortRef at = g_.slots.arrival(prev);
        deps_.push_back(Dependency{g_.slots.slot(at.node, at.port, p), prev, channel});
      }
      if (!g_.slots.arrival(channel).valid()) return Walk::failed;
      prev = channel;
      row = next;
    }
    return Walk::failed;  // a loop
  }

  // The LFT bytes destination by destination (columns_[d * switches + row]):
  // first fit visits a destination's routes one after another, each walking
  // rows of the switch-major LFT, one cache miss per hop; a destination's
  // column is a few cache lines. Only first fit needs it (not one-layer
  // fabrics): one more byte per path.
  void transpose_lfts() {
    const std::size_t rows = tracer_.switch_count();
    columns_.assign(dests_.size() * rows, 0);
    constexpr std::size_t kBlock = 64;  // destinations per pass over the rows
    for (std::size_t d0 = 0; d0 < dests_.size(); d0 += kBlock) {
      const std::size_t d1 = std::min(dests_.size(), d0 + kBlock);
      for (std::uint32_t row = 0; row < rows; ++row)
        for (std::size_t d = d0; d < d1; ++d)
          if (dests_[d] < tracer_.lid_limit())
            columns_[d * rows + row] = tracer_.lfts().at(row, dests_[d]);
    }
  }

  // Asks for the LFT byte of a route some routes ahead: the passes visit a
  // destination's routes source by source, one LFT row each, so the first
  // lookups of a route would otherwise wait on memory one after another.
  void prefetch_first_hop(std::size_t s, std::size_t d) const {
    if (s < ns_ && rows_[s] != RouteTracer::kNoRow && dests_[d] < tracer_.lid_limit())
      tracer_.prefetch(rows_[s], dests_[d]);
  }

  // Layers a first fit may open before it gives up.
  unsigned search_cap() const { return options_.count_beyond ? kSearchCap : options_.max_layers; }

  // The requested order first; if it needs too many layers, the others.
  // Throws LayerError when none fits.
  void choose_first_fit(LayerAssignment& result) {
    std::vector<LayerOptions::Order> orders{options_.order};
    if (options_.try_other_orders)
      for (auto o : {LayerOptions::Order::longest_first, LayerOptions::Order::lid,
                     LayerOptions::Order::shortest_first})
        if (o != options_.order) orders.push_back(o);
    unsigned fewest = 0;         // fewest layers any order needed, 0 = unknown
    if (one_layer_) fewest = 1;  // the table is all layer 0 already
    for (LayerOptions::Order o : orders) {
      if (one_layer_) break;
      order_ = o;
      const unsigned needed = first_fit();
      if (needed != 0 && (fewest == 0 || needed < fewest)) fewest = needed;
      if (needed != 0 && needed <= options_.max_layers) break;
    }
    if (fewest == 0 || fewest > options_.max_layers)
      throw LayerError(layers_message(fewest, search_cap(), options_.max_layers), fewest,
                       options_.max_layers);
    result.layers_needed = one_layer_ ? 1 : static_cast<unsigned>(layers_.size());
    result.order = order_;
  }

  // Timed from the start: building the slots and the tracer is part of it.
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  const LayerOptions& options_;
  const Geometry g_;
  const RouteTracer tracer_;
  const std::vector<SourceSwitch> sources_;
  const std::vector<Lid> dests_;
  const std::size_t ns_;
  const std::size_t max_hops_ = tracer_.switch_count();  // more hops than this: a loop
  std::vector<std::uint32_t> rows_;                      // tracer row per source switch
  // Per switch row, for the destination being placed (token_): its way on
  // and whether every dependency from it on is in layer 0 already.
  std::uint32_t token_ = 0;
  std::vector<std::uint32_t> in_layer0_ = std::vector<std::uint32_t>(tracer_.switch_count(), 0);
  std::vector<PortNum> out_port_ = std::vector<PortNum>(tracer_.switch_count(), 0);
  std::vector<ChannelId> out_ = std::vector<ChannelId>(tracer_.switch_count(), 0);
  std::vector<std::uint8_t> out_to_switch_ = std::vector<std::uint8_t>(tracer_.switch_count(), 0);
  std::vector<std::uint32_t> walked_;  // rows of the last cached_dependencies
  PathTable paths_;
  std::vector<std::uint8_t> columns_;  // first fit: the LFT by destination (transpose_lfts)
  bool one_layer_ = false;
  LayerOptions::Order order_;  // the order being placed in
  std::vector<std::unique_ptr<LayerGraph>> layers_;
  std::vector<Hop> hops_;  // scratch of route_dependencies
  std::vector<Dependency> deps_;
};

}  // namespace

LayerAssignment assign_layers(const Fabric& fabric, const ForwardingTables& lfts,
                              const LayerOptions& options) {
  if (options.max_layers < 1 || options.max_layers > kSlCount)
    throw std::invalid_argument("virtual layers must be 1..16, not " +
                                std::to_string(options.max_layers));
  return LayerPlanner(fabric, lfts, options).run();
}

}  // namespace psssp::deadlock
