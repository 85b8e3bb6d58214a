// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "parallel/run_workers.h"

#include <gtest/gtest.h>
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "parallel/fault_injection.h"
#include "parallel/thread_count.h"
#include "parallel/worker_team.h"

namespace psssp::parallel {
namespace {

struct TaskFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

TEST(ThreadCount, ZeroMeansEveryCoreAndRequestsAreCapped) {
  EXPECT_GE(effective_threads(0), 1u);
  EXPECT_EQ(effective_threads(3), 3u);
  EXPECT_EQ(effective_threads(100000), kMaxThreads);
}

TEST(RunWorkers, EveryWorkerRunsOnce) {
  for (unsigned count : {1u, 2u, 7u}) {
    std::vector<std::atomic<int>> runs(count);
    run_workers(count, [&](unsigned w) { runs[w].fetch_add(1); });
    for (unsigned w = 0; w < count; ++w) EXPECT_EQ(runs[w].load(), 1) << w;
  }
}

TEST(RunWorkers, OnFailureLetsAWaitingWorkerStop) {
  // Both workers wait for a signal; the first to start fails as it starts
  // (the fault seam: before its first line). on_failure gives the signal,
  // so the other stops waiting; the failure is rethrown once both have
  // returned.
  std::atomic<bool> go{false};
  std::atomic<int> calls{0};
  arm_task_fault(1);  // the first task started: worker 0's or worker 1's
  bool threw = false;
  try {
    run_workers(
        2,
        [&](unsigned) {
          while (!go.load()) std::this_thread::yield();
        },
        [&] {
          ++calls;
          go.store(true);
        });
  } catch (const std::bad_alloc&) {
    threw = true;
  }
  arm_task_fault(0);
  EXPECT_TRUE(threw);
  EXPECT_EQ(calls.load(), 1);
}

// A throw at slice k, for k on the caller and on a helper: the caller gets
// it after all slices finished, and every other slice's work is complete.
TEST(ParallelSlices, ThrowAtSliceKIsRethrownOnTheCaller) {
  constexpr std::size_t kItems = 1000;
  for (unsigned thrower : {0u, 1u, 3u}) {
    std::vector<int> done(kItems, 0);
    // Owned memory in the throwing frame: ASan reports a leak if unwinding
    // across the fence were skipped.
    auto body = [&](std::size_t begin, std::size_t end, unsigned slice) {
      auto scratch = std::make_unique<std::vector<int>>(end - begin, 1);
      if (slice == thrower) throw TaskFailed("slice " + std::to_string(slice));
      for (std::size_t i = begin; i < end; ++i) done[i] = (*scratch)[i - begin];
    };
    try {
      parallel_slices(kItems, 4, body);
      FAIL() << "no exception for slice " << thrower;
    } catch (const TaskFailed& e) {
      EXPECT_EQ(std::string(e.what()), "slice " + std::to_string(thrower));
    }
    for (std::size_t i = 0; i < kItems; ++i) {
      const bool in_thrower = i >= kItems * thrower / 4 && i < kItems * (thrower + 1) / 4;
      EXPECT_EQ(done[i], in_thrower ? 0 : 1) << "item " << i << " thrower " << thrower;
    }
  }
}

TEST(ParallelSlices, LowestFailingSliceWins) {
  try {
    parallel_slices(8, 4, [](std::size_t, std::size_t, unsigned slice) {
      if (slice >= 1) throw TaskFailed(std::to_string(slice));
    });
    FAIL();
  } catch (const TaskFailed& e) {
    EXPECT_STREQ(e.what(), "1");
  }
}

TEST(ParallelFor, ThrowAtIndexKStopsNewTasksAndRethrows) {
  for (std::size_t k : {std::size_t{0}, std::size_t{5}, std::size_t{999}}) {
    std::atomic<std::size_t> ran{0};
    try {
      parallel_for(1000, 3, [&](std::size_t i, unsigned) {
        ran.fetch_add(1);
        if (i == k) throw std::bad_alloc();
      });
      FAIL() << k;
    } catch (const std::bad_alloc&) {
    }
    EXPECT_GE(ran.load(), 1u);
    EXPECT_LE(ran.load(), 1000u);
  }
}

TEST(ParallelFor, EveryIndexOnceWithoutFailure) {
  for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{257}}) {
    std::vector<std::atomic<int>> runs(count);
    parallel_for(count, 4, [&](std::size_t i, unsigned w) {
      EXPECT_LT(w, 4u);
      runs[i].fetch_add(1);
    });
    for (std::size_t i = 0; i < count; ++i) EXPECT_EQ(runs[i].load(), 1);
  }
}

TEST(RunWorkers, ManyWorkersAllRun) {
  std::atomic<unsigned> sum{0};
  run_workers(kMaxThreads, [&](unsigned w) { sum.fetch_add(w + 1); });
  EXPECT_EQ(sum.load(), kMaxThreads * (kMaxThreads + 1) / 2);
}

// Makes every later pthread_create fail (a 1 TiB default stack cannot be
// mapped), then checks that the work still gets done, on the caller.
void run_without_threads() {
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) std::exit(3);
  if (pthread_attr_setstacksize(&attr, std::size_t{1} << 40) != 0) std::exit(3);
  if (pthread_setattr_default_np(&attr) != 0) std::exit(3);
  try {
    std::thread probe([] {});
    probe.join();
    std::exit(4);  // threads still start: the test would prove nothing
  } catch (const std::system_error&) {
  }
  std::vector<int> done(64, 0);
  parallel_slices(done.size(), 8, [&](std::size_t begin, std::size_t end, unsigned) {
    for (std::size_t i = begin; i < end; ++i) done[i] = 1;
  });
  std::atomic<int> tasks{0};
  parallel_for(100, 8, [&](std::size_t, unsigned) { tasks.fetch_add(1); });
  WorkerTeam team(8);
  team.run_each(10, [&](std::uint32_t) { tasks.fetch_add(1); });
  const bool all =
      std::count(done.begin(), done.end(), 1) == 64 && tasks.load() == 110 && team.size() == 1;
  std::exit(all ? 0 : 5);
}

TEST(RunWorkersDeathTest, ThreadsThatCannotStartRunOnTheCaller) {
  GTEST_FLAG_SET(death_test_style, "fast");
  EXPECT_EXIT(run_without_threads(), ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace psssp::parallel
