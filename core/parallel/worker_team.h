// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
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
//
// A task that throws cancels the tasks of its batch not yet started; run_each
// waits for the started ones and rethrows the exception of the lowest failed
// index on the caller (first_error.h), so helpers never outlive the frame
// their task captured and nothing reaches std::terminate.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "first_error.h"

namespace psssp::parallel {

class WorkerTeam {
 public:
  using Task = std::function<void(std::uint32_t index)>;

  // `threads` counts the caller; helpers that cannot be started (a process
  // or system limit) are left out and the team is smaller.
  explicit WorkerTeam(unsigned threads);
  ~WorkerTeam();
  WorkerTeam(const WorkerTeam&) = delete;
  WorkerTeam& operator=(const WorkerTeam&) = delete;

  unsigned size() const { return threads_; }
  // Runs task(0) .. task(count - 1), on the calling thread and the helpers;
  // returns when all are done, or rethrows what a task threw once every
  // started task has returned.
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

  // A batch's task count must fit the ticket's 16-bit field.
  static constexpr std::uint32_t kMaxBatch = 0xFFFFu;

  void run_batch(std::uint32_t first, std::uint32_t count, const Task& task);
  // Takes and runs one task of the current batch; false if none is left.
  bool run_one();
  // After a failure: marks the batch's unstarted tasks as done, unrun.
  void cancel_unstarted();
  void helper();

  unsigned threads_;
  std::vector<std::thread> helpers_;
  // The published batch; written by the caller before the ticket is stored
  // and stable until every task is done.
  std::atomic<const Task*> task_{nullptr};
  std::atomic<std::uint64_t> ticket_{0};
  std::atomic<std::uint32_t> done_{0};
  std::uint32_t first_index_ = 0;  // index of the batch's task 0 in run_each's range
  FirstError error_;
  std::uint64_t serial_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<unsigned> sleepers_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
};

}  // namespace psssp::parallel
