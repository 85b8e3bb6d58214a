#include "layer_team.h"

namespace psssp::routing {
namespace {

// Busy-wait briefly (the next job is usually microseconds away), then yield
// so that oversubscribed machines still make progress.
template <typename Ready>
void spin_until(Ready ready) {
  for (unsigned spins = 0; !ready(); ++spins)
    if (spins > 2000) std::this_thread::yield();
}

}  // namespace

LayerTeam::LayerTeam(unsigned threads) : threads_(threads < 1 ? 1 : threads) {
  for (unsigned id = 1; id < threads_; ++id) workers_.emplace_back([this, id] { worker(id); });
}

LayerTeam::~LayerTeam() {
  wait_for_workers();
  stop_.store(true, std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  for (auto& t : workers_) t.join();
}

void LayerTeam::barrier() {
  const std::uint64_t round = barrier_round_.load(std::memory_order_acquire);
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads_) {
    arrived_.store(0, std::memory_order_relaxed);
    barrier_round_.fetch_add(1, std::memory_order_acq_rel);
  } else {
    spin_until([&] { return barrier_round_.load(std::memory_order_acquire) != round; });
  }
}

// The schedule is a pure function of bounds_ and threads_, so every thread
// meets the same barriers.
void LayerTeam::execute(unsigned id) {
  bool previous_parallel = true;
  std::uint32_t previous = 0;
  for (std::size_t l = 0; l + 1 < bounds_.size(); ++l) {
    const std::uint32_t begin = bounds_[l], end = bounds_[l + 1];
    const bool parallel = threads_ > 1 && end - begin >= kMinParallelLayer;
    if (parallel) {
      if (!previous_parallel) barrier();  // thread 0 finished the serial steps
      const std::uint64_t size = end - begin;
      const auto from = static_cast<std::uint32_t>(begin + size * id / threads_);
      const auto to = static_cast<std::uint32_t>(begin + size * (id + 1) / threads_);
      if (from < to) (*work_)(from, to);
      barrier();
    } else if (id == 0) {
      (*work_)(begin, end);
    }
    previous_parallel = parallel;
    // Nothing reads the last layer's step (path ranks of its next layer).
    if (*after_ && l + 2 < bounds_.size()) {
      if (id == 0) (*after_)(previous, begin, end);
      previous_parallel = false;
    }
    previous = begin;
  }
}

void LayerTeam::worker(unsigned id) {
  std::uint64_t seen = 0;
  for (;;) {
    spin_until([&] { return generation_.load(std::memory_order_acquire) != seen; });
    seen = generation_.load(std::memory_order_acquire);
    if (stop_.load(std::memory_order_acquire)) return;
    execute(id);
    finished_.fetch_add(1, std::memory_order_acq_rel);
  }
}

// A job's bounds_ may only change once every worker is through it (a worker
// can still be walking the serial tail of the previous job).
void LayerTeam::wait_for_workers() {
  if (!published_) return;
  spin_until([&] { return finished_.load(std::memory_order_acquire) == threads_ - 1; });
  finished_.store(0, std::memory_order_relaxed);
  published_ = false;
}

void LayerTeam::run_layers(const std::uint16_t* hops, const std::uint16_t* order,
                           std::uint32_t reached, const Work& work, const AfterLayer& after_layer) {
  wait_for_workers();
  bounds_.clear();
  for (std::uint32_t i = 1; i < reached; ++i)
    if (i == 1 || hops[order[i]] != hops[order[i - 1]]) bounds_.push_back(i);
  bounds_.push_back(reached);
  work_ = &work;
  after_ = &after_layer;
  if (threads_ == 1) {
    execute(0);
    return;
  }
  published_ = true;
  generation_.fetch_add(1, std::memory_order_acq_rel);
  execute(0);
  // If the last layer was serial, the workers may still be spinning towards
  // the next job: nothing to wait for. If it was parallel, its barrier has
  // already synchronised everybody.
}

}  // namespace psssp::routing
