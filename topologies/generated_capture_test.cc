// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Generated fabrics read back with the project's readers: the ibsim net file
// the writer produces, and ibnetdiscover captures of generated fabrics run in
// ibsim (testdata/capture.py) - both must equal the generator's Fabric.
#include <gtest/gtest.h>

#include <sstream>

#include "cli.h"
#include "formats/fabric_io.h"
#include "registry.h"
#include "testing/fabric_compare.h"

namespace psssp::topo {
namespace {

Generated generate_args(const std::string& command_line) {
  std::istringstream in(command_line);
  std::vector<std::string> args;
  for (std::string word; in >> word;) args.push_back(word);
  CliOptions options = parse_cli(args);
  return generate_fabric(options);
}

TEST(WriterRoundTrip, EveryFamilyReadsBackIdentical) {
  for (const FamilyInfo& family : families())
    for (const char* extra : {"", " --dual-port --fail 0.1 --seed 3"}) {
      const std::string args = family.name + std::string(extra);
      SCOPED_TRACE(args);
      const Generated g = generate_args(args);
      std::ostringstream net;
      write_ibsim_net(net, g.fabric);
      const Fabric back = parse_fabric(net.str(), args);
      EXPECT_EQ(test::fabric_diff(g.fabric, back), "");
      EXPECT_EQ(back.node(0).name, "h-0");  // first record
    }
}

TEST(WriterRoundTrip, ComparisonSeesDifferences) {
  const Generated a = generate_args("torus --fail 0.2 --seed 3");
  const Generated b = generate_args("torus --fail 0.2 --seed 4");
  EXPECT_NE(test::fabric_diff(a.fabric, b.fabric).find("missing cable 0x505357"),
            std::string::npos);
  const Generated c = generate_args("torus --hosts-per-switch 2");
  EXPECT_NE(test::fabric_diff(c.fabric, a.fabric).find("unexpected"), std::string::npos);
}

class Capture : public ::testing::TestWithParam<const char*> {};

TEST_P(Capture, IbnetdiscoverSeesTheGeneratedFabric) {
  const std::string path =
      std::string(PSSSP_SOURCE_DIR) + "/topologies/testdata/" + GetParam() + ".ibnetdiscover";
  const std::string text = read_file(path);
  // The first line holds the psssp-topo arguments the capture was made with.
  const std::string prefix = "# psssp-topo ";
  ASSERT_EQ(text.rfind(prefix, 0), 0u);
  const Generated g = generate_args(text.substr(prefix.size(), text.find('\n') - prefix.size()));
  EXPECT_EQ(detect_fabric_format(text, path), FabricFormat::ibnetdiscover);
  EXPECT_EQ(test::fabric_diff(g.fabric, parse_fabric(text, path)), "");
}

INSTANTIATE_TEST_SUITE_P(Generated, Capture, ::testing::Values("fattree2-dual", "torus-failed"));

}  // namespace
}  // namespace psssp::topo
