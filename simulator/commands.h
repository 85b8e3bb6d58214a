// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The psssp-sim subcommands. Each registers itself and its options on the
// app; `run` runs it once the command line is parsed and returns the exit
// status (cli/command_line.h).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace psssp::sim {

struct Command {
  CLI::App* app;
  std::function<int()> run;
};

Command add_info(CLI::App& app);     // cmd_info.cc: what a fabric file holds
Command add_check(CLI::App& app);    // cmd_check.cc: trace every route, report faults
Command add_score(CLI::App& app);    // cmd_score.cc: effective bisection bandwidth
Command add_route(CLI::App& app);    // cmd_route.cc: P-SSSP LFTs for a fabric file
Command add_convert(CLI::App& app);  // cmd_convert.cc: a fabric as an ibsim net file
Command add_bound(CLI::App& app);    // cmd_bound.cc: LP upper bound on eBB

}  // namespace psssp::sim
