// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// write_ibsim_net, checked on the text ibsim's parser (sim_net.c) reads.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

#include "builder.h"
#include "families.h"
#include "formats/fabric_io.h"
#include "params.h"
#include "registry.h"
#include "testing/topology_checks.h"

namespace psssp::topo {
namespace {

struct Record {
  std::string type, name, guid_line;
  unsigned ports = 0;
  std::map<unsigned, std::pair<std::string, unsigned>> links;
};

// Minimal reading of the records the writer produces.
std::vector<Record> parse(const std::string& text) {
  std::vector<Record> records;
  std::istringstream in(text);
  std::string line, pending_guid;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (line.find("guid=") != std::string::npos) {
      pending_guid = line;
    } else if (line[0] == '[') {
      const unsigned port = static_cast<unsigned>(std::stoul(line.substr(1)));
      const auto q1 = line.find('"'), q2 = line.find('"', q1 + 1);
      const unsigned remote =
          static_cast<unsigned>(std::stoul(line.substr(line.find('[', q2) + 1)));
      EXPECT_TRUE(records.back()
                      .links.emplace(port, std::make_pair(line.substr(q1 + 1, q2 - q1 - 1), remote))
                      .second);
    } else {
      Record r;
      std::istringstream header(line);
      header >> r.type >> r.ports;
      const auto q1 = line.find('"'), q2 = line.find('"', q1 + 1);
      r.name = line.substr(q1 + 1, q2 - q1 - 1);
      r.guid_line = pending_guid;
      pending_guid.clear();
      records.push_back(r);
    }
  }
  return records;
}

std::string net_of(const Fabric& f) {
  std::ostringstream out;
  write_ibsim_net(out, f);
  return out.str();
}

TEST(NetWriter, EveryFamilyStartsWithAHostAndHasValidPorts) {
  for (const FamilyInfo& family : families()) {
    Params params;
    const Fabric f = build_fabric(generate(family.name, params), test::dual_port());
    const std::vector<Record> records = parse(net_of(f));
    ASSERT_EQ(records.size(), f.node_count()) << family.name;
    EXPECT_EQ(records.front().type, "Ca") << family.name;
    std::map<std::string, const Record*> by_name;
    for (const Record& r : records) by_name[r.name] = &r;
    for (const Record& r : records) {
      EXPECT_GE(r.ports, 1u);
      EXPECT_LE(r.ports, 254u);
      const Node& node = f.node(*f.find_by_name(r.name));
      char guid[64];
      std::snprintf(guid, sizeof guid, "%s=0x%016llx", r.type == "Switch" ? "switchguid" : "caguid",
                    static_cast<unsigned long long>(node.guid));
      EXPECT_EQ(r.guid_line, guid);
      for (const auto& [port, remote] : r.links) {
        EXPECT_GE(port, 1u);
        EXPECT_LE(port, r.ports) << family.name << " " << r.name;
        const Record* far = by_name.at(remote.first);
        ASSERT_TRUE(far->links.count(remote.second)) << r.name << "[" << port << "]";
        EXPECT_EQ(far->links.at(remote.second), std::make_pair(r.name, port));
      }
    }
  }
}

TEST(NetWriter, RatesGoToBothEnds) {
  Fabric f;
  const NodeId h = f.add_node(NodeType::ca, "h", 1), s = f.add_node(NodeType::switch_node, "s", 4);
  f.connect({h, 1}, {s, 3}, {LinkWidth::x12, LinkSpeed::ddr});
  const std::string text = net_of(f);
  EXPECT_NE(text.find("[1]\t\"s\"[3]\tw=8\ts=2\n"), std::string::npos) << text;
  EXPECT_NE(text.find("[3]\t\"h\"[1]\tw=8\ts=2\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("guid="), std::string::npos);  // GUID 0: ibsim picks one
}

// Every rate ibsim 0.10 has reads back (through ibsim's own rules, which the
// reader follows) as written; NDR and FDR10 run at the nearest rate ibsim
// has, and the report says so.
TEST(NetWriter, EveryRateIbsimHasReadsBack) {
  const LinkRate rates[] = {{LinkWidth::x1, LinkSpeed::sdr},  {LinkWidth::x2, LinkSpeed::qdr},
                            {LinkWidth::x4, LinkSpeed::ddr},  {LinkWidth::x4, LinkSpeed::fdr},
                            {LinkWidth::x4, LinkSpeed::edr},  {LinkWidth::x8, LinkSpeed::hdr},
                            {LinkWidth::x12, LinkSpeed::qdr}, {LinkWidth::x4, LinkSpeed::ndr},
                            {LinkWidth::x4, LinkSpeed::fdr10}};
  Fabric f;
  const NodeId s = f.add_node(NodeType::switch_node, "s", 16);
  for (unsigned i = 0; i < std::size(rates); ++i) {
    const NodeId h = f.add_node(NodeType::ca, "h" + std::to_string(i), 1);
    f.connect({h, 1}, {s, static_cast<PortNum>(i + 1)}, rates[i]);
  }
  std::ostringstream out;
  const NetWriteReport report = write_ibsim_net(out, f);
  const Fabric back = parse_fabric(out.str(), "rates.net");
  const Node& sw = back.node(*back.find_by_name("s"));
  for (unsigned i = 0; i + 2 < std::size(rates); ++i)
    EXPECT_EQ(sw.ports[i + 1].rate, rates[i]) << rates[i].to_string();
  EXPECT_EQ(sw.ports[8].rate, (LinkRate{LinkWidth::x4, LinkSpeed::hdr}));
  EXPECT_EQ(sw.ports[9].rate, (LinkRate{LinkWidth::x4, LinkSpeed::qdr}));
  const std::map<std::string, std::size_t> expected{{"4xNDR as 4xHDR", 1}, {"4xFDR10 as 4xQDR", 1}};
  EXPECT_EQ(report.substituted, expected);
}

// ibsim attaches the SM to the first record's first port: never a CA whose
// port 1 is not cabled (public-3.topo's first CA uses only port 2).
TEST(NetWriter, FirstRecordIsACaWithPort1Cabled) {
  Fabric f;
  const NodeId s = f.add_node(NodeType::switch_node, "s", 4);
  const NodeId a = f.add_node(NodeType::ca, "a", 2), b = f.add_node(NodeType::ca, "b", 1);
  f.connect({a, 2}, {s, 1});
  f.connect({b, 1}, {s, 2});
  const auto records = parse(net_of(f));
  ASSERT_FALSE(records.empty());
  EXPECT_EQ(records.front().name, "b");
}

TEST(NetWriter, RejectsNamesIbsimCannotRead) {
  Fabric f;
  const NodeId s = f.add_node(NodeType::switch_node, "sw", 4);
  f.node(s).description = "MF0;sw#1@rack:SX6036/U1";  // quoted: fine
  EXPECT_NE(net_of(f).find("Switch\t4 \"sw\"\t# \"MF0;sw#1@rack:SX6036/U1\""), std::string::npos);
  f.node(s).description = "say \"hi\"";
  EXPECT_THROW(net_of(f), FabricError);
  Fabric g;
  g.add_node(NodeType::switch_node, "bad#name", 4);
  EXPECT_THROW(net_of(g), FabricError);
}

TEST(NetWriter, AsksForLargerIbsimLimits) {
  const Fabric f = build_fabric(random_regular(300, 4, 1, 1));
  EXPECT_NE(net_of(f).find("# needs: ibsim -N 600 -S 300 -P "), std::string::npos);
}

}  // namespace
}  // namespace psssp::topo
