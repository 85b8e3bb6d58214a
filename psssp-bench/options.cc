// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "options.h"

#include "cli/command_line.h"

namespace psssp::bench {

std::uint64_t parse_size(const std::string& option, const std::string& text) {
  std::string digits = text;
  std::uint64_t unit = 1;
  if (!digits.empty()) {
    switch (digits.back()) {
      case 'k':
      case 'K':
        unit = 1u << 10;
        break;
      case 'm':
      case 'M':
        unit = 1u << 20;
        break;
      case 'g':
      case 'G':
        unit = 1u << 30;
        break;
      default:
        break;
    }
    if (unit != 1) digits.pop_back();
  }
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
    throw cli::UsageError(option + ": '" + text + "' is not a size (N, NK, NM or NG)");
  const std::uint64_t value = cli::parse_uint(option, digits, 1, kMaxBytes / unit);
  return value * unit;
}

std::string size_text(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB"};
  unsigned u = 0;
  while (u < 3 && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++u;
  }
  return std::to_string(bytes) + " " + units[u];
}

void define_options(CLI::App& app, BenchOptions& o) {
  app.add_option("--fabric", o.fabric,
                 "the fabric (ibnetdiscover output, ibsim net file, opensm-subnet.lst):\n"
                 "checks the ports, gives the LIDs; needed by --routes and GUID maps")
      ->type_name("FILE");
  app.add_option("--lids", o.lids, "LIDs from opensm-subnet.lst or OpenSM's guid2lid file")
      ->type_name("FILE");
  app.add_option("--routes", o.routes,
                 "LFT dump of the routing in place: predicted eBB of the same runs\n"
                 "(psssp-sim score) beside the measured")
      ->type_name("DUMP");
  app.add_option("--map", o.map,
                 "\"RANK PORT-GUID\" or \"RANK LID\" per line, one per rank; without it\n"
                 "each rank reads its port from --sysfs")
      ->type_name("FILE");
  app.add_option("--sysfs", o.sysfs, "where the HCAs are (default /sys/class/infiniband)")
      ->type_name("DIR");
  app.add_option("--hca", o.hca, "the HCA port to use: DEV or DEV:PORT (default: first active)")
      ->type_name("DEV[:PORT]");
  app.add_option("--pattern", o.pattern,
                 "bisect (default), bisect-fb, permutation, shift, ring,\n"
                 "recursive-doubling, dissemination: as psssp-sim score")
      ->type_name("P");
  cli::add_uint(app, "--runs", o.runs,
                "runs (default " + std::to_string(kDefaultRandomRuns) +
                    " for random patterns, else one per phase;\nat most " +
                    std::to_string(kMaxRuns) + ")",
                1, kMaxRuns);
  cli::add_uint(app, "--seed", o.seed,
                "run r draws from mt19937_64(splitmix64(S ^ splitmix64(r)))\n(default 1)", 0,
                UINT64_MAX)
      ->type_name("S");
  app.add_option_function<std::string>(
         "--bytes", [&o](const std::string& t) { o.bytes = parse_size("--bytes", t); },
         "message size (default 4M; K, M, G: binary multiples)")
      ->type_name("SIZE");
  cli::add_uint(app, "--iterations", o.iterations, "timed messages per flow and run (default 16)",
                1, kMaxIterations);
  cli::add_uint(app, "--warmup", o.warmup, "untimed runs of run 0's flows first (default 2)", 0,
                1000);
  app.add_option_function<std::string>(
         "--time-limit",
         [&o](const std::string& t) {
           const std::uint64_t s = cli::parse_uint("--time-limit", t, 1, 30 * 24 * 3600);
           o.time_limit = static_cast<double>(s);
         },
         "seconds for the whole benchmark; a run that would end later is\n"
         "not started (all ranks stop, exit 2); default: no limit")
      ->type_name("S");
  app.add_option("--json", o.json, "the report as JSON (- for standard output)")->type_name("F");
  app.add_option("--csv", o.csv, "one line per run: run,flows,measured_ebb,predicted_ebb")
      ->type_name("F");
  app.add_option("--dump-patterns", o.dump_patterns,
                 "one line per run: the run's flows as src_lid:dst_lid\n(as psssp-sim score)")
      ->type_name("F");
}

void check_options(const BenchOptions& o) {
  if (!o.routes.empty() && o.fabric.empty())
    throw cli::UsageError("--routes needs --fabric (the fabric the tables route)");
  if (!o.lids.empty() && o.fabric.empty()) throw cli::UsageError("--lids needs --fabric");
  if (o.bytes > kMaxBytes) throw cli::UsageError("--bytes: at most 1G");
}

}  // namespace psssp::bench
