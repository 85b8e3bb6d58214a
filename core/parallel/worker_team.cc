// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "worker_team.h"

#include <algorithm>
#include <cassert>

#include "fault_injection.h"

namespace psssp::parallel {

WorkerTeam::WorkerTeam(unsigned threads) : threads_(1) {
  for (unsigned id = 1; id < threads; ++id) {
    try {
      helpers_.emplace_back([this] { helper(); });
    } catch (...) {  // std::system_error (thread limit) or bad_alloc: a smaller team
      break;
    }
  }
  threads_ = static_cast<unsigned>(helpers_.size()) + 1;
}

WorkerTeam::~WorkerTeam() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_.store(true);
  }
  wake_.notify_all();
  for (auto& t : helpers_) t.join();
}

bool WorkerTeam::run_one() {
  std::uint64_t t = ticket_.load(std::memory_order_acquire);
  for (;;) {
    if (next_of(t) >= count_of(t)) return false;
    // Only a ticket of the current batch can be advanced: a stale one (the
    // batch finished and a new one was published meanwhile) fails here.
    if (ticket_.compare_exchange_weak(t, t + 1, std::memory_order_acq_rel,
                                      std::memory_order_acquire))
      break;
  }
  const std::uint32_t index = next_of(t);
  try {
    task_fault_point();
    (*task_.load(std::memory_order_relaxed))(first_index_ + index);
  } catch (...) {
    error_.record(index);
    cancel_unstarted();
  }
  done_.fetch_add(1, std::memory_order_acq_rel);
  return true;
}

void WorkerTeam::cancel_unstarted() {
  std::uint64_t t = ticket_.load(std::memory_order_acquire);
  while (next_of(t) < count_of(t)) {
    const std::uint32_t skipped = count_of(t) - next_of(t);
    if (ticket_.compare_exchange_weak(t, t + skipped, std::memory_order_acq_rel,
                                      std::memory_order_acquire)) {
      done_.fetch_add(skipped, std::memory_order_acq_rel);
      return;
    }
  }
}

namespace {

// Tells the core it is spinning: a hyperthread sibling gets the pipeline.
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

}  // namespace

void WorkerTeam::helper() {
  for (;;) {
    for (unsigned spins = 0; spins < 4000; ++spins) {
      if (stop_.load(std::memory_order_acquire)) return;
      if (run_one())
        spins = 0;
      else
        cpu_relax();
    }
    std::unique_lock<std::mutex> lock(mutex_);
    sleepers_.fetch_add(1);
    // seq_cst on both sides: either the caller sees the sleeper (and
    // notifies under the mutex) or this predicate sees the new ticket.
    wake_.wait(lock, [&] {
      const std::uint64_t t = ticket_.load();
      return stop_.load() || next_of(t) < count_of(t);
    });
    sleepers_.fetch_sub(1);
  }
}

void WorkerTeam::run_each(std::uint32_t count, const Task& task) {
  if (threads_ <= 1 || count <= 1) {
    for (std::uint32_t i = 0; i < count; ++i) task(i);
    return;
  }
  for (std::uint32_t first = 0; first < count; first += std::min(count - first, kMaxBatch))
    run_batch(first, std::min(count - first, kMaxBatch), task);
}

void WorkerTeam::run_batch(std::uint32_t first, std::uint32_t count, const Task& task) {
  assert(count <= kMaxBatch && "a batch's task count must fit the ticket's 16-bit field");
  error_.reset();
  first_index_ = first;
  task_.store(&task, std::memory_order_relaxed);
  done_.store(0, std::memory_order_relaxed);
  ++serial_;
  ticket_.store(ticket(serial_, count, 0));  // seq_cst: see helper()
  if (sleepers_.load() > 0) {
    std::lock_guard<std::mutex> lock(mutex_);
    wake_.notify_all();
  }
  while (run_one()) {
  }
  // Only tasks a helper has started can be outstanding.
  for (unsigned spins = 0; done_.load(std::memory_order_acquire) != count; ++spins)
    if (spins > 2000)
      std::this_thread::yield();
    else
      cpu_relax();
  error_.rethrow_if_failed();
}

}  // namespace psssp::parallel
