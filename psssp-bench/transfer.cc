// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "transfer.h"

#include <algorithm>
#include <cstdio>

#include "schedule.h"

namespace psssp::bench {
namespace {
constexpr int kTag = 7;
constexpr int kReceiveDepth = 4;
}  // namespace

Transfers::Transfers(MPI_Comm comm, const TransferConfig& config)
    : comm_(comm),
      config_(config),
      depth_(static_cast<int>(std::min<std::uint64_t>(config.iterations, kReceiveDepth))),
      send_buffer_(config.bytes, 'p'),
      receive_buffer_(config.bytes * static_cast<std::size_t>(depth_)) {
  requests_.resize(static_cast<std::size_t>(depth_) + config.iterations);
  done_.resize(requests_.size());
}

double Transfers::gbps(double seconds) const {
  return static_cast<double>(config_.bytes * config_.iterations) * 8.0 / seconds / 1e9;
}

double Transfers::run(std::uint32_t to, std::uint32_t from, std::uint64_t run,
                      double& local_seconds) {
  const double start = MPI_Wtime();
  const int count = static_cast<int>(config_.bytes);
  // Slots 0..depth-1: receives, each reposted until `iterations` are in;
  // then the sends, all posted at once (they only read the one buffer).
  const int depth = from == RankSchedule::kNone ? 0 : depth_;
  std::uint64_t receives_posted = 0, receives_done = 0;
  for (int s = 0; s < depth; ++s) {
    MPI_Irecv(receive_buffer_.data() + static_cast<std::size_t>(s) * config_.bytes, count, MPI_BYTE,
              static_cast<int>(from), kTag, comm_, &requests_[s]);
    ++receives_posted;
  }
  const int sends = to == RankSchedule::kNone ? 0 : static_cast<int>(config_.iterations);
  for (int i = 0; i < sends; ++i)
    MPI_Isend(send_buffer_.data(), count, MPI_BYTE, static_cast<int>(to), kTag, comm_,
              &requests_[static_cast<std::size_t>(depth + i)]);
  const int total = depth + sends;
  int active = total;
  double received_at = start;
  while (active > 0) {
    int finished = 0;
    MPI_Testsome(total, requests_.data(), &finished, done_.data(), MPI_STATUSES_IGNORE);
    if (finished == MPI_UNDEFINED) break;
    const double now = finished > 0 || config_.deadline > 0 ? MPI_Wtime() : 0.0;
    for (int k = 0; k < finished; ++k) {
      const int slot = done_[static_cast<std::size_t>(k)];
      if (slot >= depth) {
        --active;
        continue;
      }
      if (++receives_done == config_.iterations) received_at = now;
      if (receives_posted < config_.iterations) {
        MPI_Irecv(receive_buffer_.data() + static_cast<std::size_t>(slot) * config_.bytes, count,
                  MPI_BYTE, static_cast<int>(from), kTag, comm_, &requests_[slot]);
        ++receives_posted;
      } else {
        --active;
      }
    }
    if (config_.deadline > 0 && now > config_.deadline) {
      int rank = 0;
      MPI_Comm_rank(comm_, &rank);
      std::fprintf(stderr,
                   "psssp-bench: rank %d: --time-limit passed during run %llu; aborting "
                   "(no result written)\n",
                   rank, static_cast<unsigned long long>(run));
      std::fflush(stderr);
      MPI_Abort(comm_, 2);
    }
  }
  local_seconds = MPI_Wtime() - start;
  if (depth == 0) return 0.0;
  // A run too short for the clock still counts as one tick.
  return std::max(received_at - start, MPI_Wtick());
}

}  // namespace psssp::bench
