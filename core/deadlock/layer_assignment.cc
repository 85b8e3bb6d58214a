// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "layer_assignment.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>

#include "acyclic_slots.h"
#include "first_fit.h"
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
// Destinations whose LFT columns are read in one pass over the switches.
constexpr std::size_t kColumnBlock = 64;

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
    for (std::size_t s = 0; s < ns_; ++s) paths_.weight[s] = sources_[s].lid_count();
  }

  LayerAssignment run() {
    LayerAssignment result;
    result.table = LayerTable(g_.fabric);
    survey_paths();
    choose_first_fit(result);
    const unsigned n = options_.balance ? options_.max_layers : result.layers_needed;
    result.work_bytes = result.table.memory_bytes() + 2 * paths_.length.size() + column_bytes_ +
                        mark_bytes_ + g_.slots.size() + layers_.size() * LayerGraph::bytes(g_);
    columns_ = {};
    layers_.clear();  // spreading needs no graphs
    const std::vector<std::size_t> load = spread_into_table(
        paths_, sources_, dests_,
        SpreadOptions{n, result.layers_needed, options_.balance, one_layer_ && options_.balance,
                      parallel::effective_threads(options_.threads)},
        result.table);
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
    // Destinations are independent: each thread surveys blocks of them into
    // its own union and lengths seen, reading the block's LFT columns (one
    // cache miss per switch and block, not per route); a loop found by
    // several threads is reported for the lowest destination, as one thread
    // would.
    const auto threads = static_cast<unsigned>(std::max<std::size_t>(
        1, std::min<std::size_t>(parallel::effective_threads(options_.threads), dests_.size())));
    std::vector<std::vector<std::uint8_t>> in_union(threads);
    std::vector<std::vector<bool>> has_length(threads);
    std::vector<std::unique_ptr<PathSurvey>> surveys(threads);
    std::vector<std::vector<std::uint8_t>> block(threads);  // kColumnBlock columns
    const std::size_t rows = tracer_.switch_count();
    const std::size_t blocks = (dests_.size() + kColumnBlock - 1) / kColumnBlock;
    // Hosts on every switch (tori, meshes, HyperX, dragonflies): the union
    // is all but certain to hold a cycle, so first fit will run and read the
    // LFT by destination. The survey's columns are kept for it instead of
    // being read a second time (the 32x32 torus: 13 ms of 150).
    if (sources_.size() == rows) {
      columns_.assign(dests_.size() * rows, 0);
      column_bytes_ = columns_.size();
    }
    parallel::parallel_for(blocks, threads, [&](std::size_t b, unsigned w) {
      if (!surveys[w]) {
        surveys[w] = std::make_unique<PathSurvey>(g_.fabric, g_.slots, tracer_);
        in_union[w].assign(g_.slots.size(), 0);
        has_length[w].assign(256, false);
        if (columns_.empty()) block[w].assign(kColumnBlock * rows, 0);
      }
      PathSurvey& survey = *surveys[w];
      const std::size_t d0 = b * kColumnBlock, d1 = std::min(dests_.size(), d0 + kColumnBlock);
      std::uint8_t* columns = columns_.empty() ? block[w].data() : columns_.data() + d0 * rows;
      load_columns(d0, d1, columns);
      for (std::size_t d = d0; d < d1; ++d) {
        survey.begin(dests_[d], columns + (d - d0) * rows);
        for (std::size_t s = 0; s < ns_; ++s) {
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
      }
    });
    std::vector<std::uint8_t> all(g_.slots.size(), 0);
    for (const auto& u : in_union)
      for (std::size_t i = 0; i < u.size(); ++i) all[i] |= u[i];
    // Every subset of an acyclic graph is acyclic: first fit would put every
    // route into layer 0, and balancing may move any route anywhere.
    one_layer_ = slots_acyclic(g_.fabric, g_.slots, all);
    if (one_layer_) columns_ = {};  // no first fit after all
    for (unsigned len = 1; len < 256; ++len)
      for (const auto& seen : has_length)
        if (!seen.empty() && seen[len]) {
          paths_.lengths.push_back(len);
          break;
        }
  }

  // First fit (first_fit.h) in order_: the layers needed, 0 when more than
  // search_cap().
  unsigned first_fit() {
    if (columns_.empty()) transpose_lfts();
    FirstFitResult fit =
        deadlock::first_fit(FirstFitInput{g_, tracer_, sources_, rows_, dests_, columns_}, paths_,
                            order_, search_cap(), parallel::effective_threads(options_.threads));
    layers_ = std::move(fit.layers);
    mark_bytes_ = std::max(mark_bytes_, fit.mark_bytes);
    return fit.capped ? 0 : static_cast<unsigned>(layers_.size());
  }

  // The LFT bytes destination by destination (columns_[d * switches + row]):
  // first fit visits a destination's routes one after another, each walking
  // rows of the switch-major LFT, one cache miss per hop; a destination's
  // column is a few cache lines. Only first fit needs all of them (not
  // one-layer fabrics): one more byte per path.
  void transpose_lfts() {
    const std::size_t rows = tracer_.switch_count();
    columns_.assign(dests_.size() * rows, 0);
    column_bytes_ = columns_.size();
    const std::size_t blocks = (dests_.size() + kColumnBlock - 1) / kColumnBlock;
    parallel::parallel_for(
        blocks, parallel::effective_threads(options_.threads), [&](std::size_t b, unsigned) {
          const std::size_t d0 = b * kColumnBlock;
          load_columns(d0, std::min(dests_.size(), d0 + kColumnBlock), columns_.data() + d0 * rows);
        });
  }

  // The columns of destinations d0..d1 (at most kColumnBlock) into out, one
  // pass over the rows: neighbouring LIDs share a row's cache line.
  void load_columns(std::size_t d0, std::size_t d1, std::uint8_t* out) const {
    const std::size_t rows = tracer_.switch_count();
    for (std::uint32_t row = 0; row < rows; ++row)
      for (std::size_t d = d0; d < d1; ++d)
        out[(d - d0) * rows + row] =
            dests_[d] < tracer_.lid_limit() ? tracer_.lfts().at(row, dests_[d]) : 0;
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
  std::vector<std::uint32_t> rows_;  // tracer row per source switch
  PathTable paths_;
  std::vector<std::uint8_t> columns_;  // first fit: the LFT by destination (transpose_lfts)
  std::size_t column_bytes_ = 0;       // columns_ at its largest
  std::size_t mark_bytes_ = 0;         // first fit's marks (first_fit.h)
  bool one_layer_ = false;
  LayerOptions::Order order_;  // the order being placed in
  std::vector<std::unique_ptr<LayerGraph>> layers_;
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
