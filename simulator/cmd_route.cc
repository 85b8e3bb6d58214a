// psssp-sim route FABRIC -o LFTS: P-SSSP forwarding tables for a fabric file,
// written in opensm-lfts.dump format (OpenSM loads it with -R file -U).
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "commands.h"
#include "fabric/canonical_order.h"
#include "formats/fabric_io.h"
#include "formats/guid_list.h"
#include "formats/lft_io.h"
#include "routing/option_names.h"
#include "routing/psssp_routing.h"

namespace psssp::sim {
namespace {

constexpr const char* kUsage =
    "usage: psssp-sim route FABRIC -o LFTS [--lids FILE] [--nonminimal [--max-extra-hops N]]\n"
    "         [--capacity] [--switch-load] [--guid-file FILE [--guid-mode priority|only]]\n"
    "         [--refine N] [--effort auto|full|fast] [--affinity SOURCE,ROOT]\n"
    "         [--order auto|switches|interleaved|lid] [--threads N]\n"
    "\n"
    "Computes P-SSSP routes (one load-weighted shortest-path search per destination\n"
    "LID) and writes them as an opensm-lfts.dump file. Summary on stderr.\n"
    "  -o, --output LFTS   where to write the tables (opensm-lfts.dump format, loads\n"
    "                      with opensm -R file -U LFTS)\n"
    "  --lids FILE         LIDs from an opensm-subnet.lst or guid2lid file\n"
    "  --nonminimal        allow paths longer than the shortest\n"
    "  --max-extra-hops N  with --nonminimal: at most N hops longer (default 2)\n"
    "  --capacity          weigh link load by link capacity\n"
    "  --switch-load       routes to switch LIDs add load too\n"
    "  --guid-file FILE    port GUIDs (cn_guid_file format)\n"
    "  --guid-mode M       priority (default): route the listed ports first;\n"
    "                      only: only their traffic adds load\n"
    "  --refine N          rip-up-and-reroute passes, at most (default 8; stops at a\n"
    "                      pass that changes no table)\n"
    "  --effort E          full: endpoint affinity and all refinement passes; fast:\n"
    "                      neither, one refinement pass keeping ties; auto\n"
    "                      (default): full up to about 1000 hosts (2e6\n"
    "                      shortest-path edges per pass)\n"
    "  --affinity S,R      endpoint-affinity strengths (default 3,1; 0,0 = off)\n"
    "  --order O           destination order: switches (all LIDs of a switch in a\n"
    "                      row), interleaved (round robin over switches), lid, or\n"
    "                      auto (default): switches, and with full effort also\n"
    "                      interleaved, keeping the higher estimated eBB\n"
    "  --threads N         worker threads, 0 = all cores (default 0); same result\n";

struct Usage {
  std::string message;
};

// An option value from option_names.h, or Usage listing the accepted words.
template <typename Parse, typename Choices>
auto parse_choice(const std::string& opt, const std::string& word, Parse parse, Choices choices) {
  const auto value = parse(word);
  if (!value) throw Usage{opt + " is " + choices() + ", not '" + word + "'"};
  return *value;
}

unsigned parse_count(const char* opt, const char* text) {
  char* end = nullptr;
  const unsigned long v = std::strtoul(text, &end, 10);
  if (!*text || *end || v > 1000000 || text[0] == '-')
    throw Usage{std::string(opt) + " wants a non-negative number, not '" + text + "'"};
  return static_cast<unsigned>(v);
}

struct Args {
  std::string fabric, output, lids, guid_file;
  RoutingOptions options;
};

Args parse(int argc, char** argv) {
  Args a;
  std::string guid_mode;
  for (int i = 1; i < argc; ++i) {
    const std::string opt = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) throw Usage{opt + " needs a value"};
      return argv[++i];
    };
    if (opt == "-o" || opt == "--output") {
      a.output = value();
    } else if (opt == "--lids") {
      a.lids = value();
    } else if (opt == "--nonminimal") {
      a.options.minimal = false;
    } else if (opt == "--max-extra-hops") {
      a.options.max_extra_hops = parse_count(argv[i], value());
    } else if (opt == "--capacity") {
      a.options.capacity_weights = true;
    } else if (opt == "--switch-load") {
      a.options.switch_lids_load = true;
    } else if (opt == "--guid-file") {
      a.guid_file = value();
    } else if (opt == "--guid-mode") {
      guid_mode = value();
      if (guid_mode == "priority")
        a.options.guid_list_mode = RoutingOptions::GuidListMode::priority;
      else if (guid_mode == "only")
        a.options.guid_list_mode = RoutingOptions::GuidListMode::only;
      else
        throw Usage{"--guid-mode is priority or only, not '" + guid_mode + "'"};
    } else if (opt == "--refine") {
      a.options.refine_passes = parse_count(argv[i], value());
    } else if (opt == "--effort") {
      a.options.effort = parse_choice(opt, value(), parse_effort, effort_choices);
    } else if (opt == "--affinity") {
      const std::string v = value();
      char* end = nullptr;
      const double source = std::strtod(v.c_str(), &end);
      const char* rest = end;
      const double root = *rest == ',' ? std::strtod(rest + 1, &end) : -1.0;
      if (*rest != ',' || *end != '\0' || end == rest + 1 || !(source >= 0.0) || !(root >= 0.0) ||
          source > 1e6 || root > 1e6)
        throw Usage{"--affinity is SOURCE,ROOT (two numbers >= 0), not '" + v + "'"};
      a.options.source_affinity = source;
      a.options.root_affinity = root;
    } else if (opt == "--order") {
      a.options.order = parse_choice(opt, value(), parse_order, order_choices);
    } else if (opt == "--threads") {
      a.options.threads = parse_count(argv[i], value());
    } else if (opt.size() > 1 && opt[0] == '-') {
      throw Usage{"unknown option " + opt};
    } else if (a.fabric.empty()) {
      a.fabric = opt;
    } else {
      throw Usage{"unexpected argument '" + opt + "'"};
    }
  }
  if (a.fabric.empty()) throw Usage{"no fabric file given"};
  if (a.output.empty()) throw Usage{"no output file given (-o LFTS)"};
  if (!guid_mode.empty() && a.guid_file.empty()) throw Usage{"--guid-mode needs --guid-file"};
  return a;
}

// Load summary over the switch-to-switch channels.
void print_summary(const Fabric& fabric, const RoutingResult& r, const std::string& output) {
  double max_load = 0.0, sum = 0.0;
  std::size_t links = 0;
  for (ChannelId c = 0; c < r.channel_load.size(); ++c) {
    const PortRef ref = fabric.channel_port(c);
    const Node& node = fabric.node(ref.node);
    if (!node.is_switch() || ref.port == 0) continue;
    const Port& port = node.ports[ref.port];
    if (!port.usable() || !fabric.node(port.remote.node).is_switch()) continue;
    max_load = std::max(max_load, r.channel_load[c]);
    sum += r.channel_load[c];
    ++links;
  }
  std::fprintf(
      stderr,
      "psssp-sim route: %zu switches, LIDs up to %zu, routed in %.3f s; switch links: %zu, "
      "routes per link max %.0f mean %.1f; %zu unreachable; wrote %s\n",
      fabric.switches().size(), static_cast<std::size_t>(fabric.max_lid()), r.seconds, links,
      max_load, links ? sum / static_cast<double>(links) : 0.0, r.unreachable.size(),
      output.c_str());
  std::fprintf(stderr, "  %s effort, %u refinement pass%s%s; order %s",
               r.full_effort ? "full" : "fast", r.refine_passes_run,
               r.refine_passes_run == 1 ? "" : "es",
               r.converged ? " (converged: the last changed no table)" : "", order_name(r.order));
  if (r.estimate_switches >= 0.0)
    std::fprintf(stderr, " (estimated eBB: switches %.4f, interleaved %.4f)", r.estimate_switches,
                 r.estimate_interleaved);
  std::fprintf(stderr, "\n");
  const std::size_t shown = std::min<std::size_t>(r.unreachable.size(), 5);
  for (std::size_t i = 0; i < shown; ++i)
    std::fprintf(stderr, "  unreachable: %s\n", r.unreachable[i].c_str());
  if (shown < r.unreachable.size())
    std::fprintf(stderr, "  ... and %zu more\n", r.unreachable.size() - shown);
}

}  // namespace

int run_route(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
      std::fputs(kUsage, stdout);
      return 0;
    }
  Args args;
  try {
    args = parse(argc, argv);
  } catch (const Usage& u) {
    std::fprintf(stderr, "psssp-sim route: %s\n%s", u.message.c_str(), kUsage);
    return 2;
  }
  Fabric as_read = read_fabric(args.fabric);
  if (!args.lids.empty()) apply_lid_file(as_read, args.lids);
  // Route in node-GUID order, as the OpenSM plugin does, so both give the same tables.
  const Fabric fabric = sorted_by_guid(as_read);
  if (!args.guid_file.empty()) args.options.guid_list = read_guid_list(args.guid_file);

  const RoutingResult result = route_psssp(fabric, args.options);

  std::ofstream out(args.output, std::ios::binary | std::ios::trunc);
  if (!out) throw InputError("cannot write " + args.output + ": " + std::strerror(errno));
  write_lfts(out, fabric, result.lfts);
  out.close();
  if (!out) throw InputError("error writing " + args.output);
  print_summary(fabric, result, args.output);
  return 0;
}

}  // namespace psssp::sim
