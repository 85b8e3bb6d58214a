// psssp-topo: generates a topology family and writes it as an ibsim net file.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "builder.h"
#include "failures.h"
#include "formats/fabric_io.h"
#include "registry.h"

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

double parse_fraction(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v >= 0.0 && v <= 1.0))
    throw std::invalid_argument("--fail: \"" + text + "\" is not a fraction in [0, 1]");
  return v;
}

int run(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    usage(argc < 2 ? std::cerr : std::cout);
    return argc < 2 ? 2 : 0;
  }
  const std::string family = argv[1];
  std::string output = "-", roots, torus_conf;
  double fail = 0.0;
  BuildOptions build;
  Params params;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--dual-port") {
      build.dual_port = true;
      continue;
    }
    if (arg.size() < 2 || arg[0] != '-')
      throw std::invalid_argument("unexpected argument \"" + arg + "\"");
    if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
    const std::string value = argv[++i];
    if (arg == "-o")
      output = value;
    else if (arg == "--fail")
      fail = parse_fraction(value);
    else if (arg == "--roots")
      roots = value;
    else if (arg == "--torus-conf")
      torus_conf = value;
    else if (arg.rfind("--", 0) == 0)
      params.set(arg.substr(2), value);
    else
      throw std::invalid_argument("unknown option " + arg);
  }
  const std::uint64_t seed = params.get_u64("seed", 1);  // --fail and random-regular
  const TopologySpec spec = generate(family, params);
  Fabric fabric = build_fabric(spec, build);
  const std::size_t removed = fail > 0.0 ? fail_cables(fabric, fail, seed) : 0;

  std::ostringstream net;
  write_ibsim_net(net, fabric);
  if (!roots.empty()) {
    std::ostringstream text;
    write_root_guids(text, fabric, spec);
    write_file(roots, text.str());
  }
  if (!torus_conf.empty()) {
    std::ostringstream text;
    write_torus_conf(text, fabric, spec);
    write_file(torus_conf, text.str());
  }
  write_file(output, net.str());
  std::cerr << family << ": " << fabric.switches().size() << " switches, "
            << fabric.node_count() - fabric.switches().size() << " hosts";
  if (removed) std::cerr << ", " << removed << " switch cables removed";
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
