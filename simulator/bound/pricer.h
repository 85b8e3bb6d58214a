// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Shortest paths of every commodity under channel lengths y >= 0, and the
// upper bound they certify. With the capacity rows relaxed by y (Lagrange),
//   L(y) = sum_c capacity_c y_c + sum_f cap_f max(0, weight_f - len_f(y))
// is at least the LP's optimum for every y >= 0, len_f(y) being f's shortest
// path length (weak duality). Each solver hands its duals here, so the value
// it reports is a bound whatever the solver's tolerances or a time limit did.
#pragma once

#include <cstdint>
#include <vector>

#include "bound/channel_network.h"

namespace psssp::bound {

// min over theta >= 0 of L(theta y) without the self flows, from
// C = sum_c capacity_c y_c and the shortest lengths under y (which scale with
// theta): a bound at least as tight as L(y), far tighter where y is badly
// scaled.
// The theta that attains it goes to *best_theta.
double scaled_bound(double capacity_cost, const std::vector<Commodity>& fs,
                    const std::vector<double>& length, double* best_theta = nullptr);

class Pricer {
 public:
  // minimal: only arcs that bring a flow one switch hop nearer its destination.
  Pricer(const ChannelNetwork& net, bool minimal);

  // Sets length[f] for every switched or direct commodity (0 otherwise) and,
  // when `paths` is given, (*paths)[f] to the channels of one shortest path
  // (up, switch arcs, down). Returns min over theta of L(theta y), self
  // commodities counting 1.
  double price(const std::vector<Commodity>& fs, const std::vector<double>& y,
               std::vector<double>& length, std::vector<std::vector<ChannelId>>* paths);

  // Whether arc a may carry flow towards vertex t (always, unless minimal);
  // valid for the t of the last hops(t) call.
  void hops(std::uint32_t t);
  bool allowed(std::uint32_t arc) const;
  std::uint32_t hop(std::uint32_t v) const { return hop_[v]; }  // kNoVertex: t unreachable
  // The theta of the last price() call's bound: theta * y attains it.
  double theta() const { return theta_; }

 private:
  const ChannelNetwork& net_;
  bool minimal_;
  double theta_ = 1.0;
  std::vector<std::uint32_t> hop_, queue_;
  std::vector<double> dist_;
  std::vector<std::uint32_t> next_arc_;  // per vertex: the first arc of a shortest path to t
};

}  // namespace psssp::bound
