// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "parallel/worker_team.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <new>
#include <stdexcept>
#include <vector>

namespace psssp::parallel {
namespace {

// Many small batches of every awkward size on a persistent team: each task
// runs exactly once per batch, batch after batch (a stale ticket or a lost
// wake-up shows as a wrong count or a hang).
TEST(WorkerTeam, StressManySmallBatches) {
  for (unsigned threads : {1u, 2u, 4u}) {
    WorkerTeam team(threads);
    std::vector<std::atomic<int>> runs(64);
    for (int round = 0; round < 2000; ++round) {
      const std::uint32_t count = static_cast<std::uint32_t>(round % 5 == 0 ? 0 : round % 64);
      for (auto& r : runs) r.store(0);
      team.run_each(count, [&](std::uint32_t i) { runs[i].fetch_add(1); });
      for (std::uint32_t i = 0; i < 64; ++i)
        ASSERT_EQ(runs[i].load(), i < count ? 1 : 0) << "round " << round << " task " << i;
    }
  }
}

TEST(WorkerTeam, BatchLargerThanTheTicketField) {
  WorkerTeam team(2);
  const std::uint32_t count = 70000;  // above the 16-bit batch size
  std::vector<std::atomic<std::uint8_t>> runs(count);
  team.run_each(count, [&](std::uint32_t i) { runs[i].fetch_add(1); });
  for (std::uint32_t i = 0; i < count; ++i) ASSERT_EQ(runs[i].load(), 1) << i;
}

// A throw at task k, whichever thread runs it: rethrown on the caller after
// the started tasks returned, unstarted ones skipped, and the team still
// works for the next batch.
TEST(WorkerTeam, ThrowAtTaskKIsRethrownAndTheTeamStaysUsable) {
  WorkerTeam team(3);
  for (std::uint32_t k : {0u, 1u, 17u, 99u}) {
    std::atomic<int> running{0}, overlap_after_return{0};
    try {
      team.run_each(100, [&](std::uint32_t i) {
        running.fetch_add(1);
        auto owned = std::make_unique<int>(static_cast<int>(i));  // freed by unwinding
        if (i == k) {
          running.fetch_sub(1);
          throw std::runtime_error("task " + std::to_string(*owned));
        }
        running.fetch_sub(1);
      });
      FAIL() << "no exception for task " << k;
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), "task " + std::to_string(k));
    }
    // No task of the failed batch may still run once run_each returned.
    overlap_after_return.store(running.load());
    EXPECT_EQ(overlap_after_return.load(), 0);
    std::atomic<int> next_batch{0};
    team.run_each(50, [&](std::uint32_t) { next_batch.fetch_add(1); });
    EXPECT_EQ(next_batch.load(), 50);
  }
}

TEST(WorkerTeam, BadAllocInAHelperReachesTheCaller) {
  WorkerTeam team(2);
  std::atomic<int> thrown{0};
  EXPECT_THROW(team.run_each(1000,
                             [&](std::uint32_t i) {
                               if (i % 7 == 3) {
                                 thrown.fetch_add(1);
                                 throw std::bad_alloc();
                               }
                             }),
               std::bad_alloc);
  EXPECT_GE(thrown.load(), 1);
}

}  // namespace
}  // namespace psssp::parallel
