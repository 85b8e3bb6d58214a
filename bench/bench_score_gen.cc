// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// bench_score_gen K N PREFIX: a k-ary n-tree (k^n hosts, n k^(n-1) switches of
// 2k ports) with destination-mod-k LFTs, written as PREFIX.net (ibsim net),
// PREFIX.guid2lid (LIDs) and PREFIX.lfts (opensm-lfts.dump) for
// bench_score.sh. Switches get LIDs 1..S, hosts S+1...; only host LIDs and each
// switch's own LID are routed.
// bench_score_gen K N --in-process RUNS THREADS: no files; scores RUNS bisect
// runs in memory and prints the scoring rate (for sizes whose LFT dump would
// be gigabytes).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"
#include "formats/fabric_io.h"
#include "formats/lft_io.h"
#include "simulator/ebb_scorer.h"
#include "simulator/patterns.h"
#include "simulator/stats.h"

using namespace psssp;

namespace {

// The tree's shape. Switch <w, l>: w a base-k word of n-1 digits (digit i
// = w / k^i % k), l its level (0: leaves).
struct KAryTree {
  unsigned k, n;
  unsigned words;  // switches per level: k^(n-1)
  unsigned hosts;  // k^n

  NodeId sw_id(unsigned w, unsigned l) const { return static_cast<NodeId>(l * words + w); }
  unsigned digit(unsigned w, unsigned i) const {
    unsigned p = 1;
    for (unsigned j = 0; j < i; ++j) p *= k;
    return w / p % k;
  }
  unsigned with_digit(unsigned w, unsigned i, unsigned d) const {
    unsigned p = 1;
    for (unsigned j = 0; j < i; ++j) p *= k;
    return w - digit(w, i) * p + d * p;
  }
};

Fabric build_fabric(const KAryTree& tree) {
  const unsigned k = tree.k, n = tree.n, words = tree.words;
  Fabric f;
  Lid lid = 1;
  for (unsigned l = 0; l < n; ++l)
    for (unsigned w = 0; w < words; ++w) {
      const NodeId id =
          f.add_node(NodeType::switch_node, "s" + std::to_string(l) + "_" + std::to_string(w),
                     static_cast<PortNum>(2 * k));
      Node& node = f.node(id);
      node.guid = 0x10000000ull + id;
      node.description = "switch L" + std::to_string(l) + " " + std::to_string(w);
      node.ports[0].guid = node.guid;
      node.ports[0].lid = lid++;
    }
  const LinkRate qdr{LinkWidth::x4, LinkSpeed::qdr};
  for (unsigned h = 0; h < tree.hosts; ++h) {
    const NodeId id = f.add_node(NodeType::ca, "h" + std::to_string(h), 1);
    Node& node = f.node(id);
    node.guid = 0x20000000ull + 2ull * h;
    node.description = "host " + std::to_string(h);
    node.ports[1].guid = node.guid + 1;
    node.ports[1].lid = lid++;
    f.connect({tree.sw_id(h / k, 0), static_cast<PortNum>(h % k + 1)}, {id, 1}, qdr);
  }
  // <w, l> up port k+1+j  <->  <w with digit l = j, l+1> down port digit(w, l)+1.
  for (unsigned l = 0; l + 1 < n; ++l)
    for (unsigned w = 0; w < words; ++w)
      for (unsigned j = 0; j < k; ++j)
        f.connect({tree.sw_id(w, l), static_cast<PortNum>(k + 1 + j)},
                  {tree.sw_id(tree.with_digit(w, l, j), l + 1),
                   static_cast<PortNum>(tree.digit(w, l) + 1)},
                  qdr);
  f.index();
  return f;
}

// d-mod-k: up through parent (D / k^l) mod k; down once the word matches.
ForwardingTables d_mod_k(const Fabric& f, const KAryTree& tree) {
  const unsigned k = tree.k, n = tree.n, words = tree.words;
  ForwardingTables t(f);
  for (unsigned l = 0; l < n; ++l)
    for (unsigned w = 0; w < words; ++w) {
      const NodeId sw = tree.sw_id(w, l);
      t.set(sw, f.node(sw).ports[0].lid, 0);
      unsigned kl = 1;
      for (unsigned j = 0; j < l; ++j) kl *= k;
      for (unsigned d = 0; d < tree.hosts; ++d) {
        const unsigned dw = d / k;  // destination leaf word
        bool below = true;
        for (unsigned i = l; i + 1 < n; ++i) below = below && tree.digit(w, i) == tree.digit(dw, i);
        PortNum port;
        if (below)
          port = static_cast<PortNum>((l == 0 ? d % k : tree.digit(dw, l - 1)) + 1);
        else
          port = static_cast<PortNum>(k + 1 + d / kl % k);
        t.set(sw, f.node(static_cast<NodeId>(n * words + d)).ports[1].lid, port);
      }
    }
  return t;
}

// --in-process: scores `runs` bisect runs in memory, prints the rate.
int score_in_process(const Fabric& f, const ForwardingTables& t, const KAryTree& tree,
                     const char* runs, const char* threads) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto hosts_list = sim::select_hosts(f, {});
  const RouteTracer tracer(f, t);
  const sim::EbbScorer scorer(tracer, hosts_list);
  const sim::PatternGenerator gen(hosts_list,
                                  sim::parse_pattern("bisect", "", "", "", f, hosts_list), 1);
  sim::ScoreConfig cfg;
  cfg.runs = std::strtoull(runs, nullptr, 10);
  cfg.threads = static_cast<unsigned>(std::atoi(threads));
  const auto scores = sim::score_runs(gen, {&scorer}, cfg)[0].runs;
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<double> v;
  for (const auto& r : scores) v.push_back(r.ebb);
  std::printf("%u hosts, %u switches: %llu runs in %.3f s = %.0f runs/s, eBB %.6f\n", tree.hosts,
              tree.n * tree.words, static_cast<unsigned long long>(cfg.runs), secs,
              static_cast<double>(cfg.runs) / secs, sim::summarize(v).mean);
  return 0;
}

// PREFIX.net, PREFIX.guid2lid and PREFIX.lfts.
int write_files(const Fabric& f, const ForwardingTables& t, const KAryTree& tree,
                const std::string& prefix) {
  std::ofstream net(prefix + ".net"), g2l(prefix + ".guid2lid"), lfts(prefix + ".lfts");
  write_ibsim_net(net, f);
  for (const Node& node : f.nodes()) {
    const Port& p = node.is_switch() ? node.ports[0] : node.ports[1];
    g2l << "0x" << std::hex << p.guid << std::dec << ' ' << p.lid << ' ' << p.lid << '\n';
  }
  write_lfts(lfts, f, t);
  std::printf("%u hosts, %u switches, %zu LIDs\n", tree.hosts, tree.n * tree.words,
              static_cast<std::size_t>(f.max_lid()));
  return net && g2l && lfts ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const bool in_process = argc == 6 && std::string(argv[3]) == "--in-process";
  if (argc != 4 && !in_process) {
    std::fprintf(stderr, "usage: bench_score_gen K N PREFIX | K N --in-process RUNS THREADS\n");
    return 2;
  }
  const unsigned k = static_cast<unsigned>(std::atoi(argv[1]));
  const unsigned n = static_cast<unsigned>(std::atoi(argv[2]));
  const std::string prefix = argv[3];
  if (k < 2 || n < 1 || 2 * k > kMaxPorts) return 2;
  unsigned words = 1;  // switches per level: k^(n-1)
  for (unsigned i = 1; i < n; ++i) words *= k;
  const unsigned hosts = words * k;
  if (hosts + n * words >= kMaxUnicastLid) {
    std::fprintf(stderr, "too many LIDs\n");
    return 2;
  }
  const KAryTree tree{k, n, words, hosts};
  const Fabric f = build_fabric(tree);
  const ForwardingTables t = d_mod_k(f, tree);
  if (in_process) return score_in_process(f, t, tree, argv[4], argv[5]);
  return write_files(f, t, tree, prefix);
}
