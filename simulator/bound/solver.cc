// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "solver.h"

#include <ClpSimplex.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

#include "bound/pricer.h"

namespace psssp::bound {

const char* method_name(Method m) {
  switch (m) {
    case Method::automatic:
      return "auto";
    case Method::exact:
      return "exact";
    case Method::approximate:
      return "approximate";
    case Method::arc_lp:
      return "arc-lp";
  }
  return "?";
}

namespace {

constexpr std::uint32_t kNoRow = 0xFFFFFFFFu;
// A column enters only when it improves on the duals by more than CLP's own
// dual tolerance could hide (else the same path would come back).
constexpr double kEnterTolerance = 1e-6;
// The gap at which column generation counts as the exact LP (CLP's own
// tolerances are of this order).
constexpr double kExactGap = 1e-6;
// Weight of the best bound's duals in the smoothed pricing.
constexpr double kSmoothing = 0.5;
// Exponent of the congestion lengths (load / capacity)^k.
constexpr double kSharpness = 8.0;

// One LP row per channel that can carry flow: its capacity.
struct ChannelRows {
  std::vector<std::uint32_t> row_of;  // per channel
  std::vector<ChannelId> channel;     // per row
  std::vector<double> upper;
  explicit ChannelRows(const ChannelNetwork& net) : row_of(net.channel_count(), kNoRow) {
    for (ChannelId c = 0; c < net.channel_count(); ++c) {
      if (net.capacity(c) <= 0.0) continue;
      row_of[c] = static_cast<std::uint32_t>(channel.size());
      channel.push_back(c);
      upper.push_back(net.capacity(c));
    }
  }
};

std::unique_ptr<ClpSimplex> quiet_model() {
  auto model = std::make_unique<ClpSimplex>();
  model->setLogLevel(0);
  model->setOptimizationDirection(-1.0);  // maximise
  return model;
}

void set_time(ClpSimplex& model, Clock::time_point deadline) {
  if (deadline == Clock::time_point::max()) return;
  const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
  model.setMaximumWallSeconds(std::max(left, 0.001));
}

// Channel lengths from the duals of the channel rows (a maximisation: CLP
// reports them as the objective's gain per unit of capacity), never negative.
std::vector<double> channel_duals(const ClpSimplex& model, const ChannelRows& rows,
                                  std::size_t channels) {
  std::vector<double> y(channels, 0.0);
  const double* dual = model.dualRowSolution();
  for (std::size_t r = 0; r < rows.channel.size(); ++r) {
    const double v = dual[r];
    y[rows.channel[r]] = std::isfinite(v) ? std::max(0.0, v) : 0.0;
  }
  return y;
}

std::size_t self_count(const std::vector<Commodity>& fs) {
  return static_cast<std::size_t>(std::count_if(
      fs.begin(), fs.end(), [](const Commodity& c) { return c.kind == Commodity::self; }));
}

std::vector<std::uint32_t> destinations(const std::vector<Commodity>& fs) {
  std::vector<std::uint32_t> t;
  for (const Commodity& c : fs)
    if (c.kind == Commodity::switched) t.push_back(c.to);
  std::sort(t.begin(), t.end());
  t.erase(std::unique(t.begin(), t.end()), t.end());
  return t;
}

Solution solve_arc_lp(const ChannelNetwork& net, const std::vector<Commodity>& fs,
                      const SolveOptions& o) {
  const ChannelRows rows(net);
  const std::vector<std::uint32_t> targets = destinations(fs);
  Pricer pricer(net, o.minimal);
  const std::size_t V = net.vertex_count();
  // Conservation rows (t, v): flow out of v minus into v minus what starts there = 0.
  std::vector<std::uint32_t> cons(targets.size() * V, kNoRow);
  std::uint32_t nrows = static_cast<std::uint32_t>(rows.channel.size());
  std::vector<int> starts{0}, index;
  std::vector<double> value, obj, col_up;
  auto entry = [&](std::uint32_t row, double v) {
    index.push_back(static_cast<int>(row));
    value.push_back(v);
  };
  auto end_column = [&](double objective, double upper) {
    starts.push_back(static_cast<int>(index.size()));
    obj.push_back(objective);
    col_up.push_back(upper);
  };
  for (std::size_t ti = 0; ti < targets.size(); ++ti) {
    const std::uint32_t t = targets[ti];
    pricer.hops(t);
    for (std::uint32_t v = 0; v < V; ++v)
      if (v != t && pricer.hop(v) != kNoVertex) cons[ti * V + v] = nrows++;
    for (std::uint32_t ai = 0; ai < net.arcs().size(); ++ai) {
      if (!pricer.allowed(ai)) continue;
      const Arc& a = net.arcs()[ai];
      entry(rows.row_of[a.channel], 1.0);
      entry(cons[ti * V + a.from], 1.0);
      if (a.to != t) entry(cons[ti * V + a.to], -1.0);
      end_column(0.0, COIN_DBL_MAX);
    }
  }
  for (const Commodity& c : fs) {
    if (c.kind == Commodity::direct) {
      entry(rows.row_of[c.up], 1.0);
      end_column(c.weight, c.cap);
    } else if (c.kind == Commodity::switched) {
      const std::size_t ti = static_cast<std::size_t>(
          std::lower_bound(targets.begin(), targets.end(), c.to) - targets.begin());
      if (c.from != c.to && cons[ti * V + c.from] == kNoRow) continue;  // no minimal path
      entry(rows.row_of[c.up], 1.0);
      entry(rows.row_of[c.down], 1.0);
      if (c.from != c.to) entry(cons[ti * V + c.from], -1.0);
      end_column(c.weight, c.cap);
    }
  }
  std::vector<double> row_lo(nrows, 0.0), row_up(nrows, 0.0), col_lo(obj.size(), 0.0);
  std::fill(row_lo.begin(), row_lo.begin() + static_cast<long>(rows.channel.size()), -COIN_DBL_MAX);
  std::copy(rows.upper.begin(), rows.upper.end(), row_up.begin());

  auto model = quiet_model();
  model->loadProblem(static_cast<int>(obj.size()), static_cast<int>(nrows), starts.data(),
                     index.data(), value.data(), col_lo.data(), col_up.data(), obj.data(),
                     row_lo.data(), row_up.data());
  set_time(*model, o.deadline);
  model->dual();

  Solution s;
  s.method = Method::arc_lp;
  s.rounds = 1;
  s.columns = obj.size();
  s.complete = model->isProvenOptimal();
  s.lower = s.complete ? model->objectiveValue() + static_cast<double>(self_count(fs)) : 0.0;
  std::vector<double> length;
  s.upper = pricer.price(fs, channel_duals(*model, rows, net.channel_count()), length, nullptr);
  return s;
}

Solution solve_column_generation(const ChannelNetwork& net, const std::vector<Commodity>& fs,
                                 const SolveOptions& o, Method method) {
  const double eps = method == Method::exact ? kExactGap : o.eps;
  const ChannelRows rows(net);
  Pricer pricer(net, o.minimal);
  const double selves = static_cast<double>(self_count(fs));
  auto model = quiet_model();
  {
    std::vector<double> row_lo(rows.channel.size(), -COIN_DBL_MAX);
    std::vector<int> starts{0};
    model->loadProblem(0, static_cast<int>(rows.channel.size()), starts.data(), nullptr, nullptr,
                       nullptr, nullptr, nullptr, row_lo.data(), rows.upper.data());
  }
  std::vector<double> length;
  std::vector<std::vector<ChannelId>> paths;
  auto add_columns = [&](const std::vector<bool>& take) {
    std::vector<int> starts{0}, index;
    std::vector<double> value, obj;
    for (std::size_t f = 0; f < fs.size(); ++f) {
      if (!take[f] || paths[f].empty()) continue;
      for (ChannelId c : paths[f]) {
        index.push_back(static_cast<int>(rows.row_of[c]));
        value.push_back(1.0);
      }
      starts.push_back(static_cast<int>(index.size()));
      obj.push_back(fs[f].weight);
    }
    if (obj.empty()) return false;
    const std::vector<double> lo(obj.size(), 0.0), up(obj.size(), COIN_DBL_MAX);
    model->addColumns(static_cast<int>(obj.size()), lo.data(), up.data(), obj.data(), starts.data(),
                      index.data(), value.data());
    return true;
  };

  // First paths: fewest hops (every channel length 1).
  std::vector<double> y(net.channel_count(), 1.0);
  pricer.price(fs, y, length, &paths);
  std::vector<bool> take(fs.size());
  for (std::size_t f = 0; f < fs.size(); ++f) take[f] = std::isfinite(length[f]);

  std::vector<double> center;  // the scaled duals of the best bound so far
  Solution s;
  s.method = method;
  s.upper = std::numeric_limits<double>::infinity();
  s.complete = false;
  bool added = add_columns(take);
  for (;;) {
    ++s.rounds;
    if (added) {
      set_time(*model, o.deadline);
      model->primal(1);
    }
    if (model->isProvenOptimal()) s.lower = std::max(s.lower, model->objectiveValue() + selves);
    y = channel_duals(*model, rows, net.channel_count());
    // Smoothed pricing (Wentges): the duals of the restricted LP jump about,
    // so paths are sought under a mix of them and the duals of the best bound
    // so far; a path enters if it improves the LP under its own duals, and
    // when none does, the duals alone decide.
    std::vector<double> mixed = y;
    if (!center.empty())
      for (std::size_t c = 0; c < mixed.size(); ++c)
        mixed[c] = kSmoothing * center[c] + (1.0 - kSmoothing) * y[c];
    // Lengths from the feasible flow itself: (load / capacity)^k, nearly the
    // saturated channels, a cut-like bound where the duals are too sparse.
    std::vector<double> congestion(y.size(), 0.0);
    if (model->isProvenOptimal()) {
      const double* load = model->getRowActivity();
      for (std::size_t r = 0; r < rows.channel.size(); ++r)
        congestion[rows.channel[r]] = std::pow(std::max(0.0, load[r]) / rows.upper[r], kSharpness);
      const double b = pricer.price(fs, congestion, length, nullptr);
      if (b < s.upper) {
        s.upper = b;
        center = congestion;
        for (double& v : center) v *= pricer.theta();
      }
    }
    bool converged = false;
    for (const std::vector<double>* lengths : {&mixed, &y}) {
      const double b = pricer.price(fs, *lengths, length, &paths);
      if (b < s.upper) {
        s.upper = b;
        center = *lengths;
        for (double& v : center) v *= pricer.theta();
      }
      if (s.upper <= (1.0 + eps) * s.lower) {
        converged = true;
        break;
      }
      for (std::size_t f = 0; f < fs.size(); ++f) {
        double own = 0.0;
        for (ChannelId c : paths[f]) own += y[c];
        take[f] =
            std::isfinite(length[f]) && !paths[f].empty() && fs[f].weight - own > kEnterTolerance;
      }
      added = add_columns(take);
      if (added) break;
    }
    if (converged) {
      s.complete = true;
      break;
    }
    if (Clock::now() >= o.deadline) break;
    if (!added) {  // nothing prices out: the restricted LP is the LP
      s.complete = true;
      break;
    }
  }
  s.columns = static_cast<std::size_t>(model->numberColumns());
  return s;
}

}  // namespace

Solution solve(const ChannelNetwork& net, const std::vector<Commodity>& fs,
               const SolveOptions& options) {
  Method m = options.method;
  if (m == Method::automatic) {
    const auto switched = std::count_if(
        fs.begin(), fs.end(), [](const Commodity& c) { return c.kind == Commodity::switched; });
    m = static_cast<std::size_t>(switched) <= options.exact_limit ? Method::exact
                                                                  : Method::approximate;
  }
  return m == Method::arc_lp ? solve_arc_lp(net, fs, options)
                             : solve_column_generation(net, fs, options, m);
}

}  // namespace psssp::bound
