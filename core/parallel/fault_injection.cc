// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "fault_injection.h"

#include <atomic>
#include <new>

namespace psssp::parallel {
namespace {

std::atomic<std::uint64_t> tasks_until_fault{0};

}  // namespace

void arm_task_fault(std::uint64_t n) { tasks_until_fault.store(n); }

void task_fault_point() {
  std::uint64_t left = tasks_until_fault.load(std::memory_order_relaxed);
  while (left != 0) {
    if (tasks_until_fault.compare_exchange_weak(left, left - 1)) {
      if (left == 1) throw std::bad_alloc();
      return;
    }
  }
}

}  // namespace psssp::parallel
