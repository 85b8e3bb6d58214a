#include "worker_team.h"

namespace psssp::routing {

WorkerTeam::WorkerTeam(unsigned threads) : threads_(threads < 1 ? 1 : threads) {
  for (unsigned id = 1; id < threads_; ++id) helpers_.emplace_back([this] { helper(); });
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
  (*task_.load(std::memory_order_relaxed))(next_of(t));
  done_.fetch_add(1, std::memory_order_acq_rel);
  return true;
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
}

}  // namespace psssp::routing
