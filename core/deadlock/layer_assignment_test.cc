// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "layer_assignment.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <random>
#include <string>

#include "deadlock_check.h"
#include "destination_groups.h"
#include "first_fit.h"
#include "layer_graph.h"
#include "layer_mix.h"
#include "parallel/fault_injection.h"
#include "route_walk.h"
#include "testing/topologies.h"

namespace psssp::deadlock {
namespace {

using testing::fat_tree;
using testing::grid;
using testing::min_hop_lfts;
using testing::ring;

// The routes from switches with hosts: the tests of first fit and spreading
// below count on what host routes need (one layer on a tree); the routes
// from the other switches have tests of their own (SwitchSources*).
LayerOptions first_fit(unsigned max_layers) {
  LayerOptions o;
  o.max_layers = max_layers;
  o.balance = false;
  o.switch_sources = false;
  return o;
}

LayerOptions spread_over(unsigned max_layers) {
  LayerOptions o;
  o.max_layers = max_layers;
  o.switch_sources = false;
  return o;
}

// The LayerError message of an assignment on `threads` threads ("" and a
// test failure if it succeeds).
std::string layer_error(const Fabric& f, const ForwardingTables& lfts, LayerOptions o,
                        unsigned threads) {
  o.threads = threads;
  try {
    assign_layers(f, lfts, o);
  } catch (const LayerError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no LayerError with " << threads << " threads";
  return "";
}

void expect_deadlock_free(const Fabric& f, const ForwardingTables& lfts, const LayerTable& t) {
  const DeadlockReport r = check_deadlock(f, lfts, t);
  EXPECT_TRUE(r.deadlock_free) << format_cycle(f, r);
}

TEST(LayerAssignment, RingOfFourNeedsTwoLayers) {
  const Fabric f = ring(4, 2);
  const ForwardingTables lfts = min_hop_lfts(f);
  const LayerAssignment a = assign_layers(f, lfts, first_fit(8));
  EXPECT_EQ(a.layers_needed, 2u);
  EXPECT_EQ(a.layers_used, 2u);
  EXPECT_EQ(a.table.layers_used(), 2u);
  EXPECT_EQ(a.paths, 4u * 12);
  std::size_t routes = 0;
  for (std::size_t n : a.routes_per_layer) routes += n;
  EXPECT_EQ(routes, 8u * 12);
  expect_deadlock_free(f, lfts, a.table);
}

TEST(LayerAssignment, TreesNeedOneLayer) {
  const Fabric f = fat_tree(8, 4, 3);
  const ForwardingTables lfts = min_hop_lfts(f);
  EXPECT_TRUE(check_deadlock(f, lfts).deadlock_free);
  for (auto order : {LayerOptions::Order::longest_first, LayerOptions::Order::shortest_first,
                     LayerOptions::Order::lid}) {
    LayerOptions o = first_fit(8);
    o.order = order;
    const LayerAssignment a = assign_layers(f, lfts, o);
    EXPECT_EQ(a.layers_needed, 1u);
    EXPECT_EQ(a.layers_used, 1u);
    EXPECT_EQ(a.table.layers_used(), 1u);
  }
  const Fabric line = grid({6}, false, 2);
  EXPECT_EQ(assign_layers(line, min_hop_lfts(line), first_fit(1)).layers_needed, 1u);
}

void expect_routes_per_layer_as_in_table(const Fabric& f, const LayerAssignment& a);

// With the routes from switches without hosts (the default), every route is
// layered: a tree's switch-to-switch routes that turn down, then up, take a
// second layer, and check's scope all finds no loop.
TEST(LayerAssignment, SwitchSourcesLayerEveryRoute) {
  const Fabric f = fat_tree(8, 4, 3);
  const ForwardingTables lfts = min_hop_lfts(f);
  const LayerAssignment hosts = assign_layers(f, lfts, first_fit(8));
  EXPECT_FALSE(hosts.switch_sources);
  EXPECT_FALSE(check_deadlock(f, lfts, hosts.table, Sl2VlTables(), RouteScope::all).deadlock_free);
  LayerOptions o = first_fit(8);
  o.switch_sources = true;
  const LayerAssignment all = assign_layers(f, lfts, o);
  EXPECT_TRUE(all.switch_sources);
  EXPECT_GT(all.paths, hosts.paths);
  EXPECT_TRUE(check_deadlock(f, lfts, all.table, Sl2VlTables(), RouteScope::all).deadlock_free);
  expect_routes_per_layer_as_in_table(f, all);
  EXPECT_TRUE(LayerOptions{}.switch_sources);
}

TEST(LayerAssignment, TooFewLayersNamesBothNumbers) {
  const Fabric f = ring(4, 2);
  try {
    assign_layers(f, min_hop_lfts(f), first_fit(1));
    FAIL() << "no LayerError";
  } catch (const LayerError& e) {
    EXPECT_STREQ(e.what(), "needs 2 virtual layers, 1 available");
    EXPECT_EQ(e.needed(), 2u);
    EXPECT_EQ(e.available(), 1u);
  }
  EXPECT_THROW(assign_layers(f, min_hop_lfts(f), first_fit(0)), std::invalid_argument);
  EXPECT_THROW(assign_layers(f, min_hop_lfts(f), first_fit(17)), std::invalid_argument);
}

TEST(LayerAssignment, OtherOrdersAreTriedBeforeFailing) {
  const Fabric f = grid({8, 8}, true, 4);
  const ForwardingTables lfts = min_hop_lfts(f);
  using Order = LayerOptions::Order;
  unsigned fewest = 99, most = 0;
  Order worst = Order::lid;
  for (Order order : {Order::longest_first, Order::shortest_first, Order::lid}) {
    LayerOptions o = first_fit(16);
    o.order = order;
    o.try_other_orders = false;
    const unsigned needed = assign_layers(f, lfts, o).layers_needed;
    fewest = std::min(fewest, needed);
    if (needed > most) most = needed, worst = order;
  }
  ASSERT_LT(fewest, most) << "the orders should differ on this torus";
  LayerOptions o = first_fit(fewest);
  o.order = worst;
  const LayerAssignment a = assign_layers(f, lfts, o);
  EXPECT_EQ(a.layers_needed, fewest);
  EXPECT_NE(a.order, worst);
  expect_deadlock_free(f, lfts, a.table);
  o.try_other_orders = false;
  try {
    assign_layers(f, lfts, o);
    FAIL() << "no LayerError";
  } catch (const LayerError& e) {
    EXPECT_EQ(e.needed(), most);
    EXPECT_EQ(std::string(e.what()), "needs " + std::to_string(most) + " virtual layers, " +
                                         std::to_string(fewest) + " available");
  }
}

TEST(LayerAssignment, ForwardingLoopCannotBeLayered) {
  const Fabric f = grid({3}, false, 1);
  ForwardingTables lfts = min_hop_lfts(f);
  const Lid target = f.node(*f.find_by_name("h-2")).ports[1].lid;
  lfts.set(*f.find_by_name("sw-1"), target, 3);
  lfts.set(*f.find_by_name("sw-0"), target, 2);
  try {
    assign_layers(f, lfts, first_fit(8));
    FAIL() << "no LayerError";
  } catch (const LayerError& e) {
    EXPECT_NE(std::string(e.what()).find("forwarding loop"), std::string::npos) << e.what();
  }
}

TEST(LayerAssignment, RoutesThatAreNotDeliveredStillGetLayers) {
  // A black hole and an entry to a port that does not exist on a torus:
  // those routes are walked hop by hop up to where they end, the others
  // straight from the LFT bytes; every layer stays acyclic either way.
  const Fabric f = grid({4, 4}, true, 2);
  ForwardingTables lfts = min_hop_lfts(f);
  const NodeId sw5 = f.switches()[5], sw6 = f.switches()[6];
  lfts.set(sw5, f.port(f.host_ports()[20]).lid, kNoPath);
  lfts.set(sw6, f.port(f.host_ports()[30]).lid, static_cast<PortNum>(f.node(sw6).ports.size() + 3));
  ASSERT_FALSE(check_deadlock(f, lfts).deadlock_free);
  for (auto order : {LayerOptions::Order::longest_first, LayerOptions::Order::lid}) {
    LayerOptions o = first_fit(8);
    o.order = order;
    const LayerAssignment a = assign_layers(f, lfts, o);
    EXPECT_GE(a.layers_needed, 2u);
    expect_deadlock_free(f, lfts, a.table);
  }
}

TEST(LayerAssignment, TorusLayersAreDeadlockFree) {
  const Fabric f = grid({4, 4}, true, 2);
  const ForwardingTables lfts = min_hop_lfts(f);
  ASSERT_FALSE(check_deadlock(f, lfts).deadlock_free);
  for (auto order : {LayerOptions::Order::longest_first, LayerOptions::Order::shortest_first,
                     LayerOptions::Order::lid}) {
    LayerOptions o = first_fit(8);
    o.order = order;
    const LayerAssignment a = assign_layers(f, lfts, o);
    EXPECT_GE(a.layers_needed, 2u);
    EXPECT_LE(a.layers_needed, 4u);
    expect_deadlock_free(f, lfts, a.table);
  }
}

// routes_per_layer is what the table says: each source switch's routes
// (one per source LID behind it) to every destination LID, by their layer.
void expect_routes_per_layer_as_in_table(const Fabric& f, const LayerAssignment& a) {
  std::vector<std::size_t> want(a.routes_per_layer.size(), 0);
  for (const SourceSwitch& s :
       source_switches(f, a.switch_sources ? Sources::every_switch : Sources::hosts))
    for (const Lid dlid : destination_lids(f)) {
      const std::uint8_t layer = a.table.get(s.node, dlid);
      ASSERT_LT(layer, want.size());
      want[layer] += s.lid_count();
    }
  EXPECT_EQ(a.routes_per_layer, want);
}

TEST(LayerAssignment, RoutesPerLayerAreTheTables) {
  const Fabric torus = grid({6, 6}, true, 3);  // first fit, spread over 8 layers
  const LayerAssignment spread = assign_layers(torus, min_hop_lfts(torus), LayerOptions{});
  EXPECT_GT(spread.layers_needed, 1u);
  expect_routes_per_layer_as_in_table(torus, spread);
  const LayerAssignment kept = assign_layers(torus, min_hop_lfts(torus), first_fit(8));
  expect_routes_per_layer_as_in_table(torus, kept);
  const Fabric tree = fat_tree(8, 4, 3);  // one layer: dealt over all
  expect_routes_per_layer_as_in_table(tree, assign_layers(tree, min_hop_lfts(tree), {}));
  // One layer without balancing: everything in layer 0.
  const LayerAssignment one = assign_layers(tree, min_hop_lfts(tree), first_fit(8));
  EXPECT_EQ(one.layers_used, 1u);
  ASSERT_EQ(one.routes_per_layer.size(), 1u);
  expect_routes_per_layer_as_in_table(tree, one);
}

TEST(LayerAssignment, BalancingSpreadsAndStaysDeadlockFree) {
  const Fabric f = grid({4, 4}, true, 2);
  const ForwardingTables lfts = min_hop_lfts(f);
  const LayerOptions o = spread_over(6);
  const LayerAssignment a = assign_layers(f, lfts, o);
  EXPECT_EQ(a.layers_used, 6u);
  ASSERT_EQ(a.routes_per_layer.size(), 6u);
  std::size_t total = 0, most = 0, least = SIZE_MAX;
  for (std::size_t n : a.routes_per_layer) {
    total += n;
    most = std::max(most, n);
    least = std::min(least, n);
  }
  EXPECT_EQ(total, 32u * (16 + 32));
  EXPECT_GT(least, total / 12) << "layers far from even";
  expect_deadlock_free(f, lfts, a.table);
  // A tree spreads over all layers too, each still acyclic.
  const Fabric tree = fat_tree(4, 2, 4);
  const ForwardingTables tree_lfts = min_hop_lfts(tree);
  const LayerAssignment t = assign_layers(tree, tree_lfts, o);
  EXPECT_EQ(t.layers_needed, 1u);
  EXPECT_EQ(t.layers_used, 6u);
  expect_deadlock_free(tree, tree_lfts, t.table);
}

// One layer holds all of a tree's routes, so they are dealt out over every
// layer: each source switch's routes and each destination's routes use all
// layers, and the route counts per layer are even.
TEST(LayerAssignment, OneLayerRoutesAreDealtOverEveryLayer) {
  const Fabric f = fat_tree(8, 4, 3);
  const ForwardingTables lfts = min_hop_lfts(f);
  const LayerAssignment a = assign_layers(f, lfts, spread_over(8));
  EXPECT_EQ(a.layers_needed, 1u);
  EXPECT_EQ(a.layers_used, 8u);
  const auto [least, most] =
      std::minmax_element(a.routes_per_layer.begin(), a.routes_per_layer.end());
  EXPECT_LE(*most - *least, *most / 50) << "layers far from even";
  const std::vector<SourceSwitch> sources = source_switches(f);
  const std::vector<Lid> dests = destination_lids(f);
  std::vector<std::vector<bool>> by_source(sources.size(), std::vector<bool>(8, false));
  for (const Lid d : dests) {
    std::vector<bool> seen(8, false);
    for (std::size_t s = 0; s < sources.size(); ++s) {
      const unsigned layer = a.table.get(sources[s].node, d);
      ASSERT_LT(layer, 8u);
      seen[layer] = true;
      by_source[s][layer] = true;
    }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), true), 8) << "LID " << d;
  }
  for (const auto& seen : by_source) EXPECT_EQ(std::count(seen.begin(), seen.end(), true), 8);
  expect_deadlock_free(f, lfts, a.table);
}

// Switches give their cables up to destinations in turn, so the
// destinations behind one cable come at a fixed period; dealing layers in
// plain turn put most of such a cable's routes into one layer whenever the
// periods share a factor. Every cable's routes use the layers evenly.
TEST(LayerAssignment, EveryCableUsesTheLayersEvenly) {
  const Fabric f = fat_tree(16, 8, 16);
  const ForwardingTables lfts = min_hop_lfts(f);
  const LayerAssignment a = assign_layers(f, lfts, spread_over(8));
  ASSERT_EQ(a.layers_needed, 1u);
  std::size_t cables = 0;
  for (const auto& per_layer : layer_mix(f, lfts, a.table).routes) {
    std::size_t total = 0;
    for (const std::size_t n : per_layer) total += n;
    if (total < 64) continue;
    ++cables;
    const std::size_t busiest = *std::max_element(per_layer.begin(), per_layer.end());
    EXPECT_LE(busiest * 4, total) << "a quarter or more of a cable's routes in one of 8 layers";
  }
  EXPECT_GT(cables, 0u);
}

TEST(LayerAssignment, BalancingSplitsEachFirstFitLayerOverItsOwnLayers) {
  // Every balanced layer holds routes of one first-fit layer only, so it is a
  // subset of an acyclic layer; the largest first-fit layer gets spare layers.
  const Fabric f = grid({4, 4}, true, 2);
  const ForwardingTables lfts = min_hop_lfts(f);
  const LayerAssignment ff = assign_layers(f, lfts, first_fit(8));
  ASSERT_GE(ff.layers_needed, 2u);
  const LayerAssignment a = assign_layers(f, lfts, spread_over(8));
  EXPECT_EQ(a.layers_needed, ff.layers_needed);
  std::vector<int> origin(8, -1);
  const RouteTracer tracer(f, lfts);
  std::vector<Hop> hops;
  for (NodeId sw : f.switches())
    for (unsigned dlid = 1; dlid <= f.max_lid(); ++dlid) {
      walk_route(tracer, sw, static_cast<Lid>(dlid), hops);
      bool depends = false;  // routes without dependencies may go anywhere
      for (std::size_t i = 1; i < hops.size(); ++i)
        depends = depends || (hops[i].to_switch && hops[i - 1].to_switch);
      if (!depends) continue;
      const unsigned from = ff.table.get(sw, static_cast<Lid>(dlid));
      const unsigned to = a.table.get(sw, static_cast<Lid>(dlid));
      if (origin[to] == -1) origin[to] = static_cast<int>(from);
      EXPECT_EQ(origin[to], static_cast<int>(from)) << "layer " << to;
    }
  std::size_t biggest = 0;
  for (unsigned l = 1; l < ff.layers_needed; ++l)
    if (ff.routes_per_layer[l] > ff.routes_per_layer[biggest]) biggest = l;
  EXPECT_GE(std::count(origin.begin(), origin.end(), static_cast<int>(biggest)), 2);
}

// Each source switch deals its routes of a first-fit layer over that
// layer's group in turn, so the routes on any cable use all of the group's
// layers: per switch, the group's layers differ by at most one route.
TEST(LayerAssignment, EachSwitchDealsItsRoutesEvenlyOverTheGroup) {
  const Fabric f = grid({6, 6}, true, 2);
  const ForwardingTables lfts = min_hop_lfts(f);
  const LayerAssignment ff = assign_layers(f, lfts, first_fit(8));
  const LayerAssignment a = assign_layers(f, lfts, spread_over(8));
  ASSERT_GE(ff.layers_needed, 2u);
  ASSERT_LT(ff.layers_needed, 8u) << "no spare layers to deal over";
  const RouteTracer tracer(f, lfts);
  std::vector<Hop> hops;
  std::vector<std::vector<bool>> group(8, std::vector<bool>(8, false));  // [first fit][layer]
  std::vector<std::vector<std::vector<unsigned>>> count;  // [switch][first fit][layer]
  for (const SourceSwitch& s : source_switches(f)) {
    count.emplace_back(8, std::vector<unsigned>(8, 0));
    for (const Lid dlid : destination_lids(f)) {
      walk_route(tracer, s.node, dlid, hops);
      bool depends = false;
      for (std::size_t i = 1; i < hops.size(); ++i)
        depends = depends || (hops[i].to_switch && hops[i - 1].to_switch);
      if (!depends) continue;
      const unsigned from = ff.table.get(s.node, dlid), to = a.table.get(s.node, dlid);
      group[from][to] = true;
      ++count.back()[from][to];
    }
  }
  unsigned spread_groups = 0;
  for (unsigned from = 0; from < ff.layers_needed; ++from) {
    const auto members =
        static_cast<unsigned>(std::count(group[from].begin(), group[from].end(), true));
    if (members < 2) continue;
    ++spread_groups;
    for (const auto& per_switch : count) {
      unsigned most = 0, least = ~0u;
      for (unsigned l = 0; l < 8; ++l)
        if (group[from][l]) {
          most = std::max(most, per_switch[from][l]);
          least = std::min(least, per_switch[from][l]);
        }
      EXPECT_LE(most - least, 1u) << "first-fit layer " << from;
    }
  }
  EXPECT_GE(spread_groups, 1u) << "no first-fit layer got a spare layer";
  expect_deadlock_free(f, lfts, a.table);
}

TEST(LayerAssignment, DeterministicAndLmcAware) {
  Fabric f = grid({3, 3}, true, 1);
  testing::assign_lids(f, 2);
  const ForwardingTables lfts = min_hop_lfts(f);
  const LayerAssignment a = assign_layers(f, lfts, LayerOptions{});
  const LayerAssignment b = assign_layers(f, lfts, LayerOptions{});
  EXPECT_TRUE(a.table == b.table);
  expect_deadlock_free(f, lfts, a.table);
  // Every LID of a host's LMC range looks up the same row.
  const Port& p = f.node(*f.find_by_name("h-4")).ports[1];
  for (unsigned dlid = 1; dlid <= f.max_lid(); ++dlid)
    for (unsigned k = 1; k < 4; ++k)
      EXPECT_EQ(a.table.layer(p.lid, static_cast<Lid>(dlid)),
                a.table.layer(static_cast<Lid>(p.lid + k), static_cast<Lid>(dlid)));
}

TEST(LayerAssignment, SurveyThreadsChangeNothing) {
  // The survey of all routes runs on options.threads threads: the same
  // tables and counts from one, two or three, and on a forwarding loop the
  // same message (the lowest destination's, as one thread finds it).
  const Fabric f = grid({4, 4}, true, 2);
  const ForwardingTables lfts = min_hop_lfts(f);
  for (const bool balance : {false, true}) {
    LayerOptions o;
    o.balance = balance;
    o.threads = 1;
    const LayerAssignment one = assign_layers(f, lfts, o);
    for (const unsigned threads : {2u, 3u}) {
      o.threads = threads;
      const LayerAssignment many = assign_layers(f, lfts, o);
      EXPECT_TRUE(many.table == one.table) << threads << " threads";
      EXPECT_EQ(many.layers_needed, one.layers_needed);
      EXPECT_EQ(many.routes_per_layer, one.routes_per_layer);
    }
  }
  Fabric line = grid({4}, false, 1);
  ForwardingTables looped = min_hop_lfts(line);
  for (const char* host : {"h-2", "h-3"}) {
    const Lid target = line.node(*line.find_by_name(host)).ports[1].lid;
    looped.set(*line.find_by_name("sw-1"), target, 3);
    looped.set(*line.find_by_name("sw-0"), target, 2);
  }
  const std::string message[2] = {layer_error(line, looped, first_fit(8), 1),
                                  layer_error(line, looped, first_fit(8), 2)};
  EXPECT_NE(message[0].find("forwarding loop"), std::string::npos) << message[0];
  EXPECT_EQ(message[0], message[1]);
}

TEST(LayerAssignment, FirstFitPipelineEqualsOneThread) {
  // On two threads first fit places layer 0 on one and the routes it
  // refuses on the other, handed over in blocks of 4096: the 6x6x6 torus
  // (93K paths) hands over several blocks. Same layers in every order as
  // on one thread, and the same failure when the layers run out.
  const Fabric f = grid({6, 6, 6}, true, 1);
  const ForwardingTables lfts = min_hop_lfts(f);
  using Order = LayerOptions::Order;
  for (const Order order : {Order::longest_first, Order::lid, Order::shortest_first}) {
    LayerOptions o = first_fit(16);
    o.order = order;
    o.try_other_orders = false;
    o.threads = 1;
    const LayerAssignment one = assign_layers(f, lfts, o);
    o.threads = 2;
    const LayerAssignment two = assign_layers(f, lfts, o);
    EXPECT_GT(one.layers_needed, 2u);
    EXPECT_EQ(two.layers_needed, one.layers_needed);
    EXPECT_TRUE(two.table == one.table);
    expect_deadlock_free(f, lfts, two.table);
  }
  LayerOptions two_layers = first_fit(2);
  two_layers.count_beyond = false;
  two_layers.try_other_orders = false;
  const std::string message[2] = {layer_error(f, lfts, two_layers, 1),
                                  layer_error(f, lfts, two_layers, 2)};
  EXPECT_NE(message[0].find("2 available"), std::string::npos) << message[0];
  EXPECT_EQ(message[0], message[1]);
}

// Two rings of 6 switches joined by a line of 8, the line's switches
// first in node order, 15 hosts on every switch: the survey's units (4
// switches each) start with the line, whose LIDs the longest routes (from
// one ring's far side to the other's) do not lead to.
Fabric dumbbell() {
  topo::TopologySpec spec;
  const auto add = [&](const std::string& name) {
    spec.switches.push_back(topo::SwitchSpec{name, 15, 0});
    return spec.switches.size() - 1;
  };
  std::vector<std::size_t> line, ring_a, ring_b;
  for (int i = 0; i < 8; ++i) line.push_back(add("line-" + std::to_string(i)));
  for (int i = 0; i < 6; ++i) ring_a.push_back(add("a-" + std::to_string(i)));
  for (int i = 0; i < 6; ++i) ring_b.push_back(add("b-" + std::to_string(i)));
  const auto cable = [&](std::size_t a, std::size_t b) { spec.cables.push_back({a, b, 0, 0}); };
  for (int i = 0; i + 1 < 8; ++i) cable(line[i], line[i + 1]);
  for (int i = 0; i < 6; ++i) {
    cable(ring_a[i], ring_a[(i + 1) % 6]);
    cable(ring_b[i], ring_b[(i + 1) % 6]);
  }
  cable(line.front(), ring_a[0]);
  cable(line.back(), ring_b[0]);
  return testing::with_lids(spec);
}

TEST(LayerAssignment, SurveyBesideLayerZeroEqualsOneThread) {
  // On two threads, where every switch has hosts, layer 0 places the
  // longest paths it has seen in its first unit of destinations while the
  // rest are surveyed. On the dumbbell that guess is wrong (the longest
  // routes lead only to later units), and first fit starts again once the
  // survey is done (a second pass); on the 6x6x6 torus it is right. The
  // same tables as on one thread either way.
  for (const bool wrong_guess : {true, false}) {
    const Fabric f = wrong_guess ? dumbbell() : grid({6, 6, 6}, true, 1);
    const ForwardingTables lfts = min_hop_lfts(f);
    for (const bool balance : {false, true}) {
      LayerOptions o = spread_over(16);
      o.balance = balance;
      o.threads = 1;
      const LayerAssignment one = assign_layers(f, lfts, o);
      o.threads = 2;
      const LayerAssignment two = assign_layers(f, lfts, o);
      EXPECT_GE(one.layers_needed, 2u) << "first fit runs";
      EXPECT_EQ(two.layers_needed, one.layers_needed);
      EXPECT_TRUE(two.table == one.table);
      EXPECT_EQ(two.routes_per_layer, one.routes_per_layer);
      EXPECT_EQ(one.first_fit_passes, 1u);
      EXPECT_EQ(two.first_fit_passes, wrong_guess ? 2u : 1u);
      expect_deadlock_free(f, lfts, two.table);
    }
  }
}

TEST(LayerAssignment, LidNumberingChangesNoLayer) {
  // The same routes on an 8x8 torus with its switch LIDs shuffled (as a
  // subnet manager may number them): first fit goes destination switch by
  // destination switch in node order, so every route keeps its layer. (In
  // the order of the switches' lowest LIDs, 6072 routes changed layer.)
  const Fabric f = grid({8, 8}, true, 2);
  const ForwardingTables lfts = min_hop_lfts(f);
  Fabric shuffled = f;
  std::vector<NodeId> switches = f.switches();
  std::mt19937 random(1);
  std::shuffle(switches.begin(), switches.end(), random);
  for (std::size_t i = 0; i < switches.size(); ++i)
    shuffled.node(switches[i]).ports[0].lid = static_cast<Lid>(i + 1);
  shuffled.index();
  // Each LID of f and the LID of the same port in `shuffled`.
  std::vector<Lid> renamed(f.max_lid() + 1, 0);
  for (Lid lid = 1; lid <= f.max_lid(); ++lid) {
    const PortRef owner = f.port_of_lid(lid);
    if (owner.valid()) renamed[lid] = shuffled.port(owner).lid;
  }
  ForwardingTables moved(shuffled);
  for (const NodeId sw : f.switches())
    for (Lid lid = 1; lid <= f.max_lid(); ++lid)
      if (renamed[lid] != 0) moved.set(sw, renamed[lid], lfts.get(sw, lid));
  const LayerAssignment a = assign_layers(f, lfts, first_fit(16));
  const LayerAssignment b = assign_layers(shuffled, moved, first_fit(16));
  EXPECT_GE(a.layers_needed, 2u);
  EXPECT_EQ(b.layers_needed, a.layers_needed);
  std::size_t differ = 0;
  for (const NodeId sw : f.switches())
    for (Lid lid = 1; lid <= f.max_lid(); ++lid)
      if (renamed[lid] != 0) differ += a.table.get(sw, lid) != b.table.get(sw, renamed[lid]);
  EXPECT_EQ(differ, 0u);
  expect_deadlock_free(shuffled, moved, b.table);
}

// First fit as its definition says, without the walks' shortcuts: every
// route's whole dependency list, in the longest-first order (destination
// switch by destination switch among routes of one length), into the
// lowest layer that takes it. The layer of each (source switch, LID).
std::vector<std::vector<int>> whole_route_first_fit(const Fabric& f, const ForwardingTables& lfts,
                                                    unsigned& layers_needed) {
  const Geometry g(f);
  const RouteTracer tracer(f, lfts);
  const std::vector<SourceSwitch> sources = source_switches(f);
  const std::vector<Lid> dests = destination_lids(f);
  struct Path {
    std::size_t s, d;
    std::vector<Dependency> deps;
  };
  std::vector<Path> paths;
  std::vector<Hop> hops;
  for (const std::uint32_t d : group_by_switch(f, dests, 254, 64).members)
    for (std::size_t s = 0; s < sources.size(); ++s) {
      Path p{s, d, {}};
      route_dependencies(g, tracer, sources[s].node, dests[d], hops, p.deps);
      if (!p.deps.empty()) paths.push_back(std::move(p));
    }
  std::stable_sort(paths.begin(), paths.end(),
                   [](const Path& a, const Path& b) { return a.deps.size() > b.deps.size(); });
  std::vector<std::vector<int>> layer(sources.size(), std::vector<int>(dests.size(), -1));
  std::vector<std::unique_ptr<LayerGraph>> layers;
  for (const Path& p : paths)
    for (std::size_t k = 0;; ++k) {
      if (k == layers.size()) layers.push_back(std::make_unique<LayerGraph>(g));
      if (layers[k]->add(p.deps)) {
        layer[p.s][p.d] = static_cast<int>(k);
        break;
      }
    }
  layers_needed = static_cast<unsigned>(layers.size());
  return layer;
}

TEST(LayerAssignment, WalkShortcutsChangeNoLayer) {
  // First fit stops a route's walk at a switch marked as holding the way
  // onward in the layer tried, or as refusing it (first_fit.h): on tori
  // that need several layers, every route gets the layer the whole-route
  // first fit gives, on one thread and on two.
  // The 8x8 torus again with two LIDs per host port: the routes that repeat
  // another (the same channels toward another LID of the same switch) take
  // its layer without being placed (layer_assignment.h).
  const std::vector<Fabric> fabrics = {grid({6, 6, 6}, true, 1), grid({8, 8}, true, 2),
                                       testing::with_lids(topo::grid({8, 8}, true, 2), 1)};
  for (const Fabric& f : fabrics) {
    const ForwardingTables lfts = min_hop_lfts(f);
    unsigned needed = 0;
    const std::vector<std::vector<int>> want = whole_route_first_fit(f, lfts, needed);
    EXPECT_GT(needed, 2u);
    const std::vector<SourceSwitch> sources = source_switches(f);
    const std::vector<Lid> dests = destination_lids(f);
    for (const unsigned threads : {1u, 2u}) {
      LayerOptions o = first_fit(16);
      o.try_other_orders = false;
      o.threads = threads;
      const LayerAssignment a = assign_layers(f, lfts, o);
      EXPECT_EQ(a.layers_needed, needed);
      std::size_t differ = 0, routes = 0;
      for (std::size_t s = 0; s < sources.size(); ++s)
        for (std::size_t d = 0; d < dests.size(); ++d)
          if (want[s][d] >= 0) {
            ++routes;
            differ += a.table.get(sources[s].node, dests[d]) != want[s][d];
          }
      EXPECT_GT(routes, 10000u);
      EXPECT_EQ(differ, 0u) << "of " << routes << " routes, " << threads << " threads";
    }
  }
}

TEST(LayerAssignment, SwitchesOfMoreThan63PortsAreLayeredToo) {
  // Past 63 ports a switch's edges are not kept as port masks (Geometry::
  // narrow): the layer graphs' searches scan its slots, forward and
  // backward. A ring with 64 hosts per switch needs the layers the ring
  // with one host per switch needs, and a 4x4 torus of such switches gets
  // layers the credit-loop check passes.
  const Fabric wide_ring = ring(8, 64), thin_ring = ring(8, 1);
  ASSERT_FALSE(Geometry(wide_ring).narrow);
  ASSERT_TRUE(Geometry(thin_ring).narrow);
  LayerOptions o = first_fit(16);
  o.try_other_orders = false;
  const LayerAssignment wide = assign_layers(wide_ring, min_hop_lfts(wide_ring), o);
  const LayerAssignment thin = assign_layers(thin_ring, min_hop_lfts(thin_ring), o);
  EXPECT_EQ(wide.layers_needed, 2u);
  EXPECT_EQ(thin.layers_needed, 2u);
  const Fabric torus = grid({4, 4}, true, 64);
  ASSERT_FALSE(Geometry(torus).narrow);
  const ForwardingTables lfts = min_hop_lfts(torus);
  const LayerAssignment a = assign_layers(torus, lfts, o);
  EXPECT_GE(a.layers_needed, 2u);
  expect_deadlock_free(torus, lfts, a.table);
}

TEST(LayerAssignment, AllocationFailureInAnyTaskThrowsAndNeverHangs) {
  // The exception fence with first fit's pipeline: whichever parallel task
  // fails as it starts (the survey's, either end of the pipeline), the
  // assignment throws bad_alloc and returns; neither thread waits for the
  // other. Tasks past the last one leave the assignment whole.
  const Fabric f = grid({4, 4, 4}, true, 1);
  const ForwardingTables lfts = min_hop_lfts(f);
  LayerOptions o = first_fit(8);
  o.threads = 2;
  const LayerAssignment whole = assign_layers(f, lfts, o);
  ASSERT_GT(whole.layers_needed, 1u);  // first fit runs
  unsigned failed = 0, succeeded = 0;
  for (std::uint64_t n = 1; n <= 32; ++n) {
    parallel::arm_task_fault(n);
    try {
      const LayerAssignment a = assign_layers(f, lfts, o);
      EXPECT_TRUE(a.table == whole.table) << "fault at task " << n;
      ++succeeded;
    } catch (const std::bad_alloc&) {
      ++failed;
    }
    parallel::arm_task_fault(0);
  }
  EXPECT_GE(failed, 6u);  // the survey's workers and blocks, first fit's two workers
  EXPECT_GT(succeeded, 0u);
}

}  // namespace
}  // namespace psssp::deadlock
