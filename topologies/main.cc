// psssp-topo: generates a topology family and writes it as an ibsim net file.
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "cli.h"
#include "formats/fabric_io.h"
#include "registry.h"
#include "side_files.h"

namespace {

using namespace psssp;
using namespace psssp::topo;

void usage(std::ostream& out) {
  out << "usage: psssp-topo FAMILY [--option value]... [-o FILE] [--fail FRACTION --seed S]\n"
         "                  [--dual-port] [--roots FILE] [--torus-conf FILE]\n"
         "families and their options (defaults shown):\n";
  for (const FamilyInfo& f : families()) out << "  " << f.name << ' ' << f.options << '\n';
  out << "see psssp-topo(1)\n";
}

// Writes via a temporary string so a failed generation leaves no partial file.
void write_file(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::cout << text;
    return;
  }
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path);
}

int run(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    usage(argc < 2 ? std::cerr : std::cout);
    return argc < 2 ? 2 : 0;
  }
  CliOptions options = parse_cli(std::vector<std::string>(argv + 1, argv + argc));
  const Generated g = generate_fabric(options);

  std::ostringstream net;
  write_ibsim_net(net, g.fabric);
  if (!options.roots.empty()) {
    std::ostringstream text;
    write_root_guids(text, g.fabric, g.spec);
    write_file(options.roots, text.str());
  }
  if (!options.torus_conf.empty()) {
    std::ostringstream text;
    write_torus_conf(text, g.fabric, g.spec);
    write_file(options.torus_conf, text.str());
  }
  write_file(options.output, net.str());
  std::cerr << options.family << ": " << g.fabric.switches().size() << " switches, "
            << g.fabric.node_count() - g.fabric.switches().size() << " hosts";
  if (g.removed) std::cerr << ", " << g.removed << " switch cables removed";
  std::cerr << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "psssp-topo: " << e.what() << '\n';
    return 1;
  }
}
