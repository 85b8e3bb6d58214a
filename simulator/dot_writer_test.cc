// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "dot_writer.h"

#include <gtest/gtest.h>

#include <sstream>

#include "formats/fabric_io.h"
#include "testing/chain.h"

namespace psssp::sim {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string line_with(const std::string& text, const std::string& what) {
  const std::size_t at = text.find(what);
  if (at == std::string::npos) return "";
  const std::size_t begin = text.rfind('\n', at) + 1;
  return text.substr(begin, text.find('\n', at) - begin);
}

TEST(DotWriter, SwitchGraphWithoutLoads) {
  const testing::Chain c = testing::make_chain(3, 2);
  std::ostringstream out;
  write_fabric_dot(out, c.fabric, DotOptions{"chain \"3\"", nullptr});
  const std::string dot = out.str();
  EXPECT_EQ(dot.rfind("// psssp-sim convert --format dot: 3 switches, 2 switch-to-switch", 0), 0u)
      << dot;
  EXPECT_NE(dot.find("graph fabric {"), std::string::npos);
  EXPECT_EQ(count(dot, " -- "), 2u) << dot;  // two cables between switches, no host drawn
  EXPECT_NE(dot.find("layout=neato"), std::string::npos);  // a chain is no fat tree
  EXPECT_NE(dot.find("label=\"chain \\\"3\\\"\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("s0 [guid=\"0x5053570000000000\", hosts=2, label=\"sw-0\\n2 hosts\""),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find("s0 -- s1 [ports=\"3:4\", gbps=32"), std::string::npos) << dot;
  EXPECT_EQ(dot.find("load"), std::string::npos);
  EXPECT_EQ(dot.substr(dot.size() - 2), "}\n");
}

TEST(DotWriter, LoadsColourTheBusiestCableRed) {
  const testing::Chain c = testing::make_chain(3, 2);
  LinkLoads loads;
  loads[{0x5053570000000000, 3}] = 1.5;  // switch 0 -> switch 1
  loads[{0x5053570000000001, 4}] = 0.5;  // switch 1 -> switch 0
  loads[{0x5053570000000001, 3}] = 3.0;  // switch 1 -> switch 2: the busiest
  loads[{0x5053570000000000, 1}] = 7.0;  // switch 0 -> its first host
  std::ostringstream out;
  write_fabric_dot(out, c.fabric, DotOptions{"", &loads});
  const std::string dot = out.str();
  const std::string first = line_with(dot, "s0 -- s1");
  EXPECT_NE(first.find("load_fwd=1.5, load_back=0.5, load=1.5"), std::string::npos) << first;
  EXPECT_NE(first.find("color=\"0.333 0.850 0.850\""), std::string::npos) << first;  // half
  const std::string second = line_with(dot, "s1 -- s2");
  EXPECT_NE(second.find("load=3,"), std::string::npos) << second;
  EXPECT_NE(second.find("color=\"0.000 0.850 0.850\", penwidth=5"), std::string::npos) << second;
  EXPECT_NE(line_with(dot, "s0 [").find("host_load=7"), std::string::npos) << dot;
  EXPECT_NE(dot.find("psssp_busiest=3"), std::string::npos);
  // The colour scale: idle blue at 0 .. red at the busiest cable's load.
  const std::string legend = line_with(dot, "legend [");
  EXPECT_NE(legend.find("BGCOLOR=\"0.667 0.850 0.850\">0<"), std::string::npos) << legend;
  EXPECT_NE(legend.find("BGCOLOR=\"0.333 0.850 0.850\">1.5<"), std::string::npos) << legend;
  EXPECT_NE(legend.find("BGCOLOR=\"0.000 0.850 0.850\">3<"), std::string::npos) << legend;
}

TEST(LinkLoads, ReadsScoreAndCheckFiles) {
  const std::string score =
      "routing,node_guid,node,port,remote_guid,remote,remote_port,gbps,mean_flows,max_flows,kind\n"
      "a,0x0000000000001000,\"sw, 0\",3,0x0000000000001001,sw1,4,32,1.250000,3,switch\n"
      "b,0x0000000000001000,\"sw, 0\",3,0x0000000000001001,sw1,4,32,9.000000,9,switch\n";
  const LinkLoads first = read_link_loads(score, "s.csv", "");
  ASSERT_EQ(first.size(), 1u);
  EXPECT_DOUBLE_EQ(first.at({0x1000, 3}), 1.25);
  EXPECT_DOUBLE_EQ(read_link_loads(score, "s.csv", "b").at({0x1000, 3}), 9.0);
  EXPECT_THROW(read_link_loads(score, "s.csv", "c"), InputError);
  const std::string check =
      "node_guid,node,port,remote_guid,remote,remote_port,gbps,routes,kind\n"
      "0x0000000000001001,sw1,3,0x0000000000001002,sw2,4,32,8,switch\n";
  EXPECT_DOUBLE_EQ(read_link_loads(check, "c.csv", "").at({0x1001, 3}), 8.0);
  try {
    read_link_loads("node_guid,port,routes\n0x10,x,1\n", "bad.csv", "");
    FAIL() << "a bad port was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.csv:2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_link_loads("a,b\n1,2\n", "x.csv", ""), InputError);
}

}  // namespace
}  // namespace psssp::sim
