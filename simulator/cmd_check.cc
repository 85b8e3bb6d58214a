// psssp-sim check FABRIC --routes DUMP: trace every host-to-host route.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "cli_args.h"
#include "commands.h"
#include "deadlock_option.h"
#include "formats/fabric_io.h"
#include "formats/lft_io.h"
#include "output_util.h"
#include "route_checker.h"

namespace psssp::sim {
namespace {

constexpr const char* kUsage =
    "usage: psssp-sim check FABRIC --routes DUMP [--lids FILE] [--json] [--max-faults N]\n"
    "                       [--threads T] [--deadlock [--sl-file F | --layers F] [--sl2vl F]]\n"
    "\n"
    "Traces every ordered pair of host ports (every LID of an LMC range) through the\n"
    "LFTs and reports black holes, loops, wrong deliveries, routes over down links or\n"
    "unconnected ports, path lengths and the edge forwarding index. Exit status 1 if\n"
    "any pair fails.\n"
    "  --routes DUMP     LFT dump (opensm-lfts.dump, dump_fts or ibroute output)\n"
    "  --lids FILE       LIDs from opensm-subnet.lst or a guid2lid file\n"
    "  --json            one JSON object instead of text\n"
    "  --max-faults N    faults listed in full (default 20; counts cover all)\n"
    "  --threads T       worker threads (default: all cores)\n"
    "  --deadlock        also check for credit loops (cyclic channel dependencies per VL);\n"
    "                    exit status 1 and one concrete cycle if there is one\n"
    "  --sl-file F       SL per route: \"SLID DLID SL\" lines (default: SL 0 everywhere)\n"
    "  --layers F        SL per route from the psssp engine's layer table (psssp-layers.dump)\n"
    "  --sl2vl F         SL-to-VL maps from opensm-sl2vl.dump (default: identity)\n"
    "  --same-as DUMP2   also require DUMP2 (any LFT dump format) to hold the same\n"
    "                    port for every switch and LID; lists the first differences\n";

std::string channel_label(const Fabric& f, ChannelId c) {
  const PortRef p = f.channel_port(c);
  const PortRef r = f.port(p).remote;
  return describe_node(f, p.node) + " port " + std::to_string(p.port) + " -> " +
         describe_node(f, r.node) + " port " + std::to_string(r.port);
}

void print_json(const std::string& fabric_path, const std::string& routes, const Fabric& f,
                const CheckReport& r, const std::string& deadlock_json, double seconds) {
  std::printf("{\"fabric\":%s,\"routes\":%s,\"hosts\":%zu,\"pairs\":%llu,\"delivered\":%llu,",
              json_string(fabric_path).c_str(), json_string(routes).c_str(), f.host_ports().size(),
              static_cast<unsigned long long>(r.pairs),
              static_cast<unsigned long long>(r.delivered));
  std::printf("\"ok\":%s,\"failed_pairs\":{", r.ok() ? "true" : "false");
  for (int k = 1; k < kTraceStatusCount; ++k)
    std::printf("%s\"%s\":%llu", k > 1 ? "," : "", trace_status_key(static_cast<TraceStatus>(k)),
                static_cast<unsigned long long>(r.pairs_by_kind[k]));
  std::printf("},\"fault_count\":%llu,\"faults\":[",
              static_cast<unsigned long long>(r.fault_count));
  for (std::size_t i = 0; i < r.faults.size(); ++i) {
    const CheckFault& x = r.faults[i];
    std::printf("%s{\"kind\":\"%s\",\"pairs\":%llu,\"dlid\":%u,", i ? "," : "",
                trace_status_key(x.kind), static_cast<unsigned long long>(x.pairs),
                static_cast<unsigned>(x.dlid));
    if (x.source_switch != kNoNode)
      std::printf("\"source_switch_guid\":\"%s\",\"source_switch_lid\":%u,",
                  hex_guid(f.node(x.source_switch).guid).c_str(),
                  static_cast<unsigned>(f.node(x.source_switch).ports[0].lid));
    std::printf("\"source_port_guid\":\"%s\",\"message\":%s}",
                hex_guid(f.port(x.source).guid).c_str(), json_string(x.message).c_str());
  }
  std::printf("],\"hops\":{\"mean\":%s,\"max\":%u,\"minimal_share\":%s},",
              json_number(r.mean_hops).c_str(), r.max_hops, json_number(r.minimal_share).c_str());
  std::printf("\"edge_forwarding_index\":{\"max\":%llu,\"mean\":%s,\"links\":%zu",
              static_cast<unsigned long long>(r.efi_max), json_number(r.efi_mean).c_str(),
              r.switch_channels);
  if (r.switch_channels)
    std::printf(",\"max_link\":%s", json_string(channel_label(f, r.efi_max_channel)).c_str());
  std::printf("},");
  if (!deadlock_json.empty()) std::printf("\"deadlock\":%s,", deadlock_json.c_str());
  std::printf("\"seconds\":%s}\n", json_number(seconds).c_str());
}

void print_text(const Fabric& f, const CheckReport& r, double seconds) {
  std::printf("hosts: %zu   host pairs (per destination LID): %llu   traced in %.2f s\n",
              f.host_ports().size(), static_cast<unsigned long long>(r.pairs), seconds);
  if (r.ok()) {
    std::printf("all routes deliver\n");
  } else {
    std::printf("FAILED: %llu of %llu pairs do not deliver (%llu faulty traces)\n",
                static_cast<unsigned long long>(r.pairs - r.delivered),
                static_cast<unsigned long long>(r.pairs),
                static_cast<unsigned long long>(r.fault_count));
    for (int k = 1; k < kTraceStatusCount; ++k)
      if (r.pairs_by_kind[k])
        std::printf("  %-17s %llu pairs\n", trace_status_name(static_cast<TraceStatus>(k)),
                    static_cast<unsigned long long>(r.pairs_by_kind[k]));
    std::printf("first %zu faults:\n", r.faults.size());
    for (const CheckFault& x : r.faults)
      std::printf("  [%s] %s (%llu pairs)\n", trace_status_name(x.kind), x.message.c_str(),
                  static_cast<unsigned long long>(x.pairs));
  }
  std::printf("switch hops: mean %.3f, max %u; shortest-path share %.4f\n", r.mean_hops, r.max_hops,
              r.minimal_share);
  std::printf(
      "edge forwarding index (routes per directed switch link, %zu links): max %llu, mean %.2f\n",
      r.switch_channels, static_cast<unsigned long long>(r.efi_max), r.efi_mean);
  if (r.switch_channels && r.efi_max)
    std::printf("  busiest: %s\n", channel_label(f, r.efi_max_channel).c_str());
}

// Empty when both tables agree on every switch and LID; else the first
// differences, one per line.
std::string table_differences(const Fabric& f, const ForwardingTables& a, const ForwardingTables& b,
                              const std::string& name_a, const std::string& name_b) {
  std::string out;
  std::size_t count = 0;
  const std::size_t lids = std::max(a.lid_count(), b.lid_count());
  for (const NodeId sw : f.switches()) {
    for (std::size_t lid = 1; lid < lids; ++lid) {
      const PortNum pa = lid < a.lid_count() ? a.get(sw, static_cast<Lid>(lid)) : kNoPath;
      const PortNum pb = lid < b.lid_count() ? b.get(sw, static_cast<Lid>(lid)) : kNoPath;
      if (pa == pb) continue;
      if (++count <= 10)
        out += "differs: " + describe_node(f, sw) + " LID " + std::to_string(lid) + ": port " +
               (pa == kNoPath ? std::string("none") : std::to_string(pa)) + " in " + name_a + ", " +
               (pb == kNoPath ? std::string("none") : std::to_string(pb)) + " in " + name_b + "\n";
    }
  }
  if (count > 10) out += "differs: " + std::to_string(count) + " entries in all\n";
  return out;
}

int check(int argc, char** argv) {
  CliArgs args(argc, argv,
               {"--routes", "--lids", "--max-faults", "--threads", "--sl-file", "--layers",
                "--sl2vl", "--same-as"},
               {"--json", "--deadlock", "--help", "-h"});
  if (args.flag("--help") || args.flag("-h")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (args.positional().size() != 1 || !args.has("--routes"))
    throw UsageError("need FABRIC and --routes DUMP");
  const auto t0 = std::chrono::steady_clock::now();
  const std::string fabric_path = args.positional()[0];
  Fabric fabric = read_fabric(fabric_path);
  if (args.has("--lids")) apply_lid_file(fabric, args.get("--lids"));
  const ForwardingTables lfts = read_lfts(args.get("--routes"), fabric);
  const unsigned threads = static_cast<unsigned>(
      args.get_uint("--threads", std::max(1u, std::thread::hardware_concurrency())));
  const CheckReport report = check_routes(
      fabric, lfts, threads, static_cast<std::size_t>(args.get_uint("--max-faults", 20)));
  std::string differences;
  if (args.has("--same-as"))
    differences = table_differences(fabric, lfts, read_lfts(args.get("--same-as"), fabric),
                                    args.get("--routes"), args.get("--same-as"));
  DeadlockOutcome loops;
  if (args.flag("--deadlock"))
    loops = check_credit_loops(
        fabric, lfts,
        {args.get("--sl-file", ""), args.get("--layers", ""), args.get("--sl2vl", "")});
  else if (args.has("--sl-file") || args.has("--layers") || args.has("--sl2vl"))
    throw UsageError("--sl-file, --layers and --sl2vl need --deadlock");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (args.flag("--json")) {
    print_json(fabric_path, args.get("--routes"), fabric, report, loops.json, seconds);
  } else {
    print_text(fabric, report, seconds);
    std::fputs(loops.text.c_str(), stdout);
  }
  if (args.has("--same-as"))
    std::fputs(differences.empty() ? "tables identical\n" : differences.c_str(),
               args.flag("--json") ? stderr : stdout);
  return report.ok() && loops.deadlock_free && differences.empty() ? 0 : 1;
}

}  // namespace

int run_check(int argc, char** argv) {
  try {
    return check(argc, argv);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "psssp-sim check: %s\n%s", e.what(), kUsage);
    return 2;
  }
}

}  // namespace psssp::sim
