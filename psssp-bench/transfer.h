// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The transfers of one run, as Netgauge's eBB pattern does them: every flow
// of the run at once, `iterations` messages of `bytes` each, timed by the
// receiver from the run's common start (the barrier) to its last message.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace psssp::bench {

struct TransferConfig {
  std::uint64_t bytes = 0;
  std::uint64_t iterations = 0;
  double deadline = 0;  // MPI_Wtime() after which the job is aborted; 0: none
};

class Transfers {
 public:
  Transfers(MPI_Comm comm, const TransferConfig& config);

  // Sends to `to` and receives from `from` (kNone: not in this run), starting
  // now. Returns the receive's seconds (0 when nothing is received) and sets
  // `local_seconds` to when this rank's last request finished. `run` names the
  // run in the abort message when the deadline passes.
  double run(std::uint32_t to, std::uint32_t from, std::uint64_t run, double& local_seconds);

  // From now on a run still transferring at `deadline` (MPI_Wtime(); 0:
  // none) aborts the job.
  void set_deadline(double deadline) { config_.deadline = deadline; }

  // Gb/s of a flow that took `seconds`.
  double gbps(double seconds) const;

 private:
  MPI_Comm comm_;
  TransferConfig config_;
  int depth_;  // receives posted ahead
  std::vector<char> send_buffer_, receive_buffer_;
  std::vector<MPI_Request> requests_;
  std::vector<int> done_;
};

}  // namespace psssp::bench
