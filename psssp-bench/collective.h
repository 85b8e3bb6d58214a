// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Errors under MPI: a step runs on every rank (or on one), then all ranks
// agree on the outcome, so that no rank waits in a collective call for a
// rank that gave up. The rank that failed says why; the others stop quietly
// with the same exit status.
#pragma once

#include <mpi.h>

#include <exception>
#include <stdexcept>

#include "cli/command_line.h"

namespace psssp::bench {

// Another rank failed and said why; this one exits with `status`.
struct OtherRankFailed {
  int status;
};

inline int exit_status_of(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const cli::CheckFailed&) {
    return cli::kExitCheckFailed;
  } catch (...) {
    return cli::kExitError;
  }
}

// Runs `step` on this rank; then every rank learns the worst exit status.
// This rank's own exception is rethrown (its message is printed by
// cli::run); a failure elsewhere throws OtherRankFailed.
template <typename Step>
void collective(MPI_Comm comm, Step&& step) {
  std::exception_ptr error;
  try {
    step();
  } catch (...) {
    error = std::current_exception();
  }
  int mine = error ? exit_status_of(error) : cli::kExitOk, worst = 0;
  MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, comm);
  if (error) std::rethrow_exception(error);
  if (worst != cli::kExitOk) throw OtherRankFailed{worst};
}

}  // namespace psssp::bench
