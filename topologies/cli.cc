// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "cli/command_line.h"
#include "degrade.h"
#include "failures.h"
#include "registry.h"

namespace psssp::topo {
namespace {

double parse_fraction(const std::string& option, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v >= 0.0 && v <= 1.0))
    throw cli::UsageError(option + ": '" + text + "' is not a fraction in [0, 1]");
  return v;
}

LinkRate parse_rate(const std::string& option, const std::string& text) {
  const auto rate = LinkRate::parse(text);
  if (!rate || rate->width == LinkWidth::unknown || rate->speed == LinkSpeed::unknown)
    throw cli::UsageError(option + ": '" + text +
                          "' is not a link rate (width 1x 2x 4x 8x 12x, speed SDR DDR QDR FDR10 "
                          "FDR EDR HDR NDR XDR, e.g. 4xEDR)");
  return *rate;
}

const char* type_name(const std::string& key) {
  if (key == "dims") return "AxB...";
  if (key == "model") return "NAME";
  if (key == "join") return "chain|ring|mesh";
  return "N";
}

}  // namespace

void add_options(CLI::App& app, CliOptions& o) {
  app.require_subcommand(1);
  app.add_option("-o,--output", o.output, "the net file (default -, standard output)")
      ->type_name("FILE");
  app.add_option_function<std::string>(
         "--fail", [&o](const std::string& text) { o.fail = parse_fraction("--fail", text); },
         "remove this fraction of the switch-to-switch cables")
      ->type_name("FRACTION");
  app.add_option_function<std::string>(
         "--rate", [&o](const std::string& text) { o.build.rate = parse_rate("--rate", text); },
         "every cable's rate (default 4xQDR); ibsim runs up to HDR")
      ->type_name("RATE");
  app.add_option_function<std::string>(
         "--degrade",
         [&o](const std::string& text) { o.degrade = parse_fraction("--degrade", text); },
         "run this fraction of the cables, host cables included, at --degraded-rate")
      ->type_name("FRACTION");
  app.add_option_function<std::string>(
         "--degraded-rate",
         [&o](const std::string& text) { o.degraded_rate = parse_rate("--degraded-rate", text); },
         "rate of the --degrade cables (default 1x at the speed of --rate)")
      ->type_name("RATE");
  app.add_option_function<std::string>(
         "--seed", [&o](const std::string& seed) { o.params.set("seed", seed); },
         "seed of --fail, --degrade and random-regular (default 1)")
      ->type_name("S");
  app.add_flag_function(
      "--dual-port", [&o](std::int64_t) { o.build.dual_port = true; },
      "hosts get a second port, to the next host-carrying switch");
  app.add_option("--roots", o.roots, "tree families: write the root switch GUIDs to FILE")
      ->type_name("FILE");
  app.add_option("--torus-conf", o.torus_conf, "torus and mesh: write a torus-2QoS.conf to FILE")
      ->type_name("FILE");
  app.add_flag("--json", o.json, "a JSON summary on standard output (needs -o FILE)");
  for (const FamilyInfo& family : families()) {
    CLI::App* sub =
        cli::add_subcommand(app, family.name, family.options, [&o, &family](CLI::App& options) {
          options.footer("defaults: " + std::string(family.options) +
                         "; global options: psssp-topo --help");
          for (const std::string key : family.keys)
            options
                .add_option_function<std::string>(
                    "--" + key, [&o, key](const std::string& value) { o.params.set(key, value); })
                ->type_name(type_name(key));
        });
    sub->group("Families");
    sub->fallthrough();  // the global options may follow the family's
  }
}

void finish_parse(const CLI::App& app, CliOptions& o) {
  o.family = app.get_subcommands().front()->get_name();
}

CliOptions parse_cli(const std::vector<std::string>& args) {
  CLI::App app;
  cli::configure(app, "psssp-topo");
  CliOptions o;
  add_options(app, o);
  app.parse(std::vector<std::string>(args.rbegin(), args.rend()));  // CLI11 takes them reversed
  finish_parse(app, o);
  return o;
}

int run_command_line(int argc, char** argv, const std::function<int(CliOptions&)>& generate) {
  CLI::App app(
      "psssp-topo: generates a fabric of a topology family as an ibsim net file. Rules for all "
      "options: psssp-sim(1); families and options: psssp-topo(1).");
  cli::configure(app, "psssp-topo");
  app.get_formatter()->label("SUBCOMMAND", "FAMILY");
  CliOptions options;
  add_options(app, options);
  return cli::run(
      app, argc, argv,
      [&] {
        finish_parse(app, options);
        return generate(options);
      },
      "topology family");
}

Generated generate_fabric(CliOptions& options) {
  const std::uint64_t seed = options.params.get_u64("seed", 1);  // --fail and random-regular
  Generated g{generate(options.family, options.params), {}, 0};
  g.fabric = build_fabric(g.spec, options.build);
  if (options.fail > 0.0) g.removed = fail_cables(g.fabric, options.fail, seed);
  if (options.degrade > 0.0) {
    const LinkRate slower =
        options.degraded_rate.value_or(LinkRate{LinkWidth::x1, options.build.rate.speed});
    g.degraded = degrade_cables(g.fabric, options.degrade, slower, seed);
  }
  return g;
}

}  // namespace psssp::topo
