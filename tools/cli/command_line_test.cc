// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "cli/command_line.h"

#include <gtest/gtest.h>

#include <limits>

namespace psssp::cli {
namespace {

constexpr std::uint64_t kMax64 = std::numeric_limits<std::uint64_t>::max();

TEST(ParseUint, DecimalAndHex) {
  EXPECT_EQ(parse_uint("--n", "0", 0, 10), 0u);
  EXPECT_EQ(parse_uint("--n", "10", 0, 10), 10u);
  EXPECT_EQ(parse_uint("--seed", "0x1F", 0, kMax64), 31u);
  EXPECT_EQ(parse_uint("--seed", "18446744073709551615", 0, kMax64), kMax64);
  EXPECT_EQ(parse_uint("--n", "010", 0, 10), 10u);  // decimal, not octal
}

TEST(ParseUint, RejectsJunkNamingTheOption) {
  for (const char* text : {"", "-1", "+1", " 1", "1 ", "1e3", "0x", "0xg", "four", "1.5"}) {
    SCOPED_TRACE(text);
    try {
      parse_uint("--runs", text, 0, 100);
      ADD_FAILURE() << "accepted";
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--runs: '", 0), 0u) << e.what();
    }
  }
}

TEST(ParseUint, RejectsOutOfRange) {
  EXPECT_THROW(parse_uint("--threads", "4294967296", 0, kMaxThreads), UsageError);
  EXPECT_THROW(parse_uint("--seed", "18446744073709551616", 0, kMax64), UsageError);
  EXPECT_THROW(parse_uint("--runs", "0", 1, 10), UsageError);
  try {
    parse_uint("--threads", "5000", 0, 1024);
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "--threads: 5000 is out of range (at most 1024)");
  }
  try {
    parse_uint("--runs", "0", 1, 10);
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "--runs: 0 is out of range (1 to 10)");
  }
}

// Runs an app with one subcommand "go" (--count N) under run().
int run_go(std::vector<std::string> args, unsigned& count, int status = kExitOk) {
  CLI::App app;
  configure(app, "tool");
  app.require_subcommand(1);
  add_subcommand(app, "go", "test command",
                 [&count](CLI::App& go) { add_uint(go, "--count", count, "a count", 1, 100); });
  args.insert(args.begin(), "tool");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return run(app, static_cast<int>(argv.size()), argv.data(), [&] { return status; });
}

TEST(Run, BothOptionFormsAndTheLastValueCount) {
  unsigned count = 7;
  EXPECT_EQ(run_go({"go"}, count), kExitOk);
  EXPECT_EQ(count, 7u);
  EXPECT_EQ(run_go({"go", "--count", "3"}, count), kExitOk);
  EXPECT_EQ(count, 3u);
  EXPECT_EQ(run_go({"go", "--count=4"}, count), kExitOk);
  EXPECT_EQ(count, 4u);
  EXPECT_EQ(run_go({"go", "--count", "5", "--count=6"}, count), kExitOk);
  EXPECT_EQ(count, 6u);
}

TEST(Run, ExitStatuses) {
  unsigned count = 1;
  EXPECT_EQ(run_go({"go", "--help"}, count), kExitOk);
  EXPECT_EQ(run_go({"go", "--version"}, count), kExitOk);
  EXPECT_EQ(run_go({"--version"}, count), kExitOk);
  EXPECT_EQ(run_go({"go"}, count, kExitCheckFailed), kExitCheckFailed);
  EXPECT_EQ(run_go({}, count), kExitError);
  EXPECT_EQ(run_go({"went"}, count), kExitError);
  EXPECT_EQ(run_go({"go", "--bogus"}, count), kExitError);
  EXPECT_EQ(run_go({"go", "extra"}, count), kExitError);
  EXPECT_EQ(run_go({"go", "--count"}, count), kExitError);
  EXPECT_EQ(run_go({"go", "--count", "0"}, count), kExitError);
  EXPECT_EQ(run_go({"go", "--count", "101"}, count), kExitError);
}

TEST(Run, ExceptionsMapToStatuses) {
  CLI::App app;
  configure(app, "tool");
  char name[] = "tool";
  char* argv[] = {name};
  EXPECT_EQ(run(app, 1, argv, []() -> int { throw CheckFailed("no"); }), kExitCheckFailed);
  EXPECT_EQ(run(app, 1, argv, []() -> int { throw UsageError("bad"); }), kExitError);
  EXPECT_EQ(run(app, 1, argv, []() -> int { throw std::runtime_error("unreadable"); }), kExitError);
  EXPECT_EQ(run(app, 1, argv, []() -> int { throw std::bad_alloc(); }), kExitError);
}

TEST(Threads, ZeroMeansEveryCore) {
  EXPECT_GE(resolve_threads(0), 1u);
  EXPECT_EQ(resolve_threads(3), 3u);
}

}  // namespace
}  // namespace psssp::cli
