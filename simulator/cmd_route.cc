// Placeholder until the route command lands.
#include <cstdio>

#include "commands.h"

namespace psssp::sim {

int run_route(int, char**) {
  std::fprintf(stderr, "psssp-sim route: not built yet\n");
  return 2;
}

}  // namespace psssp::sim
