// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// psssp-sim score FABRIC --routes DUMP...: effective bisection bandwidth.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "bound/channel_network.h"
#include "bound_runs.h"
#include "cli/command_line.h"
#include "cli/json_report.h"
#include "cli/output_files.h"
#include "commands.h"
#include "ebb_scorer.h"
#include "fabric_input.h"
#include "formats/fabric_io.h"
#include "formats/lft_io.h"
#include "host_set.h"
#include "link_table.h"
#include "output_util.h"
#include "patterns.h"
#include "progress_line.h"
#include "stats.h"
#include "traffic_options.h"

namespace psssp::sim {
namespace {

constexpr const char* kScoreDescription =
    "Effective bisection bandwidth (eBB): per run every directed cable, host links\n"
    "included, counts the flows crossing it; a flow gets 1 / (largest count on its\n"
    "path); the run's value is the mean over its flows; eBB is the mean over runs.\n"
    "Every routing sees the same flows in every run.\n"
    "\n"
    "patterns: bisect (default; random halves, first -> second; odd host count: one\n"
    "idles), bisect-fb (both ways), permutation, shift (run r: rank i -> i+r+1),\n"
    "ring, recursive-doubling, dissemination, halo2d, halo3d (--grid, periodic),\n"
    "gather|incast (all -> rank 0), file:PATH (\"SRC DST\" GUID/LID per line, \"--\"\n"
    "starts the next phase). Deterministic patterns cycle through their phases;\n"
    "without --runs they run each phase once.\n\n"
    "ORCS's definitions (psssp-sim(1)): orcs:rand (a derangement), orcs:ring (n\n"
    "one-flow levels), orcs:recdbl, orcs:tree, orcs:bruck, orcs:scatter, orcs:gather,\n"
    "orcs:neighbor2d, orcs:neighbor:K, orcs:receivers:K. A run holds every level and\n"
    "averages over all their flows; a new random mapping per run unless --mapping is\n"
    "given; an odd host count leaves one host idle.";

// Far above any useful run count (each run keeps its scores in memory), so
// that a mistyped --runs gets a message instead of running out of memory.
constexpr std::uint64_t kScoreMaxRuns = 10000000;

struct ScoreOptions {
  FabricInput input;
  std::vector<std::string> routes, names;
  TrafficOptions traffic;
  std::string link_csv, dump_patterns;
  std::uint64_t runs = 0;         // 0: the pattern's default
  std::uint64_t random_runs = 0;  // runs of a random pattern (0: 5000); ignored with --runs
  unsigned threads = 0;
  bool json = false, csv = false, maxmin = false;
  bool bound = false;  // the LP bound on the first bound_runs runs
  std::uint64_t bound_runs = 50;
};

struct Routing {
  std::string name, path;
  ForwardingTables lfts;
  std::unique_ptr<RouteTracer> tracer;
  std::unique_ptr<EbbScorer> scorer;
};

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Prints "score: N/R runs" on stderr once a second has passed, if stderr is a TTY.
class Progress {
 public:
  Progress(std::uint64_t total, bool enabled) : total_(total) {
    if (enabled) thread_ = std::thread([this] { loop(); });
  }
  ~Progress() {
    {
      std::lock_guard<std::mutex> lock(m_);
      done_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  std::atomic<std::uint64_t> count{0};

 private:
  void loop() {
    const auto start = std::chrono::steady_clock::now();
    bool shown = false;
    std::unique_lock<std::mutex> lock(m_);
    while (!cv_.wait_for(lock, std::chrono::milliseconds(200), [this] { return done_; })) {
      if (std::chrono::steady_clock::now() - start < std::chrono::seconds(1)) continue;
      std::fprintf(stderr, "\rscore: %llu/%llu runs", static_cast<unsigned long long>(count.load()),
                   static_cast<unsigned long long>(total_));
      shown = true;
    }
    if (shown) std::fprintf(stderr, "\r%40s\r", "");
  }
  std::uint64_t total_;
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

std::vector<double> pick(const std::vector<RunScore>& runs, double RunScore::*field) {
  std::vector<double> v;
  v.reserve(runs.size());
  for (const RunScore& r : runs) v.push_back(r.*field);
  return v;
}

void write_patterns(std::ostream& out, const PatternGenerator& gen, std::uint64_t runs) {
  out << "# psssp-sim score flows: one line per run, src_lid:dst_lid; pattern=" << gen.spec().name
      << " seed=" << gen.seed() << " runs=" << runs << " hosts=" << gen.hosts().size() << "\n";
  std::vector<Flow> flows;
  PatternGenerator::Scratch scratch;
  std::string line;
  for (std::uint64_t r = 0; r < runs; ++r) {
    gen.flows(r, flows, scratch);
    line.clear();
    for (std::size_t i = 0; i < flows.size(); ++i) {
      if (i) line += ' ';
      line += std::to_string(gen.hosts()[flows[i].src].lid);
      line += ':';
      line += std::to_string(flows[i].dlid);
    }
    line += '\n';
    out << line;
  }
}

void write_link_csv(std::ostream& out, const Fabric& f, const std::vector<Routing>& routings,
                    const std::vector<RoutingScores>& scores, std::uint64_t runs) {
  out << "routing,node_guid,node,port,remote_guid,remote,remote_port,gbps,mean_flows,max_flows,"
         "kind\n";
  for (std::size_t i = 0; i < routings.size(); ++i)
    for (ChannelId c = 0; c < f.channel_count(); ++c) {
      const PortRef p = f.channel_port(c);
      if (p.port == 0 || !f.port(p).connected()) continue;
      char mean[32];
      std::snprintf(
          mean, sizeof mean, "%.6f",
          runs ? static_cast<double>(scores[i].links.sum[c]) / static_cast<double>(runs) : 0.0);
      out << csv_field(routings[i].name) << ',' << link_csv_ends(f, p) << ',' << mean << ','
          << scores[i].links.max[c] << ',' << link_kind(f, p) << '\n';
    }
}

struct Row {
  Summary ebb, capacity, maxmin;
  Summary share;  // --bound: eBB / the run's bound, over the bounded runs
};

// --bound: the LP bound of the first runs (psssp-sim bound with its defaults).
struct BoundColumn {
  std::vector<RunBound> runs;
  Summary bound;
};

struct Timing {
  double parse = 0, score = 0, total = 0;  // wall seconds: reading inputs, runs, everything
};

void print_table(const std::string& fabric_path, const PatternGenerator& gen, std::uint64_t runs,
                 std::uint64_t seed, unsigned threads, bool maxmin,
                 const std::vector<Routing>& routings, const std::vector<Row>& rows,
                 const Timing& t, const BoundColumn* bound) {
  std::printf(
      "fabric %s: %zu hosts, pattern %s, %llu runs, seed %llu, %u threads\n"
      "time: %.2f s reading, %.2f s scoring (%.0f runs/s), %.2f s total\n",
      fabric_path.c_str(), gen.hosts().size(), gen.spec().name.c_str(),
      static_cast<unsigned long long>(runs), static_cast<unsigned long long>(seed), threads,
      t.parse, t.score, t.score > 0 ? static_cast<double>(runs) / t.score : 0.0, t.total);
  std::size_t w = 8;
  for (const Routing& r : routings) w = std::max(w, r.name.size());
  std::printf("%-*s  %-8s %-21s %-8s %-8s %-8s%s%s\n", static_cast<int>(w), "routing", "eBB",
              "95% CI", "min", "max", "cap-eBB", maxmin ? " maxmin" : "",
              bound ? " % of bound" : "");
  for (std::size_t i = 0; i < routings.size(); ++i) {
    const Row& r = rows[i];
    std::printf("%-*s  %.6f [%.6f, %.6f] %.6f %.6f %.6f", static_cast<int>(w),
                routings[i].name.c_str(), r.ebb.mean, r.ebb.ci95_low, r.ebb.ci95_high, r.ebb.min,
                r.ebb.max, r.capacity.mean);
    if (maxmin) std::printf(" %.6f", r.maxmin.mean);
    if (bound) std::printf(" %9.2f%%", 100.0 * r.share.mean);
    std::printf("\n");
  }
  if (bound)
    std::printf(
        "bound (LP, any routing, %zu runs): %.6f [%.6f, %.6f]; %% of bound: per run "
        "eBB / bound, averaged\n",
        bound->runs.size(), bound->bound.mean, bound->bound.ci95_low, bound->bound.ci95_high);
  std::printf("\nrun values (eBB per run), runs per bin:\n%-11s", "bin");
  for (const Routing& r : routings)
    std::printf(" %*s", static_cast<int>(std::max<std::size_t>(8, r.name.size())), r.name.c_str());
  std::printf("\n");
  for (unsigned b = 0; b < kHistogramBins; ++b) {
    bool any = false;
    for (const Row& r : rows) any = any || r.ebb.histogram[b];
    if (!any) continue;
    std::printf("[%.2f,%.2f%c", b / double{kHistogramBins}, (b + 1) / double{kHistogramBins},
                b + 1 == kHistogramBins ? ']' : ')');
    for (std::size_t i = 0; i < rows.size(); ++i)
      std::printf(" %*llu", static_cast<int>(std::max<std::size_t>(8, routings[i].name.size())),
                  static_cast<unsigned long long>(rows[i].ebb.histogram[b]));
    std::printf("\n");
  }
}

void print_json(const std::string& fabric_path, const PatternGenerator& gen, std::uint64_t runs,
                std::uint64_t seed, unsigned threads, bool maxmin,
                const std::vector<Routing>& routings, const std::vector<Row>& rows, const Timing& t,
                const BoundColumn* bound = nullptr) {
  cli::Json report = cli::json_report();
  report["fabric"] = fabric_path;
  report["pattern"] = gen.spec().name;
  report["runs"] = runs;
  // false: the runs are the pattern's phases, the mean is exact and the CI
  // only says how much the phases differ.
  report["random"] = gen.random();
  report["phases"] = gen.phase_count();
  report["seed"] = seed;
  report["hosts"] = gen.hosts().size();
  report["threads"] = threads;
  report["seconds"] = t.total;
  report["parse_seconds"] = t.parse;
  report["score_seconds"] = t.score;
  report["histogram_bins"] = kHistogramBins;
  if (bound)
    report["bound"] = {{"runs", bound->runs.size()},
                       {"bound", bound->bound.mean},
                       {"ci95", {bound->bound.ci95_low, bound->bound.ci95_high}}};
  cli::Json& results = report["results"] = cli::Json::array();
  for (std::size_t i = 0; i < routings.size(); ++i) {
    const Row& r = rows[i];
    results.push_back({{"name", routings[i].name},
                       {"routes", routings[i].path},
                       {"ebb", r.ebb.mean},
                       {"ci95", {r.ebb.ci95_low, r.ebb.ci95_high}},
                       {"min", r.ebb.min},
                       {"max", r.ebb.max},
                       {"stddev", r.ebb.stddev},
                       {"capacity_ebb", r.capacity.mean},
                       {"maxmin_ebb", maxmin ? cli::Json(r.maxmin.mean) : cli::Json()},
                       {"histogram", r.ebb.histogram},
                       {"capacity_histogram", r.capacity.histogram}});
    if (bound) results.back()["share_of_bound"] = r.share.mean;
  }
  cli::write_json(std::cout, report);
}

void print_csv(const std::string& fabric_path, const PatternGenerator& gen, std::uint64_t runs,
               std::uint64_t seed, bool maxmin, const std::vector<Routing>& routings,
               const std::vector<Row>& rows, bool bound) {
  std::printf(
      "name,routes,fabric,pattern,runs,seed,hosts,ebb,ci95_low,ci95_high,min,max,stddev,"
      "capacity_ebb,maxmin_ebb%s\n",
      bound ? ",share_of_bound" : "");
  for (std::size_t i = 0; i < routings.size(); ++i) {
    const Row& r = rows[i];
    std::printf("%s,%s,%s,%s,%llu,%llu,%zu,%s,%s,%s,%s,%s,%s,%s,%s%s\n",
                csv_field(routings[i].name).c_str(), csv_field(routings[i].path).c_str(),
                csv_field(fabric_path).c_str(), csv_field(gen.spec().name).c_str(),
                static_cast<unsigned long long>(runs), static_cast<unsigned long long>(seed),
                gen.hosts().size(), csv_number(r.ebb.mean).c_str(),
                csv_number(r.ebb.ci95_low).c_str(), csv_number(r.ebb.ci95_high).c_str(),
                csv_number(r.ebb.min).c_str(), csv_number(r.ebb.max).c_str(),
                csv_number(r.ebb.stddev).c_str(), csv_number(r.capacity.mean).c_str(),
                maxmin ? csv_number(r.maxmin.mean).c_str() : "",
                bound ? ("," + csv_number(r.share.mean)).c_str() : "");
  }
}

// Option combinations the parser cannot check on its own.
void check_options(const ScoreOptions& o) {
  if (o.names.size() > o.routes.size()) throw cli::UsageError("more --name than --routes");
  if (o.routes.empty() && o.dump_patterns.empty())
    throw cli::UsageError("--routes is required (or --dump-patterns alone, for the flows)");
  if (o.routes.empty() && (o.csv || !o.link_csv.empty() || o.maxmin))
    throw cli::UsageError(
        "without --routes there is nothing to score: --dump-patterns and "
        "--json only");
}

// Each --routes file read, with its tracer and scorer (added to `scorers`).
std::vector<Routing> read_routings(const ScoreOptions& o, const Fabric& fabric,
                                   const std::vector<Host>& hosts,
                                   std::vector<const EbbScorer*>& scorers) {
  std::vector<Routing> routings(o.routes.size());
  for (std::size_t i = 0; i < o.routes.size(); ++i) {
    Routing& r = routings[i];
    r.path = o.routes[i];
    r.name = i < o.names.size() ? o.names[i] : base_name(o.routes[i]);
    r.lfts = read_lfts(o.routes[i], fabric);
    r.tracer = std::make_unique<RouteTracer>(fabric, r.lfts);
    r.scorer = std::make_unique<EbbScorer>(*r.tracer, hosts);
    scorers.push_back(r.scorer.get());
  }
  return routings;
}

// score_runs with a progress line; a route that does not deliver fails the check.
std::vector<RoutingScores> run_scorers(const PatternGenerator& gen,
                                       const std::vector<const EbbScorer*>& scorers,
                                       ScoreConfig config) {
  try {
    Progress progress(config.runs, stderr_is_tty());
    config.progress = &progress.count;
    return score_runs(gen, scorers, config);
  } catch (const RouteError& e) {
    throw cli::CheckFailed(e.what());  // a route that does not deliver
  }
}

std::vector<Row> summarize_rows(const std::vector<RoutingScores>& scores) {
  std::vector<Row> rows;
  for (const RoutingScores& s : scores)
    rows.push_back(Row{summarize(pick(s.runs, &RunScore::ebb)),
                       summarize(pick(s.runs, &RunScore::capacity)),
                       summarize(pick(s.runs, &RunScore::maxmin)), Summary{}});
  return rows;
}

// --bound: the LP bound of the first bound_runs runs, on the same flows run
// by run, and each routing's eBB as a share of it (rows[i].share).
BoundColumn bound_scores(const Fabric& fabric, const PatternGenerator& gen, std::uint64_t runs,
                         std::uint64_t bound_runs_asked, unsigned threads,
                         const std::vector<RoutingScores>& scores, std::vector<Row>& rows) {
  BoundColumn bound;
  const bound::ChannelNetwork net(fabric, false);
  BoundConfig bc;
  bc.runs = std::min(runs, bound_runs_asked);
  bc.threads = threads;
  {
    ProgressLine progress("bound", bc.runs, stderr_is_tty());
    bc.progress = &progress.count;
    bound.runs = bound_runs(net, gen, bc);
  }
  std::vector<double> upper;
  for (const RunBound& b : bound.runs) upper.push_back(b.upper);
  bound.bound = summarize(upper);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::vector<double> share;
    for (std::size_t r = 0; r < bound.runs.size(); ++r)
      share.push_back(bound.runs[r].upper > 0 ? scores[i].runs[r].ebb / bound.runs[r].upper : 1.0);
    rows[i].share = summarize(share);
  }
  return bound;
}

int score(const ScoreOptions& o) {
  check_options(o);
  cli::OutputFiles outputs;
  if (o.json || !o.routes.empty())
    outputs.claim_stdout(o.json ? "--json" : o.csv ? "--csv" : "the score table");
  std::ostream* patterns_out =
      o.dump_patterns.empty() ? nullptr : &outputs.open(o.dump_patterns, "--dump-patterns");
  std::ostream* link_csv_out =
      o.link_csv.empty() ? nullptr : &outputs.open(o.link_csv, "--link-csv");

  const auto t0 = std::chrono::steady_clock::now();
  const Fabric fabric = load_fabric(o.input);
  const std::vector<Host> hosts =
      select_hosts(fabric, HostFilter{o.traffic.hosts_regex, o.traffic.hosts_file});
  if (hosts.size() < 2)
    throw std::runtime_error("only " + std::to_string(hosts.size()) +
                             " host port(s) selected; need 2");
  PatternSpec spec = parse_pattern(o.traffic.pattern, o.traffic.grid, o.traffic.mapping,
                                   o.traffic.lmc_path, fabric, hosts);
  const PatternGenerator gen(hosts, std::move(spec), o.traffic.seed);
  // A deterministic pattern runs each phase once unless --runs says otherwise:
  // any other count weighs its phases unevenly.
  const std::uint64_t random_runs = o.random_runs ? o.random_runs : 5000;
  const std::uint64_t runs = o.runs ? o.runs : gen.random() ? random_runs : gen.phase_count();
  const unsigned threads = static_cast<unsigned>(
      std::min<std::uint64_t>(cli::resolve_threads(o.threads), std::max<std::uint64_t>(runs, 1)));
  if (o.routes.empty()) {  // only the flows: also how scripts check their options early
    write_patterns(*patterns_out, gen, runs);
    if (o.json) print_json(o.input.path, gen, runs, o.traffic.seed, threads, o.maxmin, {}, {}, {});
    outputs.commit();
    return cli::kExitOk;
  }

  std::vector<const EbbScorer*> scorers;
  const std::vector<Routing> routings = read_routings(o, fabric, hosts, scorers);
  const auto t_parsed = std::chrono::steady_clock::now();
  ScoreConfig config;
  config.runs = runs;
  config.threads = threads;
  config.maxmin = o.maxmin;
  config.link_stats = link_csv_out != nullptr;
  const std::vector<RoutingScores> scores = run_scorers(gen, scorers, config);
  const double score_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t_parsed).count();
  const double parse_seconds = std::chrono::duration<double>(t_parsed - t0).count();
  if (patterns_out) write_patterns(*patterns_out, gen, runs);
  if (link_csv_out) write_link_csv(*link_csv_out, fabric, routings, scores, runs);

  std::vector<Row> rows = summarize_rows(scores);
  BoundColumn bound;
  if (o.bound) bound = bound_scores(fabric, gen, runs, o.bound_runs, threads, scores, rows);
  const BoundColumn* bound_column = o.bound ? &bound : nullptr;
  const Timing timing{parse_seconds, score_seconds,
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
  if (o.json)
    print_json(o.input.path, gen, runs, o.traffic.seed, threads, o.maxmin, routings, rows, timing,
               bound_column);
  else if (o.csv)
    print_csv(o.input.path, gen, runs, o.traffic.seed, o.maxmin, routings, rows, o.bound);
  else
    print_table(o.input.path, gen, runs, o.traffic.seed, threads, o.maxmin, routings, rows, timing,
                bound_column);
  outputs.commit();
  return cli::kExitOk;
}

void define_options(CLI::App& cmd, ScoreOptions& o) {
  cmd.footer(kScoreDescription);
  add_fabric_input(cmd, o.input);
  // One value per --routes/--name, every occurrence kept.
  cmd.add_option("--routes", o.routes,
                 "a routing to score (LFT dump); repeat for several;\n"
                 "none with --dump-patterns: only the flows")
      ->type_name("DUMP")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd.add_option("--name", o.names, "name of the --routes in the same position")
      ->type_name("NAME")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  add_traffic_options(cmd, o.traffic);
  cli::add_uint(cmd, "--runs", o.runs,
                "runs (default 5000 for random patterns, else one per phase;\n"
                "at most " +
                    std::to_string(kScoreMaxRuns) + ")",
                1, kScoreMaxRuns);
  cli::add_uint(cmd, "--random-runs", o.random_runs,
                "runs when the pattern draws at random (default 5000); a\n"
                "deterministic one runs each phase once (scripts pass this)",
                1, kScoreMaxRuns)
      ->excludes("--runs");
  cli::add_threads(cmd, o.threads, "threads across runs; results do not depend on it");
  CLI::Option* json = cmd.add_flag("--json", o.json, "one JSON object instead of the table");
  cmd.add_flag("--csv", o.csv, "one CSV line per routing instead of the table")->excludes(json);
  cmd.add_option("--link-csv", o.link_csv, "per directed channel: mean and max flows per run")
      ->type_name("F");
  cmd.add_option("--dump-patterns", o.dump_patterns,
                 "one line per run: the run's flows as src_lid:dst_lid")
      ->type_name("F");
  cmd.add_flag("--maxmin", o.maxmin, "also compute max-min fair shares (progressive filling)");
  cmd.add_flag("--bound", o.bound,
               "also the LP bound of the first --bound-runs runs (psssp-sim bound)\nand each "
               "routing's eBB as a share of it, run by run");
  cli::add_uint(cmd, "--bound-runs", o.bound_runs, "runs that --bound bounds (default 50)", 1,
                kScoreMaxRuns);
}

}  // namespace

Command add_score(CLI::App& app) {
  auto o = std::make_shared<ScoreOptions>();
  CLI::App* cmd = cli::add_subcommand(app, "score", "effective bisection bandwidth of routings",
                                      [o](CLI::App& c) { define_options(c, *o); });
  return {cmd, [o] { return score(*o); }};
}

}  // namespace psssp::sim
