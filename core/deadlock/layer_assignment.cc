// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "layer_assignment.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>

#include "acyclic_slots.h"
#include "byte_transpose.h"
#include "destination_groups.h"
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

static_assert(PathTable::kOwn == PathSurvey::kOwn);

// Layers tried before giving up counting how many would be needed.
constexpr unsigned kSearchCap = 64;
// Destinations whose LFT columns are read in one pass over the switches.
constexpr std::size_t kColumnBlock = 64;
// Blocks of destinations whose walk-free union the first worker tests for a
// cycle before it marks more (direct_union_acyclic).
constexpr std::size_t kUnionTestBlocks = 2;

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
        sources_(source_switches(fabric,
                                 options.switch_sources ? Sources::every_switch : Sources::hosts)),
        dests_(destination_lids(fabric)),
        ns_(sources_.size()),
        paths_(ns_, dests_.size()),
        order_(options.order) {
    for (const SourceSwitch& s : sources_) rows_.push_back(tracer_.row_of(s.node));
    for (std::size_t s = 0; s < ns_; ++s) paths_.weight[s] = sources_[s].lid_count();
    // Every switch of the tables is a source: only then is the walk-free
    // union the routes' union. The tables have a row per switch, so this is
    // hosts on every switch; checked, not assumed, as a source without a row
    // would have its routes' dependencies left out.
    every_switch_a_source_ = sources_.size() == tracer_.switch_count() &&
                             std::none_of(rows_.begin(), rows_.end(), [](std::uint32_t row) {
                               return row == RouteTracer::kNoRow;
                             });
    by_lid_.resize(dests_.size());
    for (std::size_t d = 0; d < dests_.size(); ++d) by_lid_[d] = static_cast<std::uint32_t>(d);
    if (every_switch_a_source_) {
      // The destinations in the survey's and first fit's order (switch by
      // switch), so that their columns and paths lie in the order they are
      // visited, which matters with OpenSM's LIDs (a switch's hosts hundreds
      // of LIDs apart; docs/benchmarks/deadlock-free.md). by_lid_ keeps them by LID for reading the
      // tables. The survey's groups (units of consecutive destinations) are the same ones,
      // renumbered: member m is destination m now.
      const std::vector<Lid> by_lid = dests_;
      groups_ = group_by_switch(g_.fabric, by_lid, PathSurvey::kMaxGroup, kColumnBlock);
      std::vector<std::uint32_t> group_first(by_lid.size());
      for (std::size_t m = 0; m < groups_.members.size(); ++m) {
        const std::uint32_t d = groups_.members[m];
        dests_[m] = by_lid[d];
        by_lid_[d] = static_cast<std::uint32_t>(m);
        group_first[m] = groups_.group_first[d];
        groups_.members[m] = static_cast<std::uint32_t>(m);
      }
      groups_.group_first = std::move(group_first);
      paths_.by_lid = by_lid_;  // for the LID order
    }
  }

  LayerAssignment run() {
    LayerAssignment result;
    result.table = LayerTable(g_.fabric);
    const auto since = [](std::chrono::steady_clock::time_point t) {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    };
    result.setup_seconds = since(start_);
    auto phase = std::chrono::steady_clock::now();
    survey_paths();
    result.survey_seconds = since(phase);
    phase = std::chrono::steady_clock::now();
    choose_first_fit(result);
    result.first_fit_seconds = since(phase);
    phase = std::chrono::steady_clock::now();
    const unsigned n = options_.balance ? options_.max_layers : result.layers_needed;
    result.work_bytes = result.table.memory_bytes() + 2 * paths_.length.size() +
                        paths_.repeat.size() + column_bytes_ + mark_bytes_ + g_.slots.size() +
                        layers_.size() * LayerGraph::bytes(g_);
    columns_ = {};
    layers_.clear();  // spreading needs no graphs
    const std::vector<std::size_t> load =
        spread_into_table(paths_, sources_, dests_,
                          SpreadOptions{n, result.layers_needed, options_.balance, one_layer_,
                                        parallel::effective_threads(options_.threads)},
                          result.table);
    result.spread_seconds = since(phase);
    result.routes_per_layer = load;
    result.paths = ns_ * dests_.size();
    result.switch_sources = options_.switch_sources;
    result.layers_used = 0;
    for (unsigned l = 0; l < n; ++l)
      if (load[l] != 0) result.layers_used = l + 1;
    result.layers_used = std::max(result.layers_used, 1u);
    result.seconds = since(start_);
    return result;
  }

 private:
  // Dependencies per path (capped), so paths can be visited by length; also
  // the union of all dependencies: acyclic means one layer holds them all.
  // Destinations are independent: each thread surveys units of them into
  // its own union and lengths seen; a loop found by several threads is
  // reported for the lowest unit, as one thread would.
  void survey_paths() {
    const std::size_t rows = tracer_.switch_count();
    const auto threads = static_cast<unsigned>(std::max<std::size_t>(
        1, std::min<std::size_t>(parallel::effective_threads(options_.threads), dests_.size())));
    survey_threads_.resize(threads);
    std::vector<SurveyThread>& t = survey_threads_;
    if (every_switch_a_source_) {
      // Hosts on every switch (tori, meshes, HyperX, dragonflies): every
      // switch is a source, so the union needs no walks
      // (direct_union_acyclic), and when it is acyclic (HyperX and meshes in
      // dimension order) no path needs surveying. Else first fit runs and
      // reads the LFT by destination, kept from the union's pass, and the
      // survey goes by destination switch to find the routes that repeat
      // another; a group's later LIDs are counted in its first one's order.
      one_layer_ = direct_union_acyclic();
      if (one_layer_) {
        columns_ = {};
        return;
      }
      paths_.repeat = Bytes(paths_.length.size());  // the survey writes every entry
      if (threads >= 2 && options_.order == LayerOptions::Order::longest_first &&
          search_cap() >= 2) {
        survey_while_placing_ = true;  // first_fit() surveys as it places
        return;
      }
      parallel::parallel_for(groups_.units(), threads,
                             [&](std::size_t u, unsigned w) { survey_unit(u, w); });
      take_groups();
    } else {
      // Blocks of LIDs: the block's LFT columns read in one pass over the
      // rows (one cache miss per switch and block, not per route).
      const std::size_t blocks = (dests_.size() + kColumnBlock - 1) / kColumnBlock;
      parallel::parallel_for(blocks, threads, [&](std::size_t b, unsigned w) {
        SurveyThread& my = start(t[w], 0, kColumnBlock * rows, true);
        const std::size_t d0 = b * kColumnBlock, d1 = std::min(dests_.size(), d0 + kColumnBlock);
        const std::uint32_t* ds = by_lid_.data() + d0;
        std::uint8_t* block = my.block.data();
        load_columns(ds, d1 - d0, [&](std::size_t k) { return block + k * rows; });
        for (std::size_t k = 0; k < d1 - d0; ++k) survey_destination(my, ds[k], block + k * rows);
      });
      std::vector<std::uint8_t> all(g_.slots.size(), 0);
      for (const SurveyThread& my : t)
        for (std::size_t i = 0; i < my.in_union.size(); ++i) all[i] |= my.in_union[i];
      // Every subset of an acyclic graph is acyclic: first fit would put
      // every route into layer 0, and balancing may move any route anywhere.
      one_layer_ = slots_acyclic(g_.fabric, g_.slots, all);
      if (!one_layer_)  // first fit's order: switch by switch
        paths_.members =
            group_by_switch(g_.fabric, dests_, PathSurvey::kMaxGroup, kColumnBlock).members;
    }
    paths_.lengths = lengths_surveyed();
  }

  // The lengths the survey found, ascending.
  std::vector<unsigned> lengths_surveyed() const {
    std::vector<unsigned> lengths;
    for (unsigned len = 1; len < 256; ++len)
      for (const SurveyThread& my : survey_threads_)
        if (!my.has_length.empty() && my.has_length[len]) {
          lengths.push_back(len);
          break;
        }
    return lengths;
  }

  // Where every switch is a source: the paths toward the destinations of
  // unit u of groups_, with worker w's scratch.
  void survey_unit(std::size_t u, unsigned w) {
    SurveyThread& my = start(survey_threads_[w], groups_.max_group, 0, false);
    const std::size_t rows = tracer_.switch_count();
    for (std::size_t m = groups_.unit_begin[u]; m < groups_.unit_begin[u + 1]; ++m) {
      const std::size_t d = groups_.members[m];
      const bool first = groups_.group_first[d] == m;
      if (first) my.survey->begin_group();
      survey_destination(my, d, columns_.data() + d * rows,
                         first ? Walks::first_of_group : Walks::later_of_group);
    }
  }
  // Once every unit is surveyed: spreading reads the groups.
  void take_groups() {
    paths_.members = std::move(groups_.members);
    paths_.group_first = std::move(groups_.group_first);
  }

  struct SurveyThread {
    std::unique_ptr<PathSurvey> survey;
    std::vector<std::uint8_t> in_union;    // empty where the union is known already
    std::vector<std::uint8_t> has_length;  // a byte per length: set per path
    std::vector<std::uint8_t> block;       // LFT columns
  };
  SurveyThread& start(SurveyThread& t, std::size_t max_group, std::size_t block_bytes,
                      bool union_wanted) {
    if (!t.survey) {
      t.survey = std::make_unique<PathSurvey>(g_.fabric, g_.slots, tracer_, max_group);
      if (union_wanted) t.in_union.assign(g_.slots.size(), 0);
      t.has_length.assign(256, 0);
      t.block.assign(block_bytes, 0);
    }
    return t;
  }

  // How survey_destination counts where every switch is a source: the
  // group's first LID off its tree of next hops (count_tree), then keeping
  // the order for the later ones (count_every_switch); each falls back to
  // walks. `each_source`: walks from every source (with marks if wanted).
  enum class Walks { each_source, first_of_group, later_of_group };

  // The paths toward dests_[d] from every source: their lengths and
  // dependencies, and in a group which repeat another's (their lengths read
  // 0, so first fit never visits them, until spread_into_table).
  void survey_destination(SurveyThread& t, std::size_t d, const std::uint8_t* column,
                          Walks walks = Walks::each_source) {
    PathSurvey& survey = *t.survey;
    survey.begin(dests_[d], column);
    const auto record = [&](std::size_t s, std::size_t count, std::uint8_t repeat) {
      const std::size_t i = d * ns_ + s;
      PathSurvey::record(count, repeat, paths_.length[i],
                         paths_.repeat.empty() ? nullptr : &paths_.repeat[i], t.has_length.data());
    };
    const bool every_switch_counted =
        (walks == Walks::first_of_group && survey.count_tree()) ||
        (walks == Walks::later_of_group && survey.count_every_switch() == tracer_.switch_count());
    if (every_switch_counted) {
      // Every switch counted (and every switch a source): read off.
      survey.read_off(rows_.data(), ns_, paths_.length.data() + d * ns_,
                      paths_.repeat.data() + d * ns_, t.has_length.data());
      return;
    }
    for (std::size_t s = 0; s < ns_; ++s) {
      WalkEnd end = WalkEnd::delivered;
      const std::size_t count =
          survey.count(sources_[s].node, t.in_union.empty() ? nullptr : &t.in_union, end);
      if (end == WalkEnd::loop)
        throw LayerError("forwarding loop on the route from " +
                             describe_node(g_.fabric, sources_[s].node) + " to LID " +
                             std::to_string(dests_[d]) + ": no layering is deadlock-free",
                         0, options_.max_layers);
      record(s, count, survey.same_route_as());
    }
    if (walks == Walks::first_of_group) survey.keep_order();
  }

  // Where every switch is a source: whether the union of the routes'
  // dependencies is acyclic, from one pass over the LFT without walks (which
  // also copies the LFT by destination into columns_). A cycle among the
  // dependencies toward some LIDs is one of the union's: the first worker
  // tests its own marks once, after its first kUnionTestBlocks blocks (once
  // more on fabrics whose union is acyclic, a small cost), and
  // once it finds a cycle the rest of the pass only copies.
  bool direct_union_acyclic() {
    const unsigned threads = parallel::effective_threads(options_.threads);
    std::vector<std::vector<std::uint8_t>> in_union(threads);
    std::size_t blocks_marked = 0;  // by worker 0
    std::atomic<bool> cyclic{false};
    const std::size_t rows = tracer_.switch_count();
    transpose_lfts([&](const std::uint32_t* ds, std::size_t n, unsigned w) {
      if (cyclic.load(std::memory_order_relaxed)) return;
      std::vector<std::uint8_t>& marked = in_union[w];
      if (marked.empty()) marked.assign(g_.slots.size(), 0);
      for (std::size_t k = 0; k < n; ++k)
        mark_every_switchs_dependencies(g_.slots, tracer_, dests_[ds[k]],
                                        columns_.data() + ds[k] * rows, marked);
      if (w == 0 && ++blocks_marked == kUnionTestBlocks &&
          !slots_acyclic(g_.fabric, g_.slots, marked))
        cyclic.store(true, std::memory_order_relaxed);
    });
    if (cyclic.load()) return false;
    std::vector<std::uint8_t> all(g_.slots.size(), 0);
    for (const auto& u : in_union)
      for (std::size_t i = 0; i < u.size(); ++i) all[i] |= u[i];
    return slots_acyclic(g_.fabric, g_.slots, all);
  }

  // First fit (first_fit.h) in order_: the layers needed, 0 when more than
  // search_cap().
  // The first call may survey the paths as it places them
  // (survey_while_placing_, first_fit_surveying).
  unsigned first_fit() {
    if (columns_.empty()) transpose_lfts();
    const FirstFitInput input{g_, tracer_, sources_, rows_, dests_, columns_};
    std::optional<FirstFitResult> fit;
    if (survey_while_placing_) {
      survey_while_placing_ = false;
      SurveyUnits units;
      units.unit_begin = &groups_.unit_begin;
      units.survey = [&](std::size_t u, unsigned w) { survey_unit(u, w); };
      units.longest = [&](unsigned w) {
        const std::vector<std::uint8_t>& seen = survey_threads_[w].has_length;
        for (unsigned len = 255; !seen.empty() && len > 0; --len)
          if (seen[len]) return len;
        return 0u;
      };
      units.lengths = [&] { return lengths_surveyed(); };
      fit = first_fit_surveying(input, paths_, units, search_cap());
      ++first_fit_passes_;
      take_groups();
    }
    if (!fit) {
      ++first_fit_passes_;
      fit = deadlock::first_fit(input, paths_, order_, search_cap(),
                                parallel::effective_threads(options_.threads));
    }
    layers_ = std::move(fit->layers);
    mark_bytes_ = std::max(mark_bytes_, fit->mark_bytes);
    return fit->capped ? 0 : static_cast<unsigned>(layers_.size());
  }

  // The LFT bytes destination by destination (columns_[d * switches + row]):
  // first fit visits a destination's routes one after another, each walking
  // rows of the switch-major LFT, one cache miss per hop; a destination's
  // column is a few cache lines. Only first fit needs all of them (not
  // one-layer fabrics): one more byte per path.
  // The destinations go by LID (by_lid_), kColumnBlock at a time:
  // `then(ds, n, worker)` runs on each block (ds: n destinations) as soon
  // as its columns are in (the walk-free union reads them while in cache).
  template <typename Then>
  void transpose_lfts(Then&& then) {
    const std::size_t rows = tracer_.switch_count();
    columns_ = Bytes(dests_.size() * rows);  // load_columns writes every byte
    column_bytes_ = columns_.size();
    const std::size_t blocks = (dests_.size() + kColumnBlock - 1) / kColumnBlock;
    parallel::parallel_for(
        blocks, parallel::effective_threads(options_.threads), [&](std::size_t b, unsigned w) {
          const std::size_t k0 = b * kColumnBlock, k1 = std::min(dests_.size(), k0 + kColumnBlock);
          const std::uint32_t* ds = by_lid_.data() + k0;
          load_columns(ds, k1 - k0, [&](std::size_t k) { return columns_.data() + ds[k] * rows; });
          then(ds, k1 - k0, w);
        });
  }
  void transpose_lfts() {
    transpose_lfts([](const std::uint32_t*, std::size_t, unsigned) {});
  }

  // The columns of destinations ds[0..n) (at most kColumnBlock, LIDs
  // ascending), column k at column(k), one pass over the rows: neighbouring
  // LIDs share a row's cache line.
  template <typename Column>
  void load_columns(const std::uint32_t* ds, std::size_t n, Column&& column) const {
    const std::size_t rows = tracer_.switch_count();
    const ForwardingTables& lfts = tracer_.lfts();
    const Lid first = dests_[ds[0]], last = dests_[ds[n - 1]];
    if (last < tracer_.lid_limit() && last - first + 1u == n) {
      // Consecutive LIDs (the usual case): each row's bytes for the block
      // are one run, turned into columns sixteen at a time.
      transpose_bytes_into(tracer_.lft_rows(), rows, first, n, column);
      return;
    }
    for (std::uint32_t row = 0; row < rows; ++row)
      for (std::size_t k = 0; k < n; ++k)
        column(k)[row] = dests_[ds[k]] < tracer_.lid_limit() ? lfts.at(row, dests_[ds[k]]) : 0;
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
    if (one_layer_) fewest = 1;  // spread_into_table deals every route over any layer
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
    result.first_fit_passes = first_fit_passes_;
  }

  // Timed from the start: building the slots and the tracer is part of it.
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  const LayerOptions& options_;
  const Geometry g_;
  const RouteTracer tracer_;
  const std::vector<SourceSwitch> sources_;
  // By placement order where every switch is a source (switch by switch),
  // else by LID; by_lid_ lists them by LID.
  std::vector<Lid> dests_;
  std::vector<std::uint32_t> by_lid_;
  bool every_switch_a_source_ = false;
  const std::size_t ns_;
  std::vector<std::uint32_t> rows_;  // tracer row per source switch
  PathTable paths_;
  Bytes columns_;                 // first fit: the LFT by destination (transpose_lfts)
  std::size_t column_bytes_ = 0;  // columns_ at its largest
  std::size_t mark_bytes_ = 0;    // first fit's marks (first_fit.h)
  bool one_layer_ = false;
  std::vector<SurveyThread> survey_threads_;  // a survey's scratch per thread
  DestinationGroups groups_;                  // where every switch is a source: the survey's units
  // The survey of groups_ is left to the first first_fit(), which places
  // layer 0 meanwhile (two threads, longest first).
  bool survey_while_placing_ = false;
  unsigned first_fit_passes_ = 0;
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
