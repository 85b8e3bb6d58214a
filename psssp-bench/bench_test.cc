// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// psssp-bench's parts that need no MPI: sizes, map files, sysfs, the rank
// schedule against psssp-sim's generator, correlation.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli/command_line.h"
#include "host_ports.h"
#include "options.h"
#include "report.h"
#include "schedule.h"
#include "testing/chain.h"

namespace psssp::bench {
namespace {
namespace fs = std::filesystem;

fs::path temp_dir() {
  const fs::path d = fs::path(::testing::TempDir()) /
                     ("psssp_bench_" + std::to_string(::getpid()) + "_" +
                      ::testing::UnitTest::GetInstance()->current_test_info()->name());
  fs::create_directories(d);
  return d;
}

std::string write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
  return path.string();
}

TEST(BenchOptions, SizesTakeBinaryMultiples) {
  EXPECT_EQ(parse_size("--bytes", "4M"), 4u << 20);
  EXPECT_EQ(parse_size("--bytes", "512k"), 512u << 10);
  EXPECT_EQ(parse_size("--bytes", "1G"), 1u << 30);
  EXPECT_EQ(parse_size("--bytes", "100"), 100u);
  EXPECT_THROW(parse_size("--bytes", "4X"), cli::UsageError);
  EXPECT_THROW(parse_size("--bytes", "M"), cli::UsageError);
  EXPECT_THROW(parse_size("--bytes", "0"), cli::UsageError);
  EXPECT_THROW(parse_size("--bytes", "2G"), cli::UsageError);
  EXPECT_EQ(size_text(4u << 20), "4 MiB");
  EXPECT_EQ(size_text(1000), "1000 B");
}

TEST(BenchMap, ReadsRanksInAnyOrderAndNamesTheBadLine) {
  const fs::path d = temp_dir();
  const auto ports = read_map(write(d / "ok", "# rank port\n1 0x0002c90000000011\n0 7\n"), 2);
  EXPECT_EQ(ports[0].lid, 7u);
  EXPECT_EQ(ports[0].guid, 0u);
  EXPECT_EQ(ports[1].guid, 0x0002c90000000011u);
  auto message = [&](const std::string& text, std::size_t ranks) {
    try {
      read_map(write(d / "bad", text), ranks);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("0 5\n0 6\n", 2).find("bad:2: rank 0 again"), std::string::npos);
  EXPECT_NE(message("0 5\n2 6\n", 2).find("bad:2: rank 2, but there are 2 ranks"),
            std::string::npos);
  EXPECT_NE(message("0 5\n", 2).find("no line for rank 1"), std::string::npos);
  EXPECT_NE(message("0 5 6\n1 2\n", 2).find("bad:1: expected"), std::string::npos);
  EXPECT_NE(message("0 five\n1 2\n", 2).find("bad:1"), std::string::npos);
}

TEST(BenchPorts, FabricResolvesAndRefusesStrangersAndSharedPorts) {
  const auto chain = testing::make_chain(2, 2);
  const auto hosts = sim::select_hosts(chain.fabric, {});
  const Guid g0 = chain.fabric.port(hosts[0].port).guid;
  std::vector<PortId> ports = {{g0, 0, "m:1"}, {0, std::uint32_t{hosts[3].lid}, "m:2"}};
  const RankPorts r = resolve_ports(ports, &chain.fabric, hosts, "f.net");
  EXPECT_EQ(r.host, (std::vector<std::uint32_t>{0, 3}));
  EXPECT_EQ(r.lid,
            (std::vector<std::uint32_t>{std::uint32_t{hosts[0].lid}, std::uint32_t{hosts[3].lid}}));
  EXPECT_EQ(r.guid[1], chain.fabric.port(hosts[3].port).guid);

  ports[1] = {0x1234567890ull, 0, "m:2"};
  EXPECT_THROW(
      {
        try {
          resolve_ports(ports, &chain.fabric, hosts, "f.net");
        } catch (const std::runtime_error& e) {
          EXPECT_NE(std::string(e.what()).find("m:2: port GUID 0x0000001234567890 (rank 1) is "
                                               "not in f.net"),
                    std::string::npos);
          throw;
        }
      },
      std::runtime_error);
  ports[1] = {0, std::uint32_t{hosts[0].lid}, "m:2"};  // the GUID of rank 0 again, as its LID
  EXPECT_THROW(
      {
        try {
          resolve_ports(ports, &chain.fabric, hosts, "f.net");
        } catch (const std::runtime_error& e) {
          EXPECT_NE(std::string(e.what()).find("ranks 0 and 1 are on the same port"),
                    std::string::npos);
          throw;
        }
      },
      std::runtime_error);
  // Without a fabric: LIDs only.
  EXPECT_THROW(resolve_ports({{g0, 0, "m:1"}, {0, 5, "m:2"}}, nullptr, {}, ""), std::runtime_error);
  EXPECT_EQ(resolve_ports({{0, 4, "m:1"}, {0, 5, "m:2"}}, nullptr, {}, "").lid,
            (std::vector<std::uint32_t>{4, 5}));
}

TEST(BenchSysfs, FirstActiveInfiniBandPort) {
  const fs::path d = temp_dir() / "ib";
  auto port = [&](const std::string& dev, const std::string& p, const std::string& state,
                  const std::string& layer, const std::string& lid, const std::string& gid) {
    const fs::path at = d / dev / "ports" / p;
    write(at / "state", state + "\n");
    write(at / "link_layer", layer + "\n");
    write(at / "lid", lid + "\n");
    write(at / "gids" / "0", gid + "\n");
  };
  port("mlx5_0", "1", "1: DOWN", "InfiniBand", "0x0", "fe80:0000:0000:0000:0000:0000:0000:0000");
  port("mlx5_1", "1", "4: ACTIVE", "Ethernet", "0x0", "fe80:0000:0000:0000:0000:0000:0000:0001");
  port("mlx5_2", "1", "4: ACTIVE", "InfiniBand", "0x1a", "fe80:0000:0000:0000:0002:c903:00ab:cdef");
  const PortId p = read_sysfs_port(d.string(), "");
  EXPECT_EQ(p.lid, 0x1au);
  EXPECT_EQ(p.guid, 0x0002c90300abcdefu);
  EXPECT_EQ(read_sysfs_port(d.string(), "mlx5_2:1").lid, 0x1au);
  EXPECT_THROW(read_sysfs_port(d.string(), "mlx5_0"), std::runtime_error);
  EXPECT_THROW(read_sysfs_port((d / "none").string(), ""), std::runtime_error);
}

// Rank r's flows are psssp-sim's flows with a mapping file naming the
// ranks' ports in rank order.
TEST(BenchSchedule, SameFlowsAsTheSimulatorsMappingFile) {
  const auto chain = testing::make_chain(3, 4);
  const auto hosts = sim::select_hosts(chain.fabric, {});
  const std::vector<std::uint32_t> rank_host = {7, 2, 11, 0, 5, 9};
  std::string mapping;
  std::vector<std::uint32_t> lids;
  for (std::uint32_t h : rank_host) {
    mapping += std::to_string(chain.fabric.port(hosts[h].port).guid) + "\n";
    lids.push_back(hosts[h].lid);
  }
  const std::string map_path = write(temp_dir() / "mapping", mapping);
  for (const std::string pattern : {"bisect", "permutation", "shift", "recursive-doubling"}) {
    const RankFlows rank_flows(pattern, lids, 42);
    sim::PatternSpec spec = sim::parse_pattern(pattern, "", map_path, "first", chain.fabric, hosts);
    const sim::PatternGenerator sim_gen(hosts, std::move(spec), 42);
    std::vector<sim::Flow> a, b;
    sim::PatternGenerator::Scratch scratch;
    for (std::uint64_t r = 0; r < 40; ++r) {
      rank_flows.flows(r, a);
      sim_gen.flows(r, b, scratch);
      ASSERT_EQ(a.size(), b.size()) << pattern << " run " << r;
      for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(rank_host[a[i].src], b[i].src) << pattern << " run " << r;
        EXPECT_EQ(rank_host[a[i].dst], b[i].dst) << pattern << " run " << r;
        EXPECT_EQ(a[i].dlid, b[i].dlid) << pattern << " run " << r;
      }
    }
    const RankSchedule s = rank_schedule(rank_flows, 2, 40);
    rank_flows.flows(5, a);
    for (const sim::Flow& f : a) {
      if (f.src == 2) {
        EXPECT_EQ(s.send_to[5], f.dst);
      }
      if (f.dst == 2) {
        EXPECT_EQ(s.receive_from[5], f.src);
      }
    }
  }
  EXPECT_THROW(RankFlows("bisect", {1, 2, 3}, 1), std::runtime_error);  // odd
  EXPECT_NO_THROW(RankFlows("shift", {1, 2, 3}, 1));
  EXPECT_THROW(RankFlows("gather", {1, 2}, 1), std::runtime_error);
}

TEST(BenchReport, CorrelationAndNormalisation) {
  EXPECT_NEAR(*correlation({1, 2, 3}, {2, 4, 6}), 1.0, 1e-12);
  EXPECT_NEAR(*correlation({1, 2, 3}, {3, 2, 1}), -1.0, 1e-12);
  EXPECT_FALSE(correlation({1, 1, 1}, {1, 2, 3}));
  EXPECT_FALSE(correlation({1}, {1}));
  Report r;
  r.reference_gbps = 10;
  r.run_results.resize(2);
  r.run_results[0].flows = {{0, 1, 1, 2, 5}, {2, 3, 3, 4, 10}};
  r.run_results[1].flows = {{0, 1, 1, 2, 10}};
  normalise(r);
  EXPECT_DOUBLE_EQ(r.run_results[0].measured, 0.75);
  EXPECT_DOUBLE_EQ(measured_ebb(r), 0.875);
  EXPECT_FALSE(predicted_ebb(r));
}

}  // namespace
}  // namespace psssp::bench
