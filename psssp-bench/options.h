// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// psssp-bench's options (psssp-bench(1)); every rank parses the same command
// line, so every rank holds the same values.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace psssp::bench {

struct BenchOptions {
  std::string fabric, lids, routes, map;  // empty: not given
  std::string sysfs = "/sys/class/infiniband";
  std::string hca;  // DEV or DEV:PORT; empty: first active port
  std::string pattern = "bisect";
  std::uint64_t runs = 0;  // 0: 1000 for random patterns, else one per phase
  std::uint64_t seed = 1;
  std::uint64_t bytes = 4u << 20;        // message size
  std::uint64_t iterations = 16;         // timed messages per flow and run
  std::uint64_t warmup = 2;              // untimed runs before run 0
  double time_limit = 0;                 // seconds for everything; 0: none
  std::string json, csv, dump_patterns;  // output files ("-": standard output)
};

constexpr std::uint64_t kDefaultRandomRuns = 1000;
constexpr std::uint64_t kMaxRuns = 1000000;
constexpr std::uint64_t kMaxBytes = 1u << 30;
constexpr std::uint64_t kMaxIterations = 1u << 20;
constexpr unsigned kReferenceRepeats = 3;  // the reference is the best of these

// "4M", "512K", "1G" (binary multiples), "65536"; throws cli::UsageError
// naming `option` on junk or outside 1..kMaxBytes.
std::uint64_t parse_size(const std::string& option, const std::string& text);

// "4 MiB", "512 KiB", "100 B".
std::string size_text(std::uint64_t bytes);

void define_options(CLI::App& app, BenchOptions& o);

// Option combinations CLI11 cannot express; throws cli::UsageError.
void check_options(const BenchOptions& o);

}  // namespace psssp::bench
