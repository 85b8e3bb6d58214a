// Placeholder until the info command lands.
#include <cstdio>

#include "commands.h"

namespace psssp::sim {

int run_info(int, char**) {
  std::fprintf(stderr, "psssp-sim info: not built yet\n");
  return 2;
}

}  // namespace psssp::sim
