// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The parts of the command-line rules (cli/command_line.h) that need no
// CLI11: exit statuses, the errors that map to them, bounded numbers and
// threads. Code that only throws or parses includes this header, so it does
// not compile CLI11's header-only library again.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace psssp::cli {

constexpr int kExitOk = 0;
constexpr int kExitCheckFailed = 1;  // the command ran and its verdict is "no"
constexpr int kExitError = 2;        // usage, input or output error: no verdict

// Bad or conflicting options, found while or after parsing. Printed with a
// pointer to --help.
class UsageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A verdict of "no" that is found by throwing (exit status 1).
class CheckFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "PROGRAM VERSION", what --version prints.
std::string version_line(const std::string& program);

// Decimal or 0x-hex digits only, within [min, max]; otherwise throws
// UsageError naming `option` and the accepted range.
std::uint64_t parse_uint(const std::string& option, const std::string& text, std::uint64_t min,
                         std::uint64_t max);

// --threads N: worker threads, 0 (the default) = one per core.
constexpr unsigned kMaxThreads = 1024;
unsigned resolve_threads(unsigned threads);  // 0 -> the number of cores (at least 1)

// Flushes standard output; throws std::runtime_error if anything written to
// it was lost (a full disk, a closed pipe).
void flush_stdout();

}  // namespace psssp::cli
