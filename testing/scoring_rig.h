// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// A chain with the simulator's eBB scorer over it, for the simulator's
// tests (link psssp_sim as well as psssp_testing).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "simulator/ebb_scorer.h"
#include "simulator/host_set.h"
#include "testing/chain.h"
#include "traffic/route_tracer.h"

namespace psssp::testing {

// A chain with its shortest-path tables, every host selected, and an eBB
// scorer over them: what the scorer and pattern tests run patterns on.
struct ScoringRig {
  Chain chain;
  ForwardingTables lfts;
  std::vector<sim::Host> hosts;
  std::unique_ptr<RouteTracer> tracer;
  std::unique_ptr<sim::EbbScorer> scorer;
  ScoringRig(unsigned switches, unsigned per_switch, std::uint8_t lmc = 0)
      : chain(make_chain(switches, per_switch, lmc)), lfts(chain_lfts(chain, per_switch)) {
    hosts = sim::select_hosts(chain.fabric, {});
    tracer = std::make_unique<RouteTracer>(chain.fabric, lfts);
    scorer = std::make_unique<sim::EbbScorer>(*tracer, hosts);
  }
};

}  // namespace psssp::testing
