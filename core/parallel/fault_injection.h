// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// A test seam for the exception fence: once armed, the n-th task started by
// any parallel step throws std::bad_alloc on whichever thread runs it, as a
// real allocation failure would. Off unless armed; only the test build of
// the OpenSM plugin (libpsssp_faultinject.so) and unit tests arm it.
#pragma once

#include <cstdint>

namespace psssp::parallel {

// The n-th task from now (1 = the next) throws; 0 disarms.
void arm_task_fault(std::uint64_t n);
// Called at the start of every task: one relaxed load while disarmed.
void task_fault_point();

}  // namespace psssp::parallel
