// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The command-line rules of psssp-sim and psssp-topo (table in psssp-sim(1)),
// on top of CLI11: "--opt value" and "--opt=value", the last of a repeated
// option counts, --help and --version on every (sub)command, strictly parsed
// bounded numbers, and one exit status per outcome. The parts that need no
// CLI11 are in cli/conventions.h.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>

#include "cli/conventions.h"

namespace psssp::cli {

// Applies the shared conventions to a top-level app named `program`.
void configure(CLI::App& app, const std::string& program);

// A subcommand of `parent` with --help and --version. `define_options`
// adds its options when the command line names it, so that a run builds the
// options of one subcommand, not of all.
CLI::App* add_subcommand(CLI::App& parent, const std::string& name, const std::string& description,
                         std::function<void(CLI::App&)> define_options);

// An option taking one number as parse_uint reads it into `value` (which
// keeps its default when the option is absent).
template <typename Unsigned>
CLI::Option* add_uint(CLI::App& app, const std::string& name, Unsigned& value,
                      const std::string& help, std::uint64_t min, std::uint64_t max) {
  static_assert(std::is_unsigned_v<Unsigned>);
  return app
      .add_option_function<std::string>(
          name,
          [&value, name, min, max](const std::string& text) {
            value = static_cast<Unsigned>(parse_uint(name, text, min, max));
          },
          help)
      ->type_name("N");
}

// --threads N (cli/conventions.h): worker threads, 0 (the default) = one per core.
CLI::Option* add_threads(CLI::App& app, unsigned& threads, const std::string& help);

// Parses the command line and runs `body`, mapping every outcome to an exit
// status: help and version 0; the body's own status; 1 on CheckFailed; 2 on
// usage, input and output errors (one line on stderr, "PROGRAM COMMAND: ...").
// Standard output is flushed and checked before returning. `noun` names what
// the app's subcommands are ("command", "topology family") in messages.
int run(CLI::App& app, int argc, char** argv, const std::function<int()>& body,
        const std::string& noun = "command");

}  // namespace psssp::cli
