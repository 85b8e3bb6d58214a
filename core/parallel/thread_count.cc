// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "thread_count.h"

#include <algorithm>
#include <thread>

namespace psssp::parallel {

unsigned effective_threads(unsigned requested) {
  const unsigned wanted = requested != 0 ? requested : std::thread::hardware_concurrency();
  return std::clamp(wanted, 1u, kMaxThreads);
}

}  // namespace psssp::parallel
