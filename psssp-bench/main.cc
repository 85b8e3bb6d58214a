// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// psssp-bench: measured effective bisection bandwidth under MPI, run by run
// the flows psssp-sim score predicts (psssp-bench(1)).
#include <mpi.h>
#include <unistd.h>

#include <cstdio>

#include "cli/command_line.h"
#include "collective.h"
#include "options.h"
#include "run_bench.h"

using namespace psssp;

namespace {

// Ranks other than 0 keep quiet while the command line is parsed (every rank
// parses the same one, so rank 0's help or message is everybody's).
class QuietOutput {
 public:
  explicit QuietOutput(bool quiet) {
    if (!quiet) return;
    std::fflush(stdout);
    std::fflush(stderr);
    saved_out_ = dup(STDOUT_FILENO);
    saved_err_ = dup(STDERR_FILENO);
    std::FILE* null = std::fopen("/dev/null", "w");
    if (null) {
      dup2(fileno(null), STDOUT_FILENO);
      dup2(fileno(null), STDERR_FILENO);
      std::fclose(null);
    }
  }
  ~QuietOutput() { restore(); }
  void restore() {
    std::fflush(stdout);
    std::fflush(stderr);
    if (saved_out_ >= 0) dup2(saved_out_, STDOUT_FILENO), close(saved_out_);
    if (saved_err_ >= 0) dup2(saved_err_, STDERR_FILENO), close(saved_err_);
    saved_out_ = saved_err_ = -1;
  }

 private:
  int saved_out_ = -1, saved_err_ = -1;
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int status = cli::kExitError;
  {
    CLI::App app(
        "psssp-bench: effective bisection bandwidth measured under MPI, run by run the flows "
        "psssp-sim score predicts. Start one rank per host port: mpirun -np N psssp-bench ... "
        "Rules for all options: psssp-sim(1).");
    cli::configure(app, "psssp-bench");
    bench::BenchOptions options;
    bench::define_options(app, options);
    QuietOutput quiet(rank != 0);
    status = cli::run(app, argc, argv, [&] {
      bench::check_options(options);  // the same on every rank: rank 0 says it
      quiet.restore();                // from here each rank speaks for itself
      try {
        return bench::run_bench(options, MPI_COMM_WORLD);
      } catch (const bench::OtherRankFailed& e) {
        return e.status;
      }
    });
  }
  MPI_Finalize();
  return status;
}
