// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// psssp-sim: read fabrics and routes, check and score them, compute P-SSSP routes.
#include "cli/command_line.h"
#include "commands.h"

using namespace psssp;

int main(int argc, char** argv) {
  CLI::App app(
      "psssp-sim: read InfiniBand fabrics and routes, check and score them, compute P-SSSP "
      "routes. Rules for all options: psssp-sim(1).");
  cli::configure(app, "psssp-sim");
  app.get_formatter()->label("SUBCOMMAND", "COMMAND");
  app.require_subcommand(1);
  const sim::Command commands[] = {sim::add_info(app),  sim::add_check(app),   sim::add_score(app),
                                   sim::add_route(app), sim::add_convert(app), sim::add_bound(app)};
  for (const sim::Command& c : commands) c.app->group("Commands");
  return cli::run(app, argc, argv, [&] {
    for (const sim::Command& c : commands)
      if (c.app->parsed()) return c.run();
    return cli::kExitError;  // unreachable: require_subcommand(1)
  });
}
