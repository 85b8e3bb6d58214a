#include "cli.h"

#include <cstdlib>
#include <stdexcept>

#include "failures.h"
#include "registry.h"

namespace psssp::topo {
namespace {

double parse_fraction(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v >= 0.0 && v <= 1.0))
    throw std::invalid_argument("--fail: \"" + text + "\" is not a fraction in [0, 1]");
  return v;
}

}  // namespace

CliOptions parse_cli(const std::vector<std::string>& args) {
  if (args.empty()) throw std::invalid_argument("no topology family given");
  CliOptions o;
  o.family = args[0];
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--dual-port") {
      o.build.dual_port = true;
      continue;
    }
    if (arg.size() < 2 || arg[0] != '-')
      throw std::invalid_argument("unexpected argument \"" + arg + "\"");
    if (i + 1 >= args.size()) throw std::invalid_argument(arg + " needs a value");
    const std::string& value = args[++i];
    if (arg == "-o")
      o.output = value;
    else if (arg == "--fail")
      o.fail = parse_fraction(value);
    else if (arg == "--roots")
      o.roots = value;
    else if (arg == "--torus-conf")
      o.torus_conf = value;
    else if (arg.rfind("--", 0) == 0)
      o.params.set(arg.substr(2), value);
    else
      throw std::invalid_argument("unknown option " + arg);
  }
  return o;
}

Generated generate_fabric(CliOptions& options) {
  const std::uint64_t seed = options.params.get_u64("seed", 1);  // --fail and random-regular
  Generated g{generate(options.family, options.params), {}, 0};
  g.fabric = build_fabric(g.spec, options.build);
  if (options.fail > 0.0) g.removed = fail_cables(g.fabric, options.fail, seed);
  return g;
}

}  // namespace psssp::topo
