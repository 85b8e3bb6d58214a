// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "first_error.h"

namespace psssp::parallel {

void FirstError::record(std::size_t index) noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!error_ || index < index_) {
    error_ = std::current_exception();
    index_ = index;
  }
  failed_.store(true, std::memory_order_release);
}

void FirstError::rethrow_if_failed() {
  if (failed()) std::rethrow_exception(error_);
}

void FirstError::reset() noexcept {
  error_ = nullptr;
  index_ = 0;
  failed_.store(false, std::memory_order_release);
}

}  // namespace psssp::parallel
