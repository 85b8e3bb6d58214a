// Threads for the speculative refinement: a batch of independent tasks (one
// destination's search each) on persistent helpers. Task k always works on
// the k-th slot of its caller's data, so results never depend on which
// thread ran it or on the thread count.
//
// The calling thread never waits for a helper that is not working: it takes
// tasks itself from the same counter and only waits, at the end of a batch,
// for tasks a helper has already started. A helper that is descheduled (a
// machine shared with other jobs, or OpenSM's own threads) therefore costs
// at most one task, not a whole batch as with fixed slices and barriers.
// Idle helpers spin briefly, then sleep until the next batch is published.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace psssp::routing {

class WorkerTeam {
 public:
  using Task = std::function<void(std::uint32_t index)>;

  explicit WorkerTeam(unsigned threads);
  ~WorkerTeam();
  WorkerTeam(const WorkerTeam&) = delete;
  WorkerTeam& operator=(const WorkerTeam&) = delete;

  unsigned size() const { return threads_; }
  // Runs task(0) .. task(count - 1), on the calling thread and the helpers;
  // returns when all are done.
  void run_each(std::uint32_t count, const Task& task);

 private:
  // ticket_: batch serial (24 bits) | task count (16 bits) | next task (24 bits).
  static std::uint64_t ticket(std::uint64_t serial, std::uint64_t count, std::uint64_t next) {
    return (serial & 0xFFFFFFu) << 40 | count << 24 | next;
  }
  static std::uint32_t count_of(std::uint64_t t) {
    return static_cast<std::uint32_t>(t >> 24 & 0xFFFFu);
  }
  static std::uint32_t next_of(std::uint64_t t) {
    return static_cast<std::uint32_t>(t & 0xFFFFFFu);
  }

  // Takes and runs one task of the current batch; false if none is left.
  bool run_one();
  void helper();

  unsigned threads_;
  std::vector<std::thread> helpers_;
  // The published batch; written by the caller before the ticket is stored
  // and stable until every task is done.
  std::atomic<const Task*> task_{nullptr};
  std::atomic<std::uint64_t> ticket_{0};
  std::atomic<std::uint32_t> done_{0};
  std::uint64_t serial_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<unsigned> sleepers_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
};

}  // namespace psssp::routing
