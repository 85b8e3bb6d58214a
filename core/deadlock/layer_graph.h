// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// One virtual layer's channel dependency graph for the layer assignment
// (layer_assignment.cc): edges as bits per dependency slot, refusals
// remembered, an online topological order to refuse edges that close a
// cycle. Internal to core/deadlock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dependency_slots.h"
#include "fabric/fabric.h"
#include "online_order.h"

namespace psssp::deadlock {

struct Dependency {
  Slot slot;
  ChannelId from, to;
};

// What every layer graph shares: the slot numbering and channel geometry.
struct Geometry {
  const Fabric& fabric;
  DependencySlots slots;
  std::vector<PortRef> port_of_channel;
  // Every switch has at most 64 ports (port 0 included): layer graphs keep
  // their edges as a 64-bit port mask per channel as well as the counts.
  bool narrow = true;
  explicit Geometry(const Fabric& f) : fabric(f), slots(f), port_of_channel(f.channel_count()) {
    for (ChannelId c = 0; c < f.channel_count(); ++c) port_of_channel[c] = f.channel_port(c);
    for (const NodeId sw : f.switches()) narrow = narrow && slots.width(sw) <= 64;
  }
};

// A bit per dependency slot.
class SlotBits {
 public:
  explicit SlotBits(std::size_t n) : words_(n / 64 + 1, 0) {}
  bool test(Slot s) const { return (words_[s >> 6] >> (s & 63)) & 1; }
  void set(Slot s) { words_[s >> 6] |= std::uint64_t{1} << (s & 63); }
  void clear(Slot s) { words_[s >> 6] &= ~(std::uint64_t{1} << (s & 63)); }

 private:
  std::vector<std::uint64_t> words_;
};

// One layer's channel dependency graph: a bit per dependency slot (the edge
// is in the graph) and an online topological order. Edges are only added,
// and taken out again only when the route that added them is refused, so no
// route counts are needed. On switches of up to 64 ports the edges are also
// kept as port masks per channel (out_ports_: the ports a channel's arrivals
// leave by; in_ports_: the ports a channel's departures came in by), so the
// searches visit the edges instead of scanning every slot of a switch (most
// are empty).
class LayerGraph {
  // The layer's graph as OnlineTopologicalOrder sees it: successors of a
  // channel are the channels out of the switch it arrives at whose slot
  // is in the graph.
  auto succ() const {
    return [this](std::uint32_t v, auto&& visit) {
      const PortRef at = g_.slots.arrival(v);
      if (!at.valid()) return;
      const ChannelId chan0 = g_.fabric.channel(PortRef{at.node, 0});
      if (g_.narrow) {
        for (std::uint64_t bits = out_ports_[v]; bits != 0; bits &= bits - 1)
          visit(chan0 + static_cast<unsigned>(__builtin_ctzll(bits)));
        return;
      }
      const Slot base = g_.slots.slot(at.node, at.port, 0);
      const unsigned width = g_.slots.width(at.node);
      for (unsigned q = 1; q < width; ++q)
        if (present_.test(base + q)) visit(chan0 + q);
    };
  }
  // Predecessors of a channel out of a switch: the channels into that
  // switch whose slot toward it is in the graph.
  auto pred() const {
    return [this](std::uint32_t v, auto&& visit) {
      const PortRef from = g_.port_of_channel[v];
      if (g_.narrow) {
        for (std::uint64_t bits = in_ports_[v]; bits != 0; bits &= bits - 1)
          visit(
              g_.slots.switch_channel_into(from.node, static_cast<PortNum>(__builtin_ctzll(bits))));
        return;
      }
      const unsigned width = g_.slots.width(from.node);  // 0 off switches
      for (unsigned p = 1; p < width; ++p)
        if (present_.test(g_.slots.slot(from.node, static_cast<PortNum>(p), from.port)))
          visit(g_.slots.switch_channel_into(from.node, static_cast<PortNum>(p)));
    };
  }

 public:
  explicit LayerGraph(const Geometry& g)
      : g_(g),
        present_(g.slots.size()),
        refused_(g.slots.size()),
        out_ports_(g.narrow ? g.fabric.channel_count() : 0, 0),
        in_ports_(out_ports_.size(), 0),
        order_(g.fabric.channel_count()) {}

  // Adds all of a route's dependencies, or none if one would close a cycle.
  // On a refusal, *refused_for_good (if given) is the index in deps of a
  // dependency this layer will refuse in every later add() too, or
  // kNoneForGood when the refusal came from the route's own edges together.
  static constexpr std::size_t kNoneForGood = ~std::size_t{0};
  bool add(const std::vector<Dependency>& deps, std::size_t* refused_for_good = nullptr) {
    // A dependency refused stays refused: the graph only grows, so
    // reachability never shrinks; skip the search.
    missing_.clear();
    for (const Dependency& d : deps) {
      if (present_.test(d.slot)) continue;
      if (refused_.test(d.slot)) {
        if (refused_for_good) *refused_for_good = static_cast<std::size_t>(&d - deps.data());
        return false;
      }
      missing_.push_back(&d);
    }
    added_.clear();
    for (const Dependency* m : missing_) {
      const Dependency& d = *m;
      if (present_.test(d.slot)) continue;  // twice in one route
      if (!order_.insert(d.from, d.to, succ(), pred())) {
        if (refused_for_good) *refused_for_good = kNoneForGood;
        if (added_.empty()) {
          refused_.set(d.slot);
          if (refused_for_good) *refused_for_good = static_cast<std::size_t>(m - deps.data());
        }
        rollback();
        return false;
      }
      present_.set(d.slot);
      set_edge(d, true);
      added_.push_back(&d);
    }
    return true;
  }
  static std::size_t bytes(const Geometry& g) {
    // Two bits per slot; per channel the order (label, list links, a mark
    // per search side) and, when narrow, the two port masks.
    return g.slots.size() / 4 + g.fabric.channel_count() * (g.narrow ? 40 : 24);
  }

 private:
  // Takes out the edges a refused route added: the graph is as before.
  void rollback() {
    for (const Dependency* d : added_) {
      present_.clear(d->slot);
      set_edge(*d, false);
    }
  }
  // The port masks of dependency d, from the channel into a switch's port p
  // to the channel out of its port q.
  void set_edge(const Dependency& d, bool on) {
    if (!g_.narrow) return;
    const std::uint64_t q = std::uint64_t{1} << g_.port_of_channel[d.to].port;
    const std::uint64_t p = std::uint64_t{1} << g_.slots.arrival(d.from).port;
    out_ports_[d.from] = on ? out_ports_[d.from] | q : out_ports_[d.from] & ~q;
    in_ports_[d.to] = on ? in_ports_[d.to] | p : in_ports_[d.to] & ~p;
  }

  const Geometry& g_;
  SlotBits present_;
  SlotBits refused_;                        // adding the dependency closes a cycle
  std::vector<std::uint64_t> out_ports_;    // per channel, when g_.narrow
  std::vector<std::uint64_t> in_ports_;     // the same: the ports arrivals come in by
  std::vector<const Dependency*> missing_;  // not in the graph when the add() under way began
  std::vector<const Dependency*> added_;    // by the add() under way
  OnlineTopologicalOrder order_;
};

}  // namespace psssp::deadlock
