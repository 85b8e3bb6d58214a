#include "layer_team.h"

#include <algorithm>

namespace psssp::routing {

LayerTeam::LayerTeam(unsigned threads) : threads_(threads < 1 ? 1 : threads) {
  for (unsigned id = 1; id < threads_; ++id) helpers_.emplace_back([this] { helper(); });
}

LayerTeam::~LayerTeam() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_.store(true);
  }
  wake_.notify_all();
  for (auto& t : helpers_) t.join();
}

bool LayerTeam::run_one_chunk() {
  std::uint64_t t = ticket_.load(std::memory_order_acquire);
  for (;;) {
    if (next_of(t) >= chunks_of(t)) return false;
    // Only a ticket of the current layer can be advanced: a stale one (the
    // layer finished and a new one was published meanwhile) fails here.
    if (ticket_.compare_exchange_weak(t, t + 1, std::memory_order_acq_rel,
                                      std::memory_order_acquire))
      break;
  }
  const std::uint32_t begin = begin_.load(std::memory_order_relaxed);
  const std::uint32_t end = end_.load(std::memory_order_relaxed);
  const std::uint32_t chunk = chunk_.load(std::memory_order_relaxed);
  const std::uint32_t from = begin + next_of(t) * chunk;
  (*work_.load(std::memory_order_relaxed))(from, std::min(end, from + chunk));
  done_.fetch_add(1, std::memory_order_acq_rel);
  return true;
}

void LayerTeam::helper() {
  for (;;) {
    for (unsigned spins = 0; spins < 4000; ++spins) {
      if (stop_.load(std::memory_order_acquire)) return;
      if (run_one_chunk()) spins = 0;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    sleepers_.fetch_add(1);
    // seq_cst on both sides: either the caller sees the sleeper (and
    // notifies under the mutex) or this predicate sees the new ticket.
    wake_.wait(lock, [&] {
      const std::uint64_t t = ticket_.load();
      return stop_.load() || next_of(t) < chunks_of(t);
    });
    sleepers_.fetch_sub(1);
  }
}

void LayerTeam::parallel_layer(const Work& work, std::uint32_t begin, std::uint32_t end) {
  const std::uint32_t size = end - begin;
  const std::uint32_t chunk =
      std::max(kMinChunk, (size + threads_ * kChunksPerThread - 1) / (threads_ * kChunksPerThread));
  const std::uint32_t chunks = (size + chunk - 1) / chunk;
  work_.store(&work, std::memory_order_relaxed);
  begin_.store(begin, std::memory_order_relaxed);
  end_.store(end, std::memory_order_relaxed);
  chunk_.store(chunk, std::memory_order_relaxed);
  done_.store(0, std::memory_order_relaxed);
  ++serial_;
  ticket_.store(ticket(serial_, chunks, 0));  // seq_cst: see helper()
  if (sleepers_.load() > 0) {
    std::lock_guard<std::mutex> lock(mutex_);
    wake_.notify_all();
  }
  while (run_one_chunk()) {
  }
  // Only chunks a helper has started can be outstanding.
  for (unsigned spins = 0; done_.load(std::memory_order_acquire) != chunks; ++spins)
    if (spins > 2000) std::this_thread::yield();
}

void LayerTeam::run_layers(const std::uint16_t* hops, const std::uint16_t* order,
                           std::uint32_t reached, const Work& work, const AfterLayer& after_layer) {
  std::uint32_t previous = 0;
  for (std::uint32_t begin = 1; begin < reached;) {
    std::uint32_t end = begin + 1;
    while (end < reached && hops[order[end]] == hops[order[begin]]) ++end;
    if (threads_ > 1 && end - begin >= kMinParallelLayer)
      parallel_layer(work, begin, end);
    else
      work(begin, end);
    // Nothing reads the last layer's step (path ranks of its next layer).
    if (after_layer && end < reached) after_layer(previous, begin, end);
    previous = begin;
    begin = end;
  }
}

}  // namespace psssp::routing
