// Placeholder until the score command lands.
#include <cstdio>

#include "commands.h"

namespace psssp::sim {

int run_score(int, char**) {
  std::fprintf(stderr, "psssp-sim score: not built yet\n");
  return 2;
}

}  // namespace psssp::sim
