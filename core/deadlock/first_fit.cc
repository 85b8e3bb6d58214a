// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "first_fit.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <initializer_list>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "parallel/first_error.h"
#include "parallel/run_workers.h"

namespace psssp::deadlock {

void route_dependencies(const Geometry& g, const RouteTracer& tracer, NodeId source, Lid dlid,
                        std::vector<Hop>& hops, std::vector<Dependency>& deps) {
  walk_route(tracer, source, dlid, hops, g.port_of_channel);
  deps.clear();
  for (std::size_t i = 1; i < hops.size(); ++i) {
    const Hop& h = hops[i];
    if (!h.to_switch || !hops[i - 1].to_switch) continue;
    deps.push_back(Dependency{g.slots.slot(h.sw, h.in_port, h.out_port),
                              g.slots.switch_channel_into(h.sw, h.in_port),
                              g.fabric.channel(PortRef{h.sw, h.out_port})});
  }
}

namespace {

constexpr unsigned kRefused = ~0u;

// A mark per (destination, switch row) entry of the LFT columns for each of
// up to eight layers: a bit per entry when the placer has one layer (layer
// 0's, an eighth of the memory to zero before first fit can start), else a
// byte.
class EntryMarks {
 public:
  EntryMarks(std::size_t entries, unsigned layers)
      : shift_(layers == 1 ? 0 : 3), words_(((entries << shift_) + 63) / 64, 0) {}
  bool test(std::size_t entry, unsigned k) const {
    const std::size_t b = (entry << shift_) + k;
    return (words_[b >> 6] >> (b & 63)) & 1u;
  }
  void set(std::size_t entry, unsigned k) {
    const std::size_t b = (entry << shift_) + k;
    words_[b >> 6] |= std::uint64_t{1} << (b & 63);
  }
  std::size_t bytes() const { return words_.size() * sizeof(std::uint64_t); }

 private:
  unsigned shift_;  // log2 of the bits per entry
  std::vector<std::uint64_t> words_;
};

// Places routes, in the order offered, into the lowest of the layers
// first..cap-1 that takes them, with marks of its own (two EntryMarks: for
// layer first + k, k < 8). Cache-line aligned: the two placers of
// the pipeline write their walk state on every route, and two neighbours on
// the stack sharing a line made first fit measurably slower, depending on
// where the stack began (docs/benchmarks/deadlock-free.md).
class alignas(64) LayerPlacer {
 public:
  LayerPlacer(const FirstFitInput& in, unsigned first, unsigned cap)
      : in_(in),
        first_(first),
        cap_(cap),
        switches_(in.tracer.switch_count()),
        onward_in_(in.columns.size(), std::min(cap - first, 8u)),
        refused_onward_in_(in.columns.size(), std::min(cap - first, 8u)) {}

  // The layer the route from sources[s] to dests[d] went into, or kRefused
  // when none of the layers up to the cap takes it.
  unsigned place(std::size_t s, std::size_t d) {
    // The route's first switch is one an earlier route toward the LID walked
    // on from in the first layer: it adds nothing there (more than half of
    // layer 0's routes on the 32x32 torus).
    const std::uint32_t row = in_.rows[s];
    if (row != RouteTracer::kNoRow && in_.dests[d] < in_.tracer.lid_limit()) {
      const std::size_t at = d * switches_ + row;
      if (onward_in_.test(at, 0) && !refused_onward_in_.test(at, 0)) return first_;
    }
    if (!begin_walk(s, d)) walk_the_slow_way(s, d);
    for (unsigned k = 0; first_ + k < cap_; ++k) {
      if (k == layers_.size()) layers_.push_back(std::make_unique<LayerGraph>(in_.g));
      const Reach reach = walk_on_until_in_layer(k);
      if (reach == Reach::refusing_switch) {
        // Every switch walked so far leads into the refusing one: later
        // routes toward the LID stop at the first of them (on the 32x32
        // torus 8.4M steps of layer 0 became 3.9M).
        mark_refusing(k, walked_.size());
        continue;
      }
      if (reach == Reach::failed) walk_the_slow_way(s, d);
      std::size_t for_good = LayerGraph::kNoneForGood;
      const bool added = layers_[k]->add(deps_, &for_good);
      if (reach == Reach::marked_switch) deps_.pop_back();
      if (added) {
        mark_onward_in(k);
        return first_ + k;
      }
      mark_refusing(k, for_good);
    }
    return kRefused;
  }

  std::vector<std::unique_ptr<LayerGraph>>& layers() { return layers_; }
  std::size_t mark_bytes() const { return onward_in_.bytes() + refused_onward_in_.bytes(); }

 private:
  // Starts the walk of the route from sources[s] to dests[d] (nothing
  // walked yet); false when the tracer has no row or no table for it.
  bool begin_walk(std::size_t s, std::size_t d) {
    deps_.clear();
    walked_.clear();
    walk_ = RouteWalk{};
    walk_.d = d;
    walk_.row = in_.rows[s];
    const Lid dlid = in_.dests[d];
    if (walk_.row == RouteTracer::kNoRow || dlid >= in_.tracer.lid_limit()) return false;
    walk_.want = in_.tracer.terminal_of_lid(dlid);
    walk_.column = in_.columns.data() + d * switches_;
    return true;
  }

  enum class Reach { end, marked_switch, refusing_switch, failed };
  // Walks on until the switch reached is one whose way onward toward the
  // destination is all in layer first + k already, or to the end. The route
  // then fits that layer exactly when deps_ does: add() skips the
  // dependencies a layer holds. marked_switch: the dependency where the
  // route enters that switch was appended (the caller takes it out again).
  // refusing_switch: the switch reached is one whose way onward the layer
  // refuses (the walk stays there, for the next layer). failed: not
  // delivered; only the first walk can meet this, since marked switches lie
  // on delivered routes.
  Reach walk_on_until_in_layer(unsigned k) {
    RouteWalk& w = walk_;
    const bool marked = k < 8;
    const std::size_t column = w.d * switches_;
    const Geometry& g = in_.g;
    while (!w.done) {
      if (marked && refused_onward_in_.test(column + w.row, k)) return Reach::refusing_switch;
      const PortNum p = w.column[w.row];
      ChannelId channel = 0;
      const std::uint32_t next = in_.tracer.step_port(w.row, p, w.want, channel);
      if (next == RouteTracer::kFailed) return Reach::failed;
      // The dependency at this switch: entered from a switch, left to one.
      const bool dependency = w.prev != kNoChannel && next != RouteTracer::kArrived;
      if (dependency) {
        const PortRef at = g.slots.arrival(w.prev);
        deps_.push_back(Dependency{g.slots.slot(at.node, at.port, p), w.prev, channel});
      }
      if (marked && onward_in_.test(column + w.row, k))
        return dependency ? Reach::marked_switch : Reach::end;
      if (++w.steps > switches_) return Reach::failed;  // a loop
      walked_.push_back(w.row);
      if (next == RouteTracer::kArrived) {
        w.done = true;
        break;
      }
      if (!g.slots.arrival(channel).valid()) return Reach::failed;
      w.prev = channel;
      w.row = next;
    }
    return Reach::end;
  }

  // A route the tracer cannot follow to the end: all its dependencies as
  // route_dependencies gives them, and no switch of it marked when placed.
  void walk_the_slow_way(std::size_t s, std::size_t d) {
    route_dependencies(in_.g, in_.tracer, in_.sources[s].node, in_.dests[d], hops_, deps_);
    walked_.clear();
    walk_.done = true;
  }

  // The route just placed in layer first + k: every dependency from each
  // switch walked on toward the destination is in that layer now, and
  // stays there (a layer only loses the edges of a route it refuses).
  void mark_onward_in(unsigned k) {
    if (k >= 8) return;
    const std::size_t column = walk_.d * switches_;
    for (const std::uint32_t row : walked_) onward_in_.set(column + row, k);
  }

  // Layer first + k refused the route just tried for good at deps_[j], the
  // dependency where the route enters the switch after walked_[j]: every
  // route toward the destination through walked_[0..j] has it and is
  // refused there too.
  void mark_refusing(unsigned k, std::size_t j) {
    if (k >= 8 || j == LayerGraph::kNoneForGood) return;
    const std::size_t column = walk_.d * switches_;
    for (std::size_t i = 0; i <= j && i < walked_.size(); ++i)
      refused_onward_in_.set(column + walked_[i], k);
  }

  // A route's walk toward dests[d], taken only as far as a layer try
  // needs: deps_ holds the dependencies of the switches walked (walked_),
  // row is the next switch, entered from channel prev.
  struct RouteWalk {
    std::size_t d = 0;
    std::uint32_t row = 0, want = 0;
    ChannelId prev = kNoChannel;
    const std::uint8_t* column = nullptr;
    std::size_t steps = 0;
    bool done = false;  // every dependency is in deps_
  };

  const FirstFitInput& in_;
  const unsigned first_, cap_;
  const std::size_t switches_;
  EntryMarks onward_in_;          // per destination and switch row, like in_.columns
  EntryMarks refused_onward_in_;  // the same: the layers that refuse the way on
  std::vector<std::unique_ptr<LayerGraph>> layers_;  // layer first + i
  RouteWalk walk_;
  std::vector<std::uint32_t> walked_;  // rows of the route being placed, as far as walked
  std::vector<Dependency> deps_;
  std::vector<Hop> hops_;  // scratch of route_dependencies
};

// The routes layer 0 refused, handed in order from the thread placing layer
// 0 to the thread placing the others, a block at a time. Unbounded: the
// first thread never waits (and, if the second could not be started, runs
// to the end before it). The first thread closes it when done; a failure
// of either thread abandons it (run_workers' on_failure), so the second
// never waits for a block that will not come.
class alignas(64) RefusedRoutes {
 public:
  using Route = std::pair<std::uint32_t, std::uint32_t>;  // (source, destination) index

  void push(std::size_t s, std::size_t d) {
    open_.emplace_back(static_cast<std::uint32_t>(s), static_cast<std::uint32_t>(d));
    if (open_.size() == kBlock) publish();
  }
  // No more routes: hands over the last block.
  void close() {
    publish();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closed_ = true;
    }
    ready_.notify_one();
  }
  // The other thread failed: no more routes, and none taken from now on.
  void abandon() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closed_ = abandoned_ = true;
    }
    ready_.notify_one();
  }
  // The next block in order; false once closed and every block taken.
  bool pop(std::vector<Route>& block) {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [&] { return !blocks_.empty() || closed_; });
    if (blocks_.empty() || abandoned_) return false;
    block = std::move(blocks_.front());
    blocks_.pop_front();
    return true;
  }

 private:
  static constexpr std::size_t kBlock = 4096;
  void publish() {
    if (open_.empty()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      blocks_.push_back(std::move(open_));
    }
    ready_.notify_one();
    open_ = {};
    open_.reserve(kBlock);
  }

  std::vector<Route> open_;  // the first thread's block being filled
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::vector<Route>> blocks_;
  bool closed_ = false, abandoned_ = false;
};

// The placers' layers in order (at least one, even without routes) and
// their marks' memory.
FirstFitResult finish(FirstFitResult result, const FirstFitInput& in,
                      std::initializer_list<LayerPlacer*> placers) {
  for (LayerPlacer* p : placers) {
    for (auto& layer : p->layers()) result.layers.push_back(std::move(layer));
    result.mark_bytes += p->mark_bytes();
  }
  if (result.layers.empty()) result.layers.push_back(std::make_unique<LayerGraph>(in.g));
  return result;
}

// The thread placing layers 1 and up: the routes layer 0 refused, in
// order, until the queue closes or a route fits none of the layers up to
// the cap (then `capped`). Layer 0 is what the table holds where this
// thread writes nothing: cleared here, while layer 0 places its first
// routes (only this thread writes the table, so no cache line is written
// by both). The placer is built (its marks zeroed) here too.
void place_refused(const FirstFitInput& in, PathTable& paths, unsigned cap, RefusedRoutes& refused,
                   std::optional<LayerPlacer>& rest, std::atomic<bool>& capped) {
  std::fill(paths.layer.begin(), paths.layer.end(), std::uint8_t{0});
  rest.emplace(in, 1, cap);
  const std::size_t ns = paths.sources;
  std::vector<RefusedRoutes::Route> block;
  while (refused.pop(block))
    for (const auto& [s, d] : block) {
      const unsigned l = rest->place(s, d);
      if (l == kRefused) {
        capped.store(true, std::memory_order_relaxed);
        return;
      }
      paths.layer[d * ns + s] = static_cast<std::uint8_t>(l);
    }
}

// Layer 0's thread: the route into layer 0, or on to the other thread;
// nothing once a route fit no layer or either thread failed.
void place_in_layer0(LayerPlacer& layer0, RefusedRoutes& refused, const std::atomic<bool>& capped,
                     const std::atomic<bool>& failed, std::size_t s, std::size_t d) {
  if (capped.load(std::memory_order_relaxed) || failed.load(std::memory_order_relaxed)) return;
  if (layer0.place(s, d) != 0) refused.push(s, d);
}

// Whether layer 0's placing on its guessed length stands, decided once by
// whichever thread first sees every unit surveyed (the guess is set before
// layer 0 places anything, so deciding waits at most for that).
class GuessVerdict {
 public:
  void set_guess(unsigned guess) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      guess_ = static_cast<int>(guess);
    }
    changed_.notify_all();
  }
  // After every unit is surveyed: true when the guess was 0 (nothing
  // placed) or the longest length; sets paths.lengths. False once abandoned.
  bool decide(const SurveyUnits& units, PathTable& paths) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return guess_ >= 0 || abandoned_; });
    if (abandoned_) return false;
    if (stands_ < 0) {
      paths.lengths = units.lengths();
      stands_ = guess_ == 0 ||
                (!paths.lengths.empty() && paths.lengths.back() == static_cast<unsigned>(guess_));
    }
    return stands_ == 1;
  }
  bool wrong() {
    std::lock_guard<std::mutex> lock(mutex_);
    return stands_ == 0;
  }
  void abandon() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      abandoned_ = true;
    }
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int guess_ = -1, stands_ = -1;
  bool abandoned_ = false;
};

}  // namespace

FirstFitResult first_fit(const FirstFitInput& in, PathTable& paths, LayerOptions::Order order,
                         unsigned cap, unsigned threads) {
  FirstFitResult result;
  const std::size_t ns = paths.sources;
  if (threads < 2 || cap < 2) {
    std::fill(paths.layer.begin(), paths.layer.end(), std::uint8_t{0});  // not set yet
    LayerPlacer all(in, 0, cap);
    paths.for_each(order, [&](std::size_t s, std::size_t d) {
      if (result.capped) return;
      const unsigned l = all.place(s, d);
      if (l == kRefused)
        result.capped = true;
      else
        paths.layer[d * ns + s] = static_cast<std::uint8_t>(l);
    });
    return finish(std::move(result), in, {&all});
  }
  // Each thread builds its placer (zeroes its marks) itself: the rest's
  // while layer 0 places its first routes.
  std::optional<LayerPlacer> layer0, rest;
  RefusedRoutes refused;
  std::atomic<bool> capped{false}, failed{false};
  const auto stop = [&] {  // either thread failed: the other stops too
    failed.store(true, std::memory_order_relaxed);
    refused.abandon();
  };
  parallel::run_workers(
      2,
      [&](unsigned worker) {
        if (worker == 1) {
          place_refused(in, paths, cap, refused, rest, capped);
          return;
        }
        layer0.emplace(in, 0, 1);
        paths.for_each(order, [&](std::size_t s, std::size_t d) {
          place_in_layer0(*layer0, refused, capped, failed, s, d);
        });
        refused.close();  // if anything above throws, stop() abandons instead
      },
      stop);
  result.capped = capped.load();
  return finish(std::move(result), in, {&*layer0, &*rest});
}

std::optional<FirstFitResult> first_fit_surveying(const FirstFitInput& in, PathTable& paths,
                                                  const SurveyUnits& units, unsigned cap) {
  std::optional<LayerPlacer> layer0, rest;
  RefusedRoutes refused;
  GuessVerdict verdict;
  std::atomic<bool> capped{false}, failed{false};
  // Unit 0 is worker 0's: layer 0's guess comes from it, the same whatever
  // the scheduling. The others are taken in order.
  std::atomic<std::size_t> next_unit{1}, units_done{0};
  const std::vector<std::size_t>& unit_begin = *units.unit_begin;
  const std::size_t count = unit_begin.size() - 1;  // units
  std::vector<std::atomic<bool>> done(count);       // per unit, false until surveyed
  parallel::FirstError survey_error;
  const auto stop = [&] {  // either thread failed: the other stops too
    failed.store(true, std::memory_order_relaxed);
    refused.abandon();
    verdict.abandon();
  };
  // Surveys unit u; false if that failed.
  const auto survey = [&](std::size_t u, unsigned worker) {
    try {
      parallel::task_fault_point();
      units.survey(u, worker);
    } catch (...) {
      survey_error.record(u);
      stop();
      return false;
    }
    done[u].store(true, std::memory_order_release);
    units_done.fetch_add(1, std::memory_order_acq_rel);
    return true;
  };
  // Surveys the next unit nobody took yet; false when none is left or
  // anything failed. Units are taken in order and unit 0 is always
  // surveyed: when one fails, every lower one is done or under way, so the
  // lowest failure is the one parallel_for reports.
  const auto survey_next = [&](unsigned worker) {
    if (failed.load(std::memory_order_relaxed)) return false;
    const std::size_t u = next_unit.fetch_add(1);
    return u < count && survey(u, worker);
  };
  // Helps until every unit is surveyed; false if anything failed.
  const auto survey_all = [&](unsigned worker) {
    while (survey_next(worker)) {
    }
    while (units_done.load(std::memory_order_acquire) < count) {
      if (failed.load(std::memory_order_relaxed)) return false;
      std::this_thread::yield();
    }
    return !failed.load(std::memory_order_relaxed);
  };
  const auto into_layer0 = [&](std::size_t s, std::size_t d) {
    place_in_layer0(*layer0, refused, capped, failed, s, d);
  };
  parallel::run_workers(
      2,
      [&](unsigned worker) {
        if (worker == 1) {
          if (survey_all(1) && verdict.decide(units, paths))
            place_refused(in, paths, cap, refused, rest, capped);
          return;
        }
        layer0.emplace(in, 0, 1);
        if (count > 0) survey(0, 0);
        const unsigned guess = units.longest(0);
        verdict.set_guess(guess);
        if (guess != 0)
          for (std::size_t d = 0, u = 0; d < paths.dests; ++d) {
            while (unit_begin[u + 1] <= d) ++u;
            // Its unit surveyed: by this thread if nobody took it yet.
            while (!done[u].load(std::memory_order_acquire)) {
              if (failed.load(std::memory_order_relaxed)) return;
              if (!survey_next(0)) std::this_thread::yield();
            }
            paths.for_each_of_length(static_cast<std::uint8_t>(guess), d, into_layer0);
          }
        if (!survey_all(0) || !verdict.decide(units, paths)) return;
        for (std::size_t k = paths.lengths.size(); k-- > 0;) {
          const auto len = static_cast<std::uint8_t>(paths.lengths[k]);
          if (len == guess) continue;  // placed already
          for (std::size_t d = 0; d < paths.dests; ++d)
            paths.for_each_of_length(len, d, into_layer0);
        }
        refused.close();  // if anything above throws, stop() abandons instead
      },
      stop);
  survey_error.rethrow_if_failed();
  if (verdict.wrong()) return std::nullopt;
  FirstFitResult result;
  result.capped = capped.load();
  return finish(std::move(result), in, {&*layer0, &*rest});
}

}  // namespace psssp::deadlock
