// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "report.h"

#include <cmath>
#include <cstdio>
#include <ostream>

#include "cli/json_report.h"
#include "output_util.h"
#include "stats.h"

namespace psssp::bench {
namespace {

std::vector<double> measured_values(const Report& r) {
  std::vector<double> v;
  for (const RunResult& run : r.run_results) v.push_back(run.measured);
  return v;
}

std::vector<double> predicted_values(const Report& r) {
  std::vector<double> v;
  for (const RunResult& run : r.run_results)
    if (run.predicted) v.push_back(*run.predicted);
  return v;
}

double mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? 0.0 : sum / static_cast<double>(v.size());
}

cli::Json optional_number(std::optional<double> v) {
  return v && std::isfinite(*v) ? cli::Json(*v) : cli::Json();
}

std::string fixed(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

void normalise(Report& report) {
  for (RunResult& run : report.run_results) {
    double sum = 0;
    for (const FlowResult& f : run.flows) sum += f.gbps / report.reference_gbps;
    // A run without flows (a phase where every rank idles) counts as 1, as
    // in psssp-sim score.
    run.measured = run.flows.empty() ? 1.0 : sum / static_cast<double>(run.flows.size());
  }
}

double measured_ebb(const Report& report) { return mean(measured_values(report)); }

std::optional<double> predicted_ebb(const Report& report) {
  const std::vector<double> p = predicted_values(report);
  if (p.empty() || p.size() != report.run_results.size()) return std::nullopt;
  return mean(p);
}

std::optional<double> correlation(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size() || a.size() < 2) return std::nullopt;
  const double ma = mean(a), mb = mean(b);
  double sab = 0, saa = 0, sbb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) * (a[i] - ma);
    sbb += (b[i] - mb) * (b[i] - mb);
  }
  if (saa <= 0 || sbb <= 0) return std::nullopt;
  return sab / std::sqrt(saa * sbb);
}

std::optional<double> run_correlation(const Report& report) {
  if (!predicted_ebb(report)) return std::nullopt;
  return correlation(measured_values(report), predicted_values(report));
}

void write_json(std::ostream& out, const Report& r) {
  const BenchOptions& o = *r.options;
  const sim::Summary measured = sim::summarize(measured_values(r));
  cli::Json report = cli::json_report();
  report["program"] = "psssp-bench";
  report["fabric"] = o.fabric.empty() ? cli::Json() : cli::Json(o.fabric);
  report["routes"] = o.routes.empty() ? cli::Json() : cli::Json(o.routes);
  report["map"] = o.map.empty() ? cli::Json() : cli::Json(o.map);
  report["pattern"] = o.pattern;
  report["random"] = r.random;
  report["seed"] = o.seed;
  report["ranks"] = r.ranks;
  report["run_count"] = r.runs;
  report["bytes"] = o.bytes;
  report["iterations"] = o.iterations;
  report["warmup_runs"] = o.warmup;
  report["measured_ebb"] = measured_ebb(r);
  report["measured_ci95"] = {measured.ci95_low, measured.ci95_high};
  report["predicted_ebb"] = optional_number(predicted_ebb(r));
  report["correlation"] = optional_number(run_correlation(r));
  report["reference_gbps"] = r.reference_gbps;
  report["reference"] = {{"src_rank", 0},
                         {"dst_rank", 1},
                         {"src_lid", r.lid.at(0)},
                         {"dst_lid", r.lid.at(1)},
                         {"gbps", r.reference_each}};
  report["timing"] = {
      {"setup_seconds", r.timing.setup},
      {"loop_seconds", r.timing.loop},
      {"transfer_seconds", r.timing.transfers},
      {"overhead_per_run_us",
       r.runs ? (r.timing.loop - r.timing.transfers) / static_cast<double>(r.runs) * 1e6 : 0.0},
      {"bookkeeping_per_run_us", r.timing.bookkeeping * 1e6},
      {"allreduce_us", r.timing.allreduce * 1e6},
      {"total_seconds", r.timing.total}};
  cli::Json& ports = report["rank_ports"] = cli::Json::array();
  for (std::size_t i = 0; i < r.ranks; ++i)
    ports.push_back({{"rank", i},
                     {"guid", r.guid[i] ? cli::Json(sim::hex_guid(r.guid[i])) : cli::Json()},
                     {"lid", r.lid[i]}});
  // The runs are streamed one by one: a tree of every flow of 1000 runs of
  // 4096 ranks would take far more memory than the text.
  report["runs"] = cli::Json::array();
  std::string text = report.dump(-1, ' ', false, cli::Json::error_handler_t::replace);
  text.resize(text.size() - 2);  // the empty array's "]}"
  out << text;
  for (std::size_t i = 0; i < r.run_results.size(); ++i) {
    const RunResult& run = r.run_results[i];
    cli::Json flows = cli::Json::array();
    for (const FlowResult& f : run.flows)
      flows.push_back({{"src_rank", f.src},
                       {"dst_rank", f.dst},
                       {"src_lid", f.src_lid},
                       {"dst_lid", f.dst_lid},
                       {"gbps", f.gbps}});
    const cli::Json entry = {{"run", i},
                             {"measured_ebb", run.measured},
                             {"predicted_ebb", optional_number(run.predicted)},
                             {"flows", std::move(flows)}};
    out << (i ? "," : "") << entry.dump();
  }
  out << "]}\n";
}

void write_csv(std::ostream& out, const Report& r) {
  out << "run,flows,measured_ebb,predicted_ebb\n";
  for (std::size_t i = 0; i < r.run_results.size(); ++i) {
    const RunResult& run = r.run_results[i];
    out << i << ',' << run.flows.size() << ',' << sim::csv_number(run.measured) << ','
        << (run.predicted ? sim::csv_number(*run.predicted) : "") << '\n';
  }
}

void write_summary(std::ostream& out, const Report& r) {
  const BenchOptions& o = *r.options;
  const sim::Summary m = sim::summarize(measured_values(r));
  out << "psssp-bench: " << r.ranks << " ranks, pattern " << o.pattern << ", " << r.runs
      << " runs, seed " << o.seed << ", " << o.iterations << " x " << size_text(o.bytes)
      << " per flow and run, " << o.warmup << " warm-up runs\n";
  out << "reference: rank 0 -> rank 1 (LID " << r.lid.at(0) << " -> " << r.lid.at(1)
      << "): " << fixed(r.reference_gbps, 3) << " Gb/s (best of " << r.reference_each.size()
      << ")\n";
  out << "measured eBB:  " << fixed(m.mean, 6) << " [" << fixed(m.ci95_low, 6) << ", "
      << fixed(m.ci95_high, 6) << "], runs " << fixed(m.min, 4) << " .. " << fixed(m.max, 4)
      << "\n";
  if (const auto p = predicted_ebb(r)) {
    out << "predicted eBB: " << fixed(*p, 6) << " (psssp-sim score, " << o.routes << ")\n";
    const auto c = run_correlation(r);
    out << "correlation of run values (Pearson): "
        << (c ? fixed(*c, 4) : std::string("undefined (a side does not vary)")) << "\n";
  }
  const double overhead =
      r.runs ? (r.timing.loop - r.timing.transfers) / static_cast<double>(r.runs) : 0.0;
  out << "time: " << fixed(r.timing.total, 2) << " s total, " << fixed(r.timing.setup, 2)
      << " s setup, " << fixed(r.timing.loop, 2) << " s runs of which "
      << fixed(r.timing.transfers, 2) << " s transfers; per run " << fixed(overhead * 1e6, 1)
      << " us overhead (bookkeeping " << fixed(r.timing.bookkeeping * 1e6, 1) << " us, one barrier "
      << fixed(r.timing.allreduce * 1e6, 1) << " us)\n";
}

void write_patterns(std::ostream& out, const Report& r) {
  const BenchOptions& o = *r.options;
  out << "# psssp-bench flows: one line per run, src_lid:dst_lid; pattern=" << o.pattern
      << " seed=" << o.seed << " runs=" << r.runs << " ranks=" << r.ranks << "\n";
  std::string line;
  for (const RunResult& run : r.run_results) {
    line.clear();
    for (std::size_t i = 0; i < run.flows.size(); ++i) {
      if (i) line += ' ';
      line += std::to_string(run.flows[i].src_lid);
      line += ':';
      line += std::to_string(run.flows[i].dst_lid);
    }
    out << line << '\n';
  }
}

}  // namespace psssp::bench
