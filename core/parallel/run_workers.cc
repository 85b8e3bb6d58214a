// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "run_workers.h"

#include <thread>
#include <vector>

#include "fault_injection.h"
#include "first_error.h"

namespace psssp::parallel {

namespace {

// Joins on every way out, so a throw between start and join cannot leave a
// joinable std::thread behind (its destructor would call std::terminate).
class JoinAll {
 public:
  explicit JoinAll(std::vector<std::thread>& threads) : threads_(threads) {}
  ~JoinAll() {
    for (std::thread& t : threads_)
      if (t.joinable()) t.join();
  }
  JoinAll(const JoinAll&) = delete;
  JoinAll& operator=(const JoinAll&) = delete;

 private:
  std::vector<std::thread>& threads_;
};

}  // namespace

void run_workers(unsigned count, const std::function<void(unsigned)>& worker,
                 const std::function<void()>& on_failure) {
  FirstError error;
  auto fenced = [&](unsigned w) noexcept {
    try {
      task_fault_point();
      worker(w);
    } catch (...) {
      error.record(w);
      try {
        if (on_failure) on_failure();
      } catch (...) {  // the worker's own failure is the one to report
      }
    }
  };
  {
    std::vector<std::thread> threads;
    JoinAll join(threads);
    // Threads start in order; from the first that cannot be started on, the
    // workers run here, after worker 0.
    unsigned first_unstarted = count;
    for (unsigned w = 1; w < count; ++w) {
      try {
        threads.emplace_back(fenced, w);
      } catch (...) {  // std::system_error from the thread, bad_alloc from the vector
        first_unstarted = w;
        break;
      }
    }
    fenced(0);
    for (unsigned w = first_unstarted; w < count; ++w) fenced(w);
  }
  error.rethrow_if_failed();
}

}  // namespace psssp::parallel
