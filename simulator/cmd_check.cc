// Placeholder until the check command lands.
#include <cstdio>

#include "commands.h"

namespace psssp::sim {

int run_check(int, char**) {
  std::fprintf(stderr, "psssp-sim check: not built yet\n");
  return 2;
}

}  // namespace psssp::sim
