// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "progress_line.h"

#include <chrono>
#include <cstdio>

namespace psssp::sim {

ProgressLine::ProgressLine(std::string label, std::uint64_t total, bool enabled)
    : label_(std::move(label)), total_(total) {
  if (enabled) thread_ = std::thread([this] { loop(); });
}

ProgressLine::~ProgressLine() {
  {
    std::lock_guard<std::mutex> lock(m_);
    done_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ProgressLine::loop() {
  const auto start = std::chrono::steady_clock::now();
  bool shown = false;
  std::unique_lock<std::mutex> lock(m_);
  while (!cv_.wait_for(lock, std::chrono::milliseconds(200), [this] { return done_; })) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed < 1.0) continue;
    std::fprintf(stderr, "\r%s: %llu/%llu runs, %.0f s", label_.c_str(),
                 static_cast<unsigned long long>(count.load()),
                 static_cast<unsigned long long>(total_), elapsed);
    shown = true;
  }
  if (shown) std::fprintf(stderr, "\r%60s\r", "");
}

}  // namespace psssp::sim
