// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The hop tables ("LID matrices") OpenSM's min-hop step leaves in every
// switch (osm_ucast_mgr_build_lid_matrices in OpenSM 3.3.23, every hop
// weight 1), computed by one BFS per switch LID instead of OpenSM's repeated
// relaxation over all switch pairs. Multicast routing and OpenSM's dumps read
// these tables; the plugin writes them into OpenSM's switches in place, with
// the effect of osm_switch_set_hops per entry (psssp_engine_fill_hop_tables).
//
// What OpenSM's tables hold, and so what this holds:
//  - columns are the base LIDs of switches only (port 0's LID); CA and router
//    LIDs, and a switch's further LMC LIDs, get no entries;
//  - a switch's own LID: hops 0 on port 0;
//  - every port cabled to another switch R, healthy or not, gets hops 1 to
//    R's LID;
//  - a healthy such port gets 1 + least(R, T) to every other switch LID T
//    that R reaches, where least(R, T) is R's smallest entry for T (0 for
//    its own LID): so a path crosses only healthy cables except possibly
//    its last one, and a switch's own LID has entries on its other ports too;
//  - nothing else: port 0 holds the least hops only for the switch's own
//    LID here (osm_switch_set_hops keeps the minimum there itself), and
//    cables to CAs, routers and back into the same switch carry nothing;
//  - hop counts above 254 are not stored (255 is OSM_NO_PATH).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fabric/fabric.h"

namespace psssp::routing {

constexpr std::uint8_t kNoHops = 0xFF;  // OpenSM's OSM_NO_PATH

class MinHopMatrix {
 public:
  MinHopMatrix() = default;
  // `fabric` must be indexed. `threads` workers split the BFS roots; the
  // result does not depend on it. Memory: one byte per (switch, switch LID).
  MinHopMatrix(const Fabric& fabric, unsigned threads);

  // The columns: switches with a base LID, in fabric switch order.
  std::size_t target_count() const { return target_lid_.size(); }
  Lid target_lid(std::size_t t) const { return target_lid_[t]; }
  const std::vector<Lid>& target_lids() const { return target_lid_; }

  // Switches in fabric switch order; switch_index(sw) is sw's position
  // there (throws FabricError if sw is not a switch of the matrix's fabric).
  std::size_t switch_count() const { return switch_count_; }
  std::uint32_t switch_index(NodeId sw) const { return dense(sw); }

  // Which entries() can differ from those of `before` (a matrix of an
  // earlier snapshot): changed[t * switch_count() + s] is 1 for target t at
  // switch index s. Everything counts as changed unless both have the same
  // switches (GUIDs, port counts) in the same order and the same targets;
  // otherwise only the entries of switches whose cables changed, and those
  // of switches cabled to a switch whose least hops to t changed.
  std::vector<std::uint8_t> changed_entries(const MinHopMatrix& before) const;

  // least(sw, target t), kNoHops if sw does not reach it.
  std::uint8_t least_hops(NodeId sw, std::size_t t) const;
  // The entries OpenSM sets for (sw, target t), one per port 0..num_ports of
  // sw, written to out[0..num_ports]; kNoHops where it sets none. Port 0 is 0
  // for sw's own LID and kNoHops otherwise. Throws FabricError if sw is not a
  // switch of the fabric the matrix was built from.
  void entries(NodeId sw, std::size_t t, std::uint8_t* out) const;

 private:
  struct Link {
    std::uint32_t remote = kNone;  // dense switch index, kNone if no other switch
    bool healthy = false;
    bool operator!=(const Link& o) const { return remote != o.remote || healthy != o.healthy; }
  };
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;

  std::uint32_t dense(NodeId sw) const;
  const Link* links(std::uint32_t s) const { return &links_[s * stride_]; }

  std::uint32_t switch_count_ = 0;
  std::size_t stride_ = 0;                // ports per switch row, port 0 included
  std::vector<std::uint32_t> dense_of_;   // NodeId -> dense switch index or kNone
  std::vector<Guid> guid_;                // per dense switch
  std::vector<PortNum> num_ports_;        // per dense switch
  std::vector<Link> links_;               // [s * stride_ + port]
  std::vector<std::uint32_t> target_of_;  // dense switch -> target index or kNone
  std::vector<Lid> target_lid_;           // per target
  std::vector<std::uint32_t> target_sw_;  // per target: dense switch
  std::vector<std::uint8_t> least_;       // [t * switch_count_ + s]
};

}  // namespace psssp::routing
