// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "engine_flags.h"

#include <string>

#include "cli/command_line.h"

namespace psssp::sim {
namespace {

std::string help_of(const engine::EngineOption& row) {
  std::string help = row.help;
  if (row.max > 0) help += " (" + std::to_string(row.min) + ".." + std::to_string(row.max) + ")";
  if (row.default_text && row.value_name) help += std::string("; default ") + row.default_text;
  if (row.key) help += std::string("\nplugin: ") + row.key;
  return help;
}

// Whole numbers follow psssp-sim's rules (decimal or 0x-hex, its messages)
// within the table's range; everything else goes to the table's parser.
void apply(engine::EngineOptions& options, const engine::EngineOption& row,
           const std::string& value) {
  const bool number = row.max > 0;
  try {
    row.set(options, row,
            number ? std::to_string(cli::parse_uint(row.flag, value, row.min, row.max)) : value);
  } catch (const engine::OptionValueError& e) {
    throw cli::UsageError(std::string(row.flag) + " " + e.what());
  }
}

}  // namespace

void add_engine_flags(CLI::App& cmd, engine::EngineOptions& options) {
  for (const engine::EngineOption& row : engine::engine_option_table()) {
    if (!row.flag) continue;
    const engine::EngineOption* r = &row;
    if (row.value_name && !row.flag_value) {
      cmd.add_option_function<std::string>(
             row.flag, [&options, r](const std::string& value) { apply(options, *r, value); },
             help_of(row))
          ->type_name(row.value_name);
    } else {
      const std::string value = row.flag_value ? row.flag_value : "";
      cmd.add_flag_callback(
          row.flag, [&options, r, value] { apply(options, *r, value); }, help_of(row));
    }
  }
}

}  // namespace psssp::sim
