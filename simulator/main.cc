// psssp-sim: read fabrics and routes, check and score them, compute P-SSSP routes.
#include <cstdio>
#include <cstring>
#include <exception>

#include "commands.h"

namespace {

struct Command {
  const char* name;
  int (*run)(int, char**);
  const char* summary;
};

constexpr Command kCommands[] = {
    {"info", psssp::sim::run_info, "print what a fabric file holds"},
    {"check", psssp::sim::run_check, "trace every host-to-host route through LFTs"},
    {"score", psssp::sim::run_score, "effective bisection bandwidth of routings"},
    {"route", psssp::sim::run_route, "compute P-SSSP forwarding tables"},
};

void usage(std::FILE* out) {
  std::fprintf(out, "usage: psssp-sim COMMAND [ARGS]   (psssp-sim COMMAND --help)\n\ncommands:\n");
  for (const auto& c : kCommands) std::fprintf(out, "  %-6s %s\n", c.name, c.summary);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    usage(stdout);
    return 0;
  }
  for (const auto& c : kCommands) {
    if (std::strcmp(argv[1], c.name) != 0) continue;
    try {
      return c.run(argc - 1, argv + 1);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "psssp-sim %s: %s\n", c.name, e.what());
      return 1;
    }
  }
  std::fprintf(stderr, "psssp-sim: unknown command '%s'\n", argv[1]);
  usage(stderr);
  return 2;
}
