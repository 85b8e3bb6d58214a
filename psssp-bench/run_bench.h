// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// psssp-bench from parsed options to written results, on every rank.
#pragma once

#include <mpi.h>

#include "options.h"

namespace psssp::bench {

// Returns the exit status; throws (on the rank that failed) what cli::run
// reports. Every rank returns or throws together.
int run_bench(const BenchOptions& options, MPI_Comm comm);

}  // namespace psssp::bench
