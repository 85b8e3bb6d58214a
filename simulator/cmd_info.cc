// psssp-sim info FABRIC [--lids FILE]: what a fabric file holds.
#include <cstdio>
#include <cstring>
#include <map>
#include <string>

#include "commands.h"
#include "formats/fabric_io.h"

namespace psssp::sim {
namespace {

void usage(std::FILE* out) {
  std::fprintf(out,
               "usage: psssp-sim info FABRIC [--lids FILE]\n"
               "  FABRIC  ibnetdiscover output, ibsim net file or opensm-subnet.lst\n"
               "  --lids  take LIDs from opensm-subnet.lst or OpenSM's guid2lid file\n");
}

}  // namespace

int run_info(int argc, char** argv) {
  const char* fabric_path = nullptr;
  const char* lid_path = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    }
    if (!std::strcmp(argv[i], "--lids")) {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "psssp-sim info: --lids needs a file\n");
        return 2;
      }
      lid_path = argv[++i];
    } else if (argv[i][0] == '-' || fabric_path) {
      std::fprintf(stderr, "psssp-sim info: unexpected argument '%s'\n", argv[i]);
      usage(stderr);
      return 2;
    } else {
      fabric_path = argv[i];
    }
  }
  if (!fabric_path) {
    usage(stderr);
    return 2;
  }
  // Input errors reach main(), which prints them as one line and exits 1.
  const std::string content = read_file(fabric_path);
  const FabricFormat format = detect_fabric_format(content, fabric_path);
  Fabric fabric = parse_fabric(content, fabric_path);
  if (lid_path) apply_lid_file(fabric, lid_path);

  std::size_t cas = 0, routers = 0, cables = 0, unhealthy = 0;
  std::map<std::string, std::size_t> by_rate;
  for (NodeId id = 0; id < fabric.node_count(); ++id) {
    const Node& n = fabric.node(id);
    if (n.type == NodeType::ca) ++cas;
    if (n.type == NodeType::router) ++routers;
    for (PortNum p = 1; p <= n.num_ports(); ++p) {
      const Port& port = n.ports[p];
      if (!port.connected()) continue;
      // Count each cable once, from its lower end.
      if (port.remote.node < id || (port.remote.node == id && port.remote.port < p)) continue;
      ++cables;
      if (!port.healthy) ++unhealthy;
      ++by_rate[port.rate.to_string()];
    }
  }
  Lid min_lid = 0;
  for (Lid lid = 1; lid <= fabric.max_lid() && !min_lid; ++lid)
    if (fabric.port_of_lid(lid).valid()) min_lid = lid;

  std::printf("fabric:     %s (%s)\n", fabric_path, std::string(format_name(format)).c_str());
  if (lid_path) std::printf("lids from:  %s\n", lid_path);
  std::printf("switches:   %zu\n", fabric.switches().size());
  std::printf("CAs:        %zu\n", cas);
  if (routers) std::printf("routers:    %zu\n", routers);
  std::printf("host ports: %zu\n", fabric.host_ports().size());
  std::printf("cables:     %zu", cables);
  if (unhealthy) std::printf(" (%zu down)", unhealthy);
  std::printf("\n");
  for (const auto& [rate, count] : by_rate) std::printf("  %-10s %zu\n", rate.c_str(), count);
  if (min_lid)
    std::printf("LIDs:       %u..%u\n", static_cast<unsigned>(min_lid),
                static_cast<unsigned>(fabric.max_lid()));
  else
    std::printf("LIDs:       none\n");
  std::printf("warnings:   %zu\n", fabric.warnings.size());
  for (const std::string& w : fabric.warnings) std::printf("  %s\n", w.c_str());
  return 0;
}

}  // namespace psssp::sim
