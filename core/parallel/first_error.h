// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The exception fence of every parallel step: threads record what they
// caught, the caller rethrows it after all threads have stopped. Of several
// failures the one with the lowest index wins, so the error a user sees does
// not depend on scheduling.
#pragma once

#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>

namespace psssp::parallel {

class FirstError {
 public:
  // Call from a catch block: keeps the current exception if `index` is the
  // lowest failure so far. Never throws.
  void record(std::size_t index) noexcept;
  // True once any task failed: workers stop taking new tasks.
  bool failed() const noexcept { return failed_.load(std::memory_order_acquire); }
  // On the caller, after every thread has been joined.
  void rethrow_if_failed();
  // Forgets a failure, for the next batch; only while no task runs.
  void reset() noexcept;

 private:
  std::atomic<bool> failed_{false};
  std::mutex mutex_;
  std::size_t index_ = 0;
  std::exception_ptr error_;
};

}  // namespace psssp::parallel
