// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// "LABEL: N/R runs" on stderr, rewritten in place every 200 ms once a second
// has passed, while a long computation counts its finished runs in `count`;
// the line is wiped when the object goes. Only when stderr is a terminal.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace psssp::sim {

class ProgressLine {
 public:
  ProgressLine(std::string label, std::uint64_t total, bool enabled);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  std::atomic<std::uint64_t> count{0};

 private:
  void loop();
  std::string label_;
  std::uint64_t total_;
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace psssp::sim
