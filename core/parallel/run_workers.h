// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The core's one way to run work on several threads. Whatever a worker
// throws (bad_alloc while building tables, an input error) is caught on its
// thread, every thread is joined, and the exception is rethrown on the
// caller: nothing ever reaches std::terminate, which inside OpenSM would take
// the subnet manager down.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>

#include "fault_injection.h"
#include "first_error.h"

namespace psssp::parallel {

// Runs worker(0) .. worker(count - 1): worker 0 on the calling thread, the
// others on threads of their own; returns when all have returned. If a thread
// cannot be started (a process or system limit), its worker runs on the
// calling thread afterwards: the work is done, on fewer threads. If workers
// throw, the exception of the lowest worker index is rethrown once every
// thread has been joined. Workers that wait on each other pass on_failure:
// it is called on a failing worker's thread as soon as that worker has
// failed (a worker can fail before its first line), so the others can stop
// waiting for it.
void run_workers(unsigned count, const std::function<void(unsigned worker)>& worker,
                 const std::function<void()>& on_failure = {});

// Calls body(begin, end, slice) on `threads` contiguous slices of [0, n)
// (fewer when n is small), so the work each thread does never depends on
// scheduling. Exceptions as in run_workers (lowest slice wins).
template <typename Body>
void parallel_slices(std::size_t n, unsigned threads, Body&& body) {
  const std::size_t slices = std::max<std::size_t>(1, std::min<std::size_t>(threads, n));
  if (slices == 1) {
    body(std::size_t{0}, n, 0u);
    return;
  }
  run_workers(static_cast<unsigned>(slices),
              [&](unsigned s) { body(n * s / slices, n * (s + 1) / slices, s); });
}

// Calls task(i, worker) for every i in [0, count) on up to `threads`
// threads that take the next index from a shared counter (results must not
// depend on which worker ran a task; `worker` selects per-thread scratch).
// After a task throws no new task starts, and the exception of the lowest
// failed index is rethrown once every thread has stopped.
template <typename Task>
void parallel_for(std::size_t count, unsigned threads, Task&& task) {
  const unsigned workers =
      static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(threads, count)));
  std::atomic<std::size_t> next{0};
  FirstError error;
  run_workers(workers, [&](unsigned w) {
    for (std::size_t i = next.fetch_add(1); i < count && !error.failed(); i = next.fetch_add(1)) {
      try {
        task_fault_point();
        task(i, w);
      } catch (...) {
        error.record(i);
      }
    }
  });
  error.rethrow_if_failed();
}

}  // namespace psssp::parallel
