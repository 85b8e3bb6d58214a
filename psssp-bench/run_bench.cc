// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "run_bench.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <set>

#include "cli/output_files.h"
#include "collective.h"
#include "ebb_scorer.h"
#include "fabric_input.h"
#include "formats/lft_io.h"
#include "host_ports.h"
#include "report.h"
#include "schedule.h"
#include "traffic/route_tracer.h"
#include "transfer.h"

namespace psssp::bench {
namespace {

constexpr int kConnectTag = 3;
constexpr int kBarrierSamples = 100;

// A receiver's record of one flow.
struct Record {
  double gbps;
  std::uint32_t run, src;
};

// Rank 0's view: ports, the flows of every run and what the routes predict.
struct Plan {
  std::vector<PortId> ports;
  RankPorts resolved;
  std::unique_ptr<RankFlows> flows;
  std::vector<std::vector<sim::Flow>> run_flows;  // ranks as src/dst
  std::vector<double> predicted;                  // per run, with --routes
  // Opened before the first transfer, so that an unwritable path stops the
  // run at once; renamed into place at the end.
  std::unique_ptr<cli::OutputFiles> outputs;
  std::ostream *json = nullptr, *csv = nullptr, *patterns = nullptr;
};

std::vector<PortId> gather_sysfs_ports(const BenchOptions& o, MPI_Comm comm, int rank, int size) {
  PortId mine;
  collective(comm, [&] {
    try {
      mine = read_sysfs_port(o.sysfs, o.hca);
    } catch (const std::exception& e) {
      throw std::runtime_error("rank " + std::to_string(rank) + ": " + e.what());
    }
  });
  std::vector<std::uint64_t> guids(rank == 0 ? static_cast<std::size_t>(size) : 0);
  std::vector<std::uint32_t> lids(guids.size());
  MPI_Gather(&mine.guid, 1, MPI_UINT64_T, guids.data(), 1, MPI_UINT64_T, 0, comm);
  MPI_Gather(&mine.lid, 1, MPI_UINT32_T, lids.data(), 1, MPI_UINT32_T, 0, comm);
  std::vector<PortId> ports(guids.size());
  for (std::size_t r = 0; r < ports.size(); ++r)
    ports[r] = PortId{guids[r], lids[r], "rank " + std::to_string(r) + " (sysfs)"};
  return ports;
}

// Rank 0: everything that can be wrong with the inputs, before any transfer.
void plan_on_rank0(const BenchOptions& o, std::size_t ranks, Plan& plan) {
  plan.outputs = std::make_unique<cli::OutputFiles>();
  if (!o.json.empty()) plan.json = &plan.outputs->open(o.json, "--json");
  if (!o.csv.empty()) plan.csv = &plan.outputs->open(o.csv, "--csv");
  if (!o.dump_patterns.empty())
    plan.patterns = &plan.outputs->open(o.dump_patterns, "--dump-patterns");
  if (o.json != "-" && o.csv != "-" && o.dump_patterns != "-")
    plan.outputs->claim_stdout("the summary");
  if (!o.map.empty()) plan.ports = read_map(o.map, ranks);
  std::unique_ptr<Fabric> fabric;
  std::vector<sim::Host> hosts;
  if (!o.fabric.empty()) {
    fabric = std::make_unique<Fabric>(sim::load_fabric(sim::FabricInput{o.fabric, o.lids, "", ""}));
    hosts = sim::select_hosts(*fabric, {});
  }
  plan.resolved = resolve_ports(plan.ports, fabric.get(), hosts, o.fabric);
  plan.flows = std::make_unique<RankFlows>(o.pattern, plan.resolved.lid, o.seed);
  const std::uint64_t runs = o.runs ? o.runs : plan.flows->default_runs();
  plan.run_flows.resize(runs);
  std::uint64_t total = 0;
  for (std::uint64_t r = 0; r < runs; ++r) {
    plan.flows->flows(r, plan.run_flows[r]);
    total += plan.run_flows[r].size();
  }
  // Rank 0 gathers one record per flow in one MPI call (int counts).
  if (total > INT_MAX / sizeof(Record))
    throw cli::UsageError(std::to_string(total) + " flows in " + std::to_string(runs) +
                          " runs: more than one job can gather (" +
                          std::to_string(INT_MAX / sizeof(Record)) + "); lower --runs");
  if (o.routes.empty()) return;
  // The prediction: psssp-sim score's run values for the same flows, on
  // the fabric's host list (rank i -> its host port).
  const ForwardingTables lfts = read_lfts(o.routes, *fabric);
  const RouteTracer tracer(*fabric, lfts);
  const sim::EbbScorer scorer(tracer, hosts);
  sim::EbbScorer::Workspace ws = scorer.workspace();
  std::vector<sim::Flow> host_flows;
  for (std::uint64_t r = 0; r < runs; ++r) {
    host_flows = plan.run_flows[r];
    for (sim::Flow& f : host_flows) {
      f.src = plan.resolved.host[f.src];
      f.dst = plan.resolved.host[f.dst];
    }
    try {
      plan.predicted.push_back(scorer.score(host_flows, ws, false, nullptr).ebb);
    } catch (const sim::RouteError& e) {
      throw cli::CheckFailed(o.routes + ": " + e.what());
    }
  }
}

// One small message along every flow of every run, so that connections are
// set up before the clock runs.
void connect_partners(const RankSchedule& s, MPI_Comm comm) {
  std::set<std::uint32_t> to(s.send_to.begin(), s.send_to.end());
  std::set<std::uint32_t> from(s.receive_from.begin(), s.receive_from.end());
  to.erase(RankSchedule::kNone);
  from.erase(RankSchedule::kNone);
  std::vector<MPI_Request> requests;
  std::vector<char> in(from.size()), out(1, 'c');
  std::size_t i = 0;
  for (std::uint32_t peer : from) {
    requests.emplace_back();
    MPI_Irecv(&in[i++], 1, MPI_CHAR, static_cast<int>(peer), kConnectTag, comm, &requests.back());
  }
  for (std::uint32_t peer : to) {
    requests.emplace_back();
    MPI_Isend(out.data(), 1, MPI_CHAR, static_cast<int>(peer), kConnectTag, comm, &requests.back());
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
}

// Rank 0 -> rank 1 alone, once untimed and kReferenceRepeats times timed.
std::vector<double> measure_reference(Transfers& t, int rank, MPI_Comm comm) {
  const std::uint32_t to = rank == 0 ? 1 : RankSchedule::kNone;
  const std::uint32_t from = rank == 1 ? 0 : RankSchedule::kNone;
  std::vector<double> gbps(kReferenceRepeats);
  double local = 0;
  MPI_Barrier(comm);
  t.run(to, from, 0, local);
  for (unsigned i = 0; i < kReferenceRepeats; ++i) {
    MPI_Barrier(comm);
    const double seconds = t.run(to, from, 0, local);
    if (rank == 1) gbps[i] = t.gbps(seconds);
  }
  MPI_Bcast(gbps.data(), static_cast<int>(gbps.size()), MPI_DOUBLE, 1, comm);
  return gbps;
}

double barrier_seconds(MPI_Comm comm) {
  int in = 0, out = 0;
  MPI_Barrier(comm);
  const double t0 = MPI_Wtime();
  for (int i = 0; i < kBarrierSamples; ++i) MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_MAX, comm);
  return (MPI_Wtime() - t0) / kBarrierSamples;
}

// Rank 0: matches each flow of each run with its receiver's record.
void collect_results(const Plan& plan, const std::vector<Record>& records,
                     const std::vector<int>& counts, const std::vector<int>& displs,
                     Report& report) {
  std::vector<std::size_t> cursor(counts.size(), 0);
  report.run_results.resize(plan.run_flows.size());
  for (std::size_t r = 0; r < plan.run_flows.size(); ++r)
    for (const sim::Flow& f : plan.run_flows[r]) {
      const std::size_t have = static_cast<std::size_t>(counts[f.dst]) / sizeof(Record);
      const std::size_t at = cursor[f.dst]++;
      const Record* rec =
          at < have ? &records[static_cast<std::size_t>(displs[f.dst]) / sizeof(Record) + at]
                    : nullptr;
      if (!rec || rec->run != r || rec->src != f.src || !std::isfinite(rec->gbps) || rec->gbps <= 0)
        throw std::runtime_error("run " + std::to_string(r) + ": flow rank " +
                                 std::to_string(f.src) + " -> rank " + std::to_string(f.dst) +
                                 " has no measurement");
      report.run_results[r].flows.push_back(
          FlowResult{f.src, f.dst, plan.resolved.lid[f.src], plan.resolved.lid[f.dst], rec->gbps});
    }
  for (std::size_t r = 0; r < plan.run_flows.size(); ++r)
    if (!plan.predicted.empty()) report.run_results[r].predicted = plan.predicted[r];
}

void write_outputs(const BenchOptions& o, Plan& plan, const Report& report) {
  if (plan.json) write_json(*plan.json, report);
  if (plan.csv) write_csv(*plan.csv, report);
  if (plan.patterns) write_patterns(*plan.patterns, report);
  if (o.json != "-" && o.csv != "-" && o.dump_patterns != "-") write_summary(std::cout, report);
  plan.outputs->commit();
}

// Every rank's ports and rank 0's plan; returns the run count, on every rank.
std::uint64_t make_plan(const BenchOptions& o, MPI_Comm comm, int rank, int size, Plan& plan) {
  collective(comm, [&] {
    if (size < 2) throw std::runtime_error("psssp-bench needs at least 2 ranks (mpirun -np N)");
  });
  if (o.map.empty()) plan.ports = gather_sysfs_ports(o, comm, rank, size);
  collective(comm, [&] {
    if (rank == 0) plan_on_rank0(o, static_cast<std::size_t>(size), plan);
  });
  std::uint64_t runs = rank == 0 ? plan.run_flows.size() : 0;
  MPI_Bcast(&runs, 1, MPI_UINT64_T, 0, comm);
  return runs;
}

// Every rank draws the same runs; only its own part is kept.
RankSchedule own_schedule(const BenchOptions& o, const Plan& plan, int rank, int size,
                          std::uint64_t runs) {
  std::vector<std::uint32_t> dummy_lids(static_cast<std::size_t>(size));
  for (std::size_t i = 0; i < dummy_lids.size(); ++i)
    dummy_lids[i] = static_cast<std::uint32_t>(i + 1);
  std::unique_ptr<RankFlows> own_flows;
  const RankFlows* flows = plan.flows.get();
  if (rank != 0) {
    own_flows = std::make_unique<RankFlows>(o.pattern, dummy_lids, o.seed);
    flows = own_flows.get();
  }
  return rank_schedule(*flows, static_cast<std::uint32_t>(rank), runs);
}

// The warm-up runs (run 0's transfers); returns the longest.
double warm_up(const BenchOptions& o, const RankSchedule& schedule, Transfers& transfers,
               MPI_Comm comm) {
  double local = 0, longest = 0;
  for (std::uint64_t w = 0; w < o.warmup; ++w) {
    MPI_Barrier(comm);
    const double t_w = MPI_Wtime();
    transfers.run(schedule.send_to[0], schedule.receive_from[0], 0, local);
    longest = std::max(longest, MPI_Wtime() - t_w);
  }
  return longest;
}

// What this rank saw of the timed runs.
struct TimedRuns {
  std::vector<Record> records;                // as receiver
  std::vector<double> local_seconds;          // per run: when this rank's last request finished
  double sync = 0;                            // in the allreduces between runs
  double longest = 0;                         // the longest run, warm-up included
  std::uint64_t stopped_at = 0;               // the run --time-limit stopped at, else runs
  double t_loop = 0, own_loop = 0, loop = 0;  // start, own end, everyone's end
};

// The timed runs. The allreduce before each is the barrier between runs
// and carries the stop when the next run would end past --time-limit.
TimedRuns timed_runs(const BenchOptions& o, const RankSchedule& schedule, Transfers& transfers,
                     std::uint64_t runs, double t_start, double longest, MPI_Comm comm) {
  TimedRuns t;
  t.local_seconds.assign(runs, 0.0);
  t.longest = longest;
  t.stopped_at = runs;
  if (o.time_limit > 0) transfers.set_deadline(t_start + o.time_limit);
  MPI_Barrier(comm);
  t.t_loop = MPI_Wtime();
  for (std::uint64_t r = 0; r < runs; ++r) {
    const double t_a = MPI_Wtime();
    int stop = o.time_limit > 0 && t_a - t_start + t.longest > o.time_limit ? 1 : 0, any = 0;
    MPI_Allreduce(&stop, &any, 1, MPI_INT, MPI_MAX, comm);
    const double t_b = MPI_Wtime();
    t.sync += t_b - t_a;
    if (any) {
      t.stopped_at = r;
      break;
    }
    const double seconds =
        transfers.run(schedule.send_to[r], schedule.receive_from[r], r, t.local_seconds[r]);
    if (schedule.receive_from[r] != RankSchedule::kNone)
      t.records.push_back(
          Record{transfers.gbps(seconds), static_cast<std::uint32_t>(r), schedule.receive_from[r]});
    t.longest = std::max(t.longest, MPI_Wtime() - t_a);
  }
  t.own_loop = MPI_Wtime() - t.t_loop;  // without waiting for the others' last run
  MPI_Barrier(comm);
  t.loop = MPI_Wtime() - t.t_loop;
  return t;
}

void check_stopped(const BenchOptions& o, const TimedRuns& t, std::uint64_t runs, int rank,
                   MPI_Comm comm) {
  collective(comm, [&] {
    if (t.stopped_at < runs && rank == 0) {
      char text[256];
      std::snprintf(text, sizeof text,
                    "--time-limit %.0f s: run %llu of %llu would end past it (longest run so far "
                    "%.3f s); stopped on every rank, no result written",
                    o.time_limit, static_cast<unsigned long long>(t.stopped_at),
                    static_cast<unsigned long long>(runs), t.longest);
      throw std::runtime_error(text);
    }
  });
}

// Rank 0's timing: the slowest rank's transfers per run, bookkeeping, one barrier.
struct LoopTiming {
  double worst_bookkeeping = 0;
  std::vector<double> slowest;  // per run
  double barrier = 0;
};

LoopTiming reduce_timing(const TimedRuns& t, std::uint64_t runs, int rank, MPI_Comm comm) {
  LoopTiming timing;
  double local_sum = 0;
  for (double s : t.local_seconds) local_sum += s;
  double bookkeeping = (t.own_loop - t.sync - local_sum) / static_cast<double>(runs);
  MPI_Reduce(&bookkeeping, &timing.worst_bookkeeping, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
  timing.slowest.resize(rank == 0 ? runs : 0);
  MPI_Reduce(t.local_seconds.data(), timing.slowest.data(), static_cast<int>(runs), MPI_DOUBLE,
             MPI_MAX, 0, comm);
  timing.barrier = barrier_seconds(comm);
  return timing;
}

// Every receiver's records to rank 0: all of them there (counts and displs
// in bytes, per rank), nothing elsewhere.
std::vector<Record> gather_records(const std::vector<Record>& records, int rank, int size,
                                   MPI_Comm comm, std::vector<int>& counts,
                                   std::vector<int>& displs) {
  int bytes = static_cast<int>(records.size() * sizeof(Record));
  counts.assign(rank == 0 ? static_cast<std::size_t>(size) : 0, 0);
  displs.assign(counts.size(), 0);
  MPI_Gather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  std::vector<Record> all;
  if (rank == 0) {
    std::size_t total = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
      displs[i] = static_cast<int>(total);
      total += static_cast<std::size_t>(counts[i]);
    }
    all.resize(total / sizeof(Record));
  }
  MPI_Gatherv(records.data(), bytes, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE,
              0, comm);
  return all;
}

}  // namespace

int run_bench(const BenchOptions& o, MPI_Comm comm) {
  const double t_start = MPI_Wtime();
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  Plan plan;
  const std::uint64_t runs = make_plan(o, comm, rank, size, plan);
  const RankSchedule schedule = own_schedule(o, plan, rank, size, runs);

  TransferConfig config;
  config.bytes = o.bytes;
  config.iterations = o.iterations;
  Transfers transfers(comm, config);
  connect_partners(schedule, comm);
  const std::vector<double> reference = measure_reference(transfers, rank, comm);
  const double longest = warm_up(o, schedule, transfers, comm);
  const TimedRuns timed = timed_runs(o, schedule, transfers, runs, t_start, longest, comm);
  check_stopped(o, timed, runs, rank, comm);
  const LoopTiming timing = reduce_timing(timed, runs, rank, comm);
  std::vector<int> counts, displs;
  const std::vector<Record> all = gather_records(timed.records, rank, size, comm, counts, displs);

  collective(comm, [&] {
    if (rank != 0) return;
    Report report;
    report.options = &o;
    report.ranks = static_cast<std::size_t>(size);
    report.runs = runs;
    report.random = plan.flows->generator().random();
    report.guid = plan.resolved.guid;
    report.lid = plan.resolved.lid;
    report.reference_each = reference;
    report.reference_gbps = *std::max_element(reference.begin(), reference.end());
    collect_results(plan, all, counts, displs, report);
    normalise(report);
    report.timing.setup = timed.t_loop - t_start;
    report.timing.loop = timed.loop;
    for (double s : timing.slowest) report.timing.transfers += s;
    report.timing.bookkeeping = timing.worst_bookkeeping;
    report.timing.allreduce = timing.barrier;
    report.timing.total = MPI_Wtime() - t_start;
    write_outputs(o, plan, report);
  });
  return cli::kExitOk;
}

}  // namespace psssp::bench
