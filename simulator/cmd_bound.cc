// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// psssp-sim bound FABRIC: an upper bound on eBB that no routing beats, per
// run the LP of a fractional multicommodity flow over the flows score draws.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <utility>

#include "bound/channel_network.h"
#include "bound/solver.h"
#include "bound_runs.h"
#include "cli/command_line.h"
#include "cli/json_report.h"
#include "cli/output_files.h"
#include "commands.h"
#include "fabric_input.h"
#include "host_set.h"
#include "output_util.h"
#include "patterns.h"
#include "progress_line.h"
#include "stats.h"
#include "traffic_options.h"

namespace psssp::sim {
namespace {

constexpr const char* kBoundDescription =
    "Per run, the flows that score draws (the same --pattern, --seed, --mapping and\n"
    "hosts give the same flows) are routed as a fractional multicommodity flow: each\n"
    "flow any rate up to 1 (its injection link), split over any paths, every directed\n"
    "channel at most 1 (with --capacity: its Gb/s, rates relative to the injection\n"
    "link). The largest mean rate is an upper bound on the run's eBB (cap-eBB) for\n"
    "every routing, static or adaptive: ideal adaptive multipath for that matching.\n"
    "--minimal bounds every routing over minimal (fewest switch hop) paths.\n"
    "\n"
    "methods: exact: COIN-OR CLP column generation over paths, adding each flow's\n"
    "shortest path under the LP's duals until the Lagrangian bound of the duals is\n"
    "within 1e-6 of a feasible flow; approximate: Garg-Konemann / Fleischer channel\n"
    "lengths (no LP solver) until their Lagrangian bound is within --eps of a feasible\n"
    "flow; arc-lp: the whole arc LP at once with CLP (slow; a cross-check). Each\n"
    "reports a Lagrangian bound, an upper bound even when --time-limit stops it.\n"
    "auto: exact while flows through switches x channels is at most 300000 per run,\n"
    "else approximate. The output says which ran.";

constexpr std::uint64_t kBoundMaxRuns = 1000000;

struct BoundOptions {
  FabricInput input;
  TrafficOptions traffic;
  std::string method = "auto";
  std::uint64_t runs = 0;
  unsigned threads = 0;
  double eps = 0.02, time_limit = 0.0;
  bool json = false, minimal = false, capacity = false;
};

bound::Method parse_method(const std::string& m) {
  if (m == "auto") return bound::Method::automatic;
  if (m == "exact") return bound::Method::exact;
  if (m == "approximate") return bound::Method::approximate;
  if (m == "arc-lp") return bound::Method::arc_lp;
  throw cli::UsageError("--method: '" + m + "' is not auto, exact, approximate or arc-lp");
}

// A decimal number, all of `text`, finite; else a UsageError saying what
// `option` accepts.
double parse_real(const std::string& option, const std::string& text, const std::string& range) {
  char* end = nullptr;
  const double v = text.empty() ? NAN : std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(v))
    throw cli::UsageError(option + ": '" + text + "' is not a number (" + range + ")");
  return v;
}

constexpr const char* kEpsRange = "the target gap: more than 0, at most 1, e.g. 0.02";
constexpr const char* kTimeLimitRange = "seconds for all runs: 0 to 1e9, 0 = no limit";

struct Outcome {
  std::vector<double> upper, lower, seconds;  // solved runs, in run order
  std::uint64_t exact = 0, approximate = 0, arc_lp = 0, incomplete = 0;
  double max_gap = 0.0;  // largest upper / lower - 1
  double seconds_max = 0.0;
};

Outcome collect(const std::vector<RunBound>& runs) {
  Outcome o;
  for (const RunBound& r : runs) {
    if (!r.solved) continue;
    o.upper.push_back(r.upper);
    o.lower.push_back(r.lower);
    o.seconds.push_back(r.seconds);
    o.seconds_max = std::max(o.seconds_max, r.seconds);
    ++(r.method == bound::Method::exact         ? o.exact
       : r.method == bound::Method::approximate ? o.approximate
                                                : o.arc_lp);
    if (!r.complete) ++o.incomplete;
    if (r.lower > 0) o.max_gap = std::max(o.max_gap, r.upper / r.lower - 1.0);
  }
  return o;
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0.0 : s / static_cast<double>(v.size());
}

// What the bound of every run came to, for the table or the JSON report.
struct BoundReport {
  const PatternGenerator& gen;
  std::size_t hosts;
  std::uint64_t runs;
  unsigned threads;
  const std::vector<RunBound>& per_run;
  Outcome out;
  Summary s;     // of the bounds
  double total;  // wall seconds, everything
};

bound::SolveOptions solve_options(const BoundOptions& o, bound::Clock::time_point t0) {
  bound::SolveOptions solve;
  solve.method = parse_method(o.method);
  solve.minimal = o.minimal;
  solve.eps = o.eps;
  if (o.time_limit > 0)
    solve.deadline = t0 + std::chrono::duration_cast<bound::Clock::duration>(
                              std::chrono::duration<double>(o.time_limit));
  return solve;
}

// bound_runs with a progress line.
std::vector<RunBound> bound_with_progress(const bound::ChannelNetwork& net,
                                          const PatternGenerator& gen,
                                          const bound::SolveOptions& solve, std::uint64_t runs,
                                          unsigned threads) {
  BoundConfig config;
  config.solve = solve;
  config.runs = runs;
  config.threads = threads;
  ProgressLine progress("bound", runs, stderr_is_tty());
  config.progress = &progress.count;
  return bound_runs(net, gen, config);
}

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

// Which method ran: "exact", "approximate, eps=0.02" or "arc-lp", or each
// with its run count where runs differ.
std::string method_ran(const Outcome& out, double eps) {
  const std::pair<std::string, std::uint64_t> kinds[] = {
      {"exact", out.exact},
      {"approximate, eps=" + number(eps), out.approximate},
      {"arc-lp", out.arc_lp}};
  std::string one, all;
  int used = 0;
  for (const auto& [name, count] : kinds) {
    if (!count) continue;
    ++used;
    one = name;
    all += (all.empty() ? "" : "; ") + name + " on " + std::to_string(count) + " runs";
  }
  return used == 1 ? one : all;
}

void print_json(const BoundOptions& o, const BoundReport& r) {
  cli::Json report = cli::json_report();
  report["fabric"] = o.input.path;
  report["pattern"] = r.gen.spec().name;
  report["runs"] = r.runs;
  report["runs_bounded"] = r.out.upper.size();
  report["random"] = r.gen.random();
  report["seed"] = o.traffic.seed;
  report["hosts"] = r.hosts;
  report["threads"] = r.threads;
  report["minimal"] = o.minimal;
  report["capacity"] = o.capacity;
  report["solver"] =
      r.out.exact || r.out.arc_lp ? "COIN-OR CLP" : "none (Garg-Konemann / Fleischer)";
  report["method"] = method_ran(r.out, o.eps);
  report["method_requested"] = o.method;
  report["eps"] = o.eps;
  report["runs_exact"] = r.out.exact;
  report["runs_approximate"] = r.out.approximate;
  report["runs_arc_lp"] = r.out.arc_lp;
  report["runs_incomplete"] = r.out.incomplete;
  report["bound"] = r.s.mean;
  report["ci95"] = {r.s.ci95_low, r.s.ci95_high};
  report["min"] = r.s.min;
  report["max"] = r.s.max;
  report["stddev"] = r.s.stddev;
  report["feasible"] = mean(r.out.lower);
  report["max_gap"] = r.out.max_gap;
  report["seconds"] = r.total;
  report["seconds_per_run"] = mean(r.out.seconds);
  report["seconds_per_run_max"] = r.out.seconds_max;
  cli::Json& list = report["run_bounds"] = cli::Json::array();
  for (const RunBound& b : r.per_run) list.push_back(b.solved ? cli::Json(b.upper) : cli::Json());
  cli::write_json(std::cout, report);
}

void print_table(const BoundOptions& o, const BoundReport& r) {
  const std::string what = std::string(o.minimal ? "minimal paths" : "any routing") + ", " +
                           (o.capacity ? "cap-eBB" : "eBB");
  std::printf(
      "fabric %s: %zu hosts, pattern %s, %zu of %llu runs bounded, seed %llu, %u "
      "threads\n",
      o.input.path.c_str(), r.hosts, r.gen.spec().name.c_str(), r.out.upper.size(),
      static_cast<unsigned long long>(r.runs), static_cast<unsigned long long>(o.traffic.seed),
      r.threads);
  std::printf("bound (%s): %.6f [%.6f, %.6f] min %.6f max %.6f\n", what.c_str(), r.s.mean,
              r.s.ci95_low, r.s.ci95_high, r.s.min, r.s.max);
  std::printf("feasible flow found: %.6f (largest gap to the bound %.2f%%)\n", mean(r.out.lower),
              100.0 * r.out.max_gap);
  const std::pair<std::string, std::uint64_t> kinds[] = {
      {"exact (COIN-OR CLP column generation, gap <= 1e-6)", r.out.exact},
      {"approximate, eps=" + number(o.eps) +
           " (Garg-Konemann / Fleischer lengths, certified gap <= " + number(o.eps) + ")",
       r.out.approximate},
      {"arc-lp (COIN-OR CLP, the whole arc LP)", r.out.arc_lp}};
  std::string methods;
  for (const auto& [name, count] : kinds)
    if (count)
      methods += (methods.empty() ? "" : "; ") + name + " on " + std::to_string(count) + " of " +
                 std::to_string(r.out.upper.size()) + " runs";
  std::printf("method: %s", methods.c_str());
  if (r.out.incomplete)
    std::printf("; %llu runs stopped by --time-limit (bound valid, looser)",
                static_cast<unsigned long long>(r.out.incomplete));
  std::printf("\ntime: %.2f s total, %.3f s per run (mean), %.3f s (max)\n", r.total,
              mean(r.out.seconds), r.out.seconds_max);
}

int run_bound(const BoundOptions& o) {
  cli::OutputFiles outputs;
  outputs.claim_stdout(o.json ? "--json" : "the bound table");
  const auto t0 = bound::Clock::now();
  const bound::SolveOptions solve = solve_options(o, t0);

  const Fabric fabric = load_fabric(o.input);
  const std::vector<Host> hosts =
      select_hosts(fabric, HostFilter{o.traffic.hosts_regex, o.traffic.hosts_file});
  if (hosts.size() < 2)
    throw std::runtime_error("only " + std::to_string(hosts.size()) +
                             " host port(s) selected; need 2");
  PatternSpec spec = parse_pattern(o.traffic.pattern, o.traffic.grid, o.traffic.mapping,
                                   o.traffic.lmc_path, fabric, hosts);
  const PatternGenerator gen(hosts, std::move(spec), o.traffic.seed);
  const std::uint64_t runs = o.runs ? o.runs : gen.random() ? 50 : gen.phase_count();
  // Across runs; where runs are fewer, the rest go into each run (approximate).
  const unsigned threads = cli::resolve_threads(o.threads);
  const bound::ChannelNetwork net(fabric, o.capacity);
  const std::vector<RunBound> per_run = bound_with_progress(net, gen, solve, runs, threads);
  Outcome out = collect(per_run);
  if (out.upper.empty())
    throw std::runtime_error("--time-limit " + std::to_string(o.time_limit) +
                             " s passed before the first run was bounded");
  const Summary s = summarize(out.upper);
  const double total = std::chrono::duration<double>(bound::Clock::now() - t0).count();
  const BoundReport report{gen, hosts.size(), runs, threads, per_run, std::move(out), s, total};
  if (o.json)
    print_json(o, report);
  else
    print_table(o, report);
  outputs.commit();
  return cli::kExitOk;
}

void define_options(CLI::App& cmd, BoundOptions& o) {
  cmd.footer(kBoundDescription);
  add_fabric_input(cmd, o.input);
  add_traffic_options(cmd, o.traffic);
  cli::add_uint(cmd, "--runs", o.runs,
                "runs: run r has score's flows of run r (default 50 for random\npatterns, else one "
                "per phase)",
                1, kBoundMaxRuns);
  cli::add_threads(cmd, o.threads,
                   "threads across runs, and within runs when fewer; results do not\ndepend on it");
  cmd.add_flag("--json", o.json, "one JSON object instead of the table");
  cmd.add_flag("--minimal", o.minimal, "only minimal (fewest switch hop) paths");
  cmd.add_flag("--capacity", o.capacity,
               "channel capacities are the cables' Gb/s (a bound on cap-eBB)");
  cmd.add_option("--method", o.method, "auto (default), exact, approximate or arc-lp")
      ->type_name("M");
  cmd.add_option_function<std::string>(
         "--eps",
         [&o](const std::string& text) {
           o.eps = parse_real("--eps", text, kEpsRange);
           if (!(o.eps > 0.0 && o.eps <= 1.0))
             throw cli::UsageError("--eps: " + text + " is out of range (" + kEpsRange + ")");
         },
         "approximate: the target gap, in (0, 1] (default 0.02)")
      ->type_name("E");
  cmd.add_option_function<std::string>(
         "--time-limit",
         [&o](const std::string& text) {
           o.time_limit = parse_real("--time-limit", text, kTimeLimitRange);
           if (!(o.time_limit >= 0.0 && o.time_limit <= 1e9))
             throw cli::UsageError("--time-limit: " + text + " is out of range (" +
                                   kTimeLimitRange + ")");
         },
         "seconds for all runs; runs not started by then are left out,\na run cut "
         "short keeps a valid, looser bound (default: none)")
      ->type_name("S");
}

}  // namespace

Command add_bound(CLI::App& app) {
  auto o = std::make_shared<BoundOptions>();
  CLI::App* cmd = cli::add_subcommand(app, "bound", "upper bound on eBB that no routing beats (LP)",
                                      [o](CLI::App& c) { define_options(c, *o); });
  return {cmd, [o] { return run_bound(*o); }};
}

}  // namespace psssp::sim
