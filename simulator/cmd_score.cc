// psssp-sim score FABRIC --routes DUMP...: effective bisection bandwidth.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "cli_args.h"
#include "commands.h"
#include "ebb_scorer.h"
#include "formats/fabric_io.h"
#include "formats/lft_io.h"
#include "host_set.h"
#include "output_util.h"
#include "patterns.h"
#include "stats.h"

namespace psssp::sim {
namespace {

constexpr const char* kUsage =
    "usage: psssp-sim score FABRIC --routes DUMP [--routes DUMP2 ...] [--name NAME ...]\n"
    "         [--pattern P] [--runs R] [--seed S] [--threads T] [--json|--csv]\n"
    "         [--link-csv FILE] [--dump-patterns FILE] [--maxmin]\n"
    "         [--hosts-regex RE] [--hosts-file GUIDS] [--lids FILE]\n"
    "         [--lmc-path first|random|hash] [--mapping linear|random|FILE] [--grid AxB[xC]]\n"
    "\n"
    "Effective bisection bandwidth (eBB): per run every directed cable, host links\n"
    "included, counts the flows crossing it; a flow gets 1 / (largest count on its\n"
    "path); the run's value is the mean over its flows; eBB is the mean over runs.\n"
    "Every routing sees the same flows in every run.\n"
    "\n"
    "patterns: bisect (default; random halves, first -> second; odd host count: one\n"
    "  idles), bisect-fb (both ways), permutation, shift (run r: rank i -> i+r+1),\n"
    "  ring, recursive-doubling, dissemination, halo2d, halo3d (--grid, periodic),\n"
    "  gather|incast (all -> rank 0), file:PATH (\"SRC DST\" GUID/LID per line, \"--\"\n"
    "  starts the next phase). Deterministic patterns cycle through their phases;\n"
    "  without --runs they run each phase once.\n"
    "  --runs R          runs (default 5000 for random patterns)\n"
    "  --seed S          run r draws from mt19937_64(splitmix64(S ^ splitmix64(r))) (default 1)\n"
    "  --threads T       threads across runs (default: all cores); results do not depend on it\n"
    "  --maxmin          also compute max-min fair shares (progressive filling)\n"
    "  --lmc-path M      LMC destination LID: first (base), random, hash (of src/dst LIDs)\n"
    "  --mapping M       rank -> host: linear (host order), random (new per run), FILE of "
    "GUIDs/LIDs\n"
    "  --hosts-regex RE  hosts whose node description matches RE\n"
    "  --hosts-file F    hosts listed by port (or node) GUID, as OpenSM's cn_guid_file\n"
    "  --dump-patterns F one line per run: the run's flows as src_lid:dst_lid\n"
    "  --link-csv F      per directed channel: mean and max flows per run\n";

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

void write_patterns(const std::string& path, const PatternGenerator& gen, std::uint64_t runs) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
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
  if (!out) throw std::runtime_error("error writing " + path);
}

void write_link_csv(const std::string& path, const Fabric& f, const std::vector<Routing>& routings,
                    const std::vector<RoutingScores>& scores, std::uint64_t runs) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << "routing,node_guid,node,port,remote_guid,remote,remote_port,gbps,mean_flows,max_flows\n";
  for (std::size_t i = 0; i < routings.size(); ++i)
    for (ChannelId c = 0; c < f.channel_count(); ++c) {
      const PortRef p = f.channel_port(c);
      const Port& port = f.port(p);
      if (p.port == 0 || !port.connected()) continue;
      const Node& a = f.node(p.node);
      const Node& b = f.node(port.remote.node);
      char mean[32];
      std::snprintf(
          mean, sizeof mean, "%.6f",
          runs ? static_cast<double>(scores[i].links.sum[c]) / static_cast<double>(runs) : 0.0);
      out << csv_field(routings[i].name) << ',' << hex_guid(a.guid) << ','
          << csv_field(a.description.empty() ? a.name : a.description) << ',' << int{p.port} << ','
          << hex_guid(b.guid) << ',' << csv_field(b.description.empty() ? b.name : b.description)
          << ',' << int{port.remote.port} << ',' << port.rate.gbps() << ',' << mean << ','
          << scores[i].links.max[c] << '\n';
    }
  if (!out) throw std::runtime_error("error writing " + path);
}

struct Row {
  Summary ebb, capacity, maxmin;
};

struct Timing {
  double parse = 0, score = 0, total = 0;  // wall seconds: reading inputs, runs, everything
};

void print_table(const std::string& fabric_path, const PatternGenerator& gen, std::uint64_t runs,
                 std::uint64_t seed, unsigned threads, bool maxmin,
                 const std::vector<Routing>& routings, const std::vector<Row>& rows,
                 const Timing& t) {
  std::printf(
      "fabric %s: %zu hosts, pattern %s, %llu runs, seed %llu, %u threads\n"
      "time: %.2f s reading, %.2f s scoring (%.0f runs/s), %.2f s total\n",
      fabric_path.c_str(), gen.hosts().size(), gen.spec().name.c_str(),
      static_cast<unsigned long long>(runs), static_cast<unsigned long long>(seed), threads,
      t.parse, t.score, t.score > 0 ? static_cast<double>(runs) / t.score : 0.0, t.total);
  std::size_t w = 8;
  for (const Routing& r : routings) w = std::max(w, r.name.size());
  std::printf("%-*s  %-8s %-21s %-8s %-8s %-8s%s\n", static_cast<int>(w), "routing", "eBB",
              "95% CI", "min", "max", "cap-eBB", maxmin ? " maxmin" : "");
  for (std::size_t i = 0; i < routings.size(); ++i) {
    const Row& r = rows[i];
    std::printf("%-*s  %.6f [%.6f, %.6f] %.6f %.6f %.6f", static_cast<int>(w),
                routings[i].name.c_str(), r.ebb.mean, r.ebb.ci95_low, r.ebb.ci95_high, r.ebb.min,
                r.ebb.max, r.capacity.mean);
    if (maxmin) std::printf(" %.6f", r.maxmin.mean);
    std::printf("\n");
  }
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
                const std::vector<Routing>& routings, const std::vector<Row>& rows,
                const Timing& t) {
  std::printf(
      "{\"fabric\":%s,\"pattern\":%s,\"runs\":%llu,\"seed\":%llu,\"hosts\":%zu,"
      "\"threads\":%u,\"seconds\":%s,\"parse_seconds\":%s,\"score_seconds\":%s,"
      "\"histogram_bins\":%u,\"results\":[",
      json_string(fabric_path).c_str(), json_string(gen.spec().name).c_str(),
      static_cast<unsigned long long>(runs), static_cast<unsigned long long>(seed),
      gen.hosts().size(), threads, json_number(t.total).c_str(), json_number(t.parse).c_str(),
      json_number(t.score).c_str(), kHistogramBins);
  for (std::size_t i = 0; i < routings.size(); ++i) {
    const Row& r = rows[i];
    std::printf(
        "%s{\"name\":%s,\"routes\":%s,\"ebb\":%s,\"ci95\":[%s,%s],\"min\":%s,\"max\":%s,"
        "\"stddev\":%s,\"capacity_ebb\":%s,\"maxmin_ebb\":%s,\"histogram\":[",
        i ? "," : "", json_string(routings[i].name).c_str(), json_string(routings[i].path).c_str(),
        json_number(r.ebb.mean).c_str(), json_number(r.ebb.ci95_low).c_str(),
        json_number(r.ebb.ci95_high).c_str(), json_number(r.ebb.min).c_str(),
        json_number(r.ebb.max).c_str(), json_number(r.ebb.stddev).c_str(),
        json_number(r.capacity.mean).c_str(), maxmin ? json_number(r.maxmin.mean).c_str() : "null");
    for (unsigned b = 0; b < kHistogramBins; ++b)
      std::printf("%s%llu", b ? "," : "", static_cast<unsigned long long>(r.ebb.histogram[b]));
    std::printf("]}");
  }
  std::printf("]}\n");
}

void print_csv(const std::string& fabric_path, const PatternGenerator& gen, std::uint64_t runs,
               std::uint64_t seed, bool maxmin, const std::vector<Routing>& routings,
               const std::vector<Row>& rows) {
  std::printf(
      "name,routes,fabric,pattern,runs,seed,hosts,ebb,ci95_low,ci95_high,min,max,stddev,"
      "capacity_ebb,maxmin_ebb\n");
  for (std::size_t i = 0; i < routings.size(); ++i) {
    const Row& r = rows[i];
    std::printf("%s,%s,%s,%s,%llu,%llu,%zu,%s,%s,%s,%s,%s,%s,%s,%s\n",
                csv_field(routings[i].name).c_str(), csv_field(routings[i].path).c_str(),
                csv_field(fabric_path).c_str(), csv_field(gen.spec().name).c_str(),
                static_cast<unsigned long long>(runs), static_cast<unsigned long long>(seed),
                gen.hosts().size(), json_number(r.ebb.mean).c_str(),
                json_number(r.ebb.ci95_low).c_str(), json_number(r.ebb.ci95_high).c_str(),
                json_number(r.ebb.min).c_str(), json_number(r.ebb.max).c_str(),
                json_number(r.ebb.stddev).c_str(), json_number(r.capacity.mean).c_str(),
                maxmin ? json_number(r.maxmin.mean).c_str() : "");
  }
}

int score(int argc, char** argv) {
  CliArgs args(argc, argv,
               {"--routes", "--name", "--pattern", "--runs", "--seed", "--threads", "--link-csv",
                "--dump-patterns", "--hosts-regex", "--hosts-file", "--lids", "--lmc-path",
                "--mapping", "--grid"},
               {"--json", "--csv", "--maxmin", "--help", "-h"});
  if (args.flag("--help") || args.flag("-h")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (args.positional().size() != 1 || !args.has("--routes"))
    throw UsageError("need FABRIC and at least one --routes DUMP");
  if (args.flag("--json") && args.flag("--csv"))
    throw UsageError("--json and --csv exclude each other");
  const auto& names = args.all("--name");
  const auto& dumps = args.all("--routes");
  if (names.size() > dumps.size()) throw UsageError("more --name than --routes");

  const auto t0 = std::chrono::steady_clock::now();
  const std::string fabric_path = args.positional()[0];
  Fabric fabric = read_fabric(fabric_path);
  if (args.has("--lids")) apply_lid_file(fabric, args.get("--lids"));

  const std::vector<Host> hosts =
      select_hosts(fabric, HostFilter{args.get("--hosts-regex"), args.get("--hosts-file")});
  if (hosts.size() < 2)
    throw std::runtime_error("only " + std::to_string(hosts.size()) +
                             " host port(s) selected; need 2");
  PatternSpec spec = parse_pattern(args.get("--pattern", "bisect"), args.get("--grid"),
                                   args.get("--mapping", "linear"), args.get("--lmc-path", "first"),
                                   fabric, hosts);
  const std::uint64_t seed = args.get_uint("--seed", 1);
  const PatternGenerator gen(hosts, std::move(spec), seed);
  const std::uint64_t runs = args.get_uint("--runs", gen.random() ? 5000 : gen.phase_count());
  if (runs == 0) throw UsageError("--runs must be at least 1");
  unsigned threads = static_cast<unsigned>(
      args.get_uint("--threads", std::max(1u, std::thread::hardware_concurrency())));
  threads =
      static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, runs)));

  std::vector<Routing> routings(dumps.size());
  std::vector<const EbbScorer*> scorers;
  for (std::size_t i = 0; i < dumps.size(); ++i) {
    Routing& r = routings[i];
    r.path = dumps[i];
    r.name = i < names.size() ? names[i] : base_name(dumps[i]);
    r.lfts = read_lfts(dumps[i], fabric);
    r.tracer = std::make_unique<RouteTracer>(fabric, r.lfts);
    r.scorer = std::make_unique<EbbScorer>(*r.tracer, hosts);
    scorers.push_back(r.scorer.get());
  }

  const auto t_parsed = std::chrono::steady_clock::now();
  ScoreConfig config;
  config.runs = runs;
  config.threads = threads;
  config.maxmin = args.flag("--maxmin");
  config.link_stats = args.has("--link-csv");
  std::vector<RoutingScores> scores;
  {
    Progress progress(runs, stderr_is_tty());
    config.progress = &progress.count;
    scores = score_runs(gen, scorers, config);
  }
  const double score_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t_parsed).count();
  const double parse_seconds = std::chrono::duration<double>(t_parsed - t0).count();
  if (args.has("--dump-patterns")) write_patterns(args.get("--dump-patterns"), gen, runs);
  if (config.link_stats) write_link_csv(args.get("--link-csv"), fabric, routings, scores, runs);

  std::vector<Row> rows;
  for (const RoutingScores& s : scores)
    rows.push_back(Row{summarize(pick(s.runs, &RunScore::ebb)),
                       summarize(pick(s.runs, &RunScore::capacity)),
                       summarize(pick(s.runs, &RunScore::maxmin))});
  const Timing timing{parse_seconds, score_seconds,
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
  if (args.flag("--json"))
    print_json(fabric_path, gen, runs, seed, threads, config.maxmin, routings, rows, timing);
  else if (args.flag("--csv"))
    print_csv(fabric_path, gen, runs, seed, config.maxmin, routings, rows);
  else
    print_table(fabric_path, gen, runs, seed, threads, config.maxmin, routings, rows, timing);
  return 0;
}

}  // namespace

int run_score(int argc, char** argv) {
  try {
    return score(argc, argv);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "psssp-sim score: %s\n%s", e.what(), kUsage);
    return 2;
  }
}

}  // namespace psssp::sim
