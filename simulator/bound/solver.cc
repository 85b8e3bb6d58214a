// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "solver.h"

#include <ClpSimplex.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

#include "bound/fleischer.h"
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

// Column generation over path columns: the restricted LP's optimum is the
// lower bound, the best pricing value the upper; rounds until they meet
// within eps, nothing prices out, or the deadline.
class ColumnGeneration {
 public:
  ColumnGeneration(const ChannelNetwork& net, const std::vector<Commodity>& fs,
                   const SolveOptions& o, Method method)
      : net_(net),
        fs_(fs),
        o_(o),
        eps_(method == Method::exact ? kExactGap : o.eps),
        rows_(net),
        pricer_(net, o.minimal),
        selves_(static_cast<double>(self_count(fs))),
        model_(empty_model(rows_)),
        take_(fs.size()) {
    s_.method = method;
    s_.upper = std::numeric_limits<double>::infinity();
    s_.complete = false;
  }

  Solution run() {
    // First paths: fewest hops (every channel length 1).
    std::vector<double> y(net_.channel_count(), 1.0);
    pricer_.price(fs_, y, length_, &paths_);
    for (std::size_t f = 0; f < fs_.size(); ++f) take_[f] = std::isfinite(length_[f]);
    bool added = add_columns();
    for (;;) {
      ++s_.rounds;
      if (added) {
        set_time(*model_, o_.deadline);
        model_->primal(1);
      }
      if (model_->isProvenOptimal())
        s_.lower = std::max(s_.lower, model_->objectiveValue() + selves_);
      y = channel_duals(*model_, rows_, net_.channel_count());
      const std::vector<double> mixed = smoothed(y);
      congestion_bound(y.size());
      const Step step = price_and_add(mixed, y);
      if (step == Step::converged) {
        s_.complete = true;
        break;
      }
      if (Clock::now() >= o_.deadline) break;
      added = step == Step::added;
      if (!added) {  // nothing prices out: the restricted LP is the LP
        s_.complete = true;
        break;
      }
    }
    s_.columns = static_cast<std::size_t>(model_->numberColumns());
    return s_;
  }

 private:
  enum class Step { converged, added, none };

  // The LP with its channel rows and no columns yet.
  static std::unique_ptr<ClpSimplex> empty_model(const ChannelRows& rows) {
    auto model = quiet_model();
    std::vector<double> row_lo(rows.channel.size(), -COIN_DBL_MAX);
    std::vector<int> starts{0};
    model->loadProblem(0, static_cast<int>(rows.channel.size()), starts.data(), nullptr, nullptr,
                       nullptr, nullptr, nullptr, row_lo.data(), rows.upper.data());
    return model;
  }

  // The paths of the flows in take_ become columns; false when none.
  bool add_columns() {
    std::vector<int> starts{0}, index;
    std::vector<double> value, obj;
    for (std::size_t f = 0; f < fs_.size(); ++f) {
      if (!take_[f] || paths_[f].empty()) continue;
      for (ChannelId c : paths_[f]) {
        index.push_back(static_cast<int>(rows_.row_of[c]));
        value.push_back(1.0);
      }
      starts.push_back(static_cast<int>(index.size()));
      obj.push_back(fs_[f].weight);
    }
    if (obj.empty()) return false;
    const std::vector<double> lo(obj.size(), 0.0), up(obj.size(), COIN_DBL_MAX);
    model_->addColumns(static_cast<int>(obj.size()), lo.data(), up.data(), obj.data(),
                       starts.data(), index.data(), value.data());
    return true;
  }

  // A pricing value b under `lengths`: a better upper bound moves the
  // centre of the smoothing to those lengths, scaled.
  void take_bound(double b, const std::vector<double>& lengths) {
    if (b >= s_.upper) return;
    s_.upper = b;
    center_ = lengths;
    for (double& v : center_) v *= pricer_.theta();
  }

  // Smoothed pricing (Wentges): the duals of the restricted LP jump about,
  // so paths are sought under a mix of them and the duals of the best bound
  // so far; a path enters if it improves the LP under its own duals, and
  // when none does, the duals alone decide.
  std::vector<double> smoothed(const std::vector<double>& y) const {
    std::vector<double> mixed = y;
    if (!center_.empty())
      for (std::size_t c = 0; c < mixed.size(); ++c)
        mixed[c] = kSmoothing * center_[c] + (1.0 - kSmoothing) * y[c];
    return mixed;
  }

  // Lengths from the feasible flow itself: (load / capacity)^k, nearly the
  // saturated channels, a cut-like bound where the duals are too sparse.
  void congestion_bound(std::size_t channels) {
    std::vector<double> congestion(channels, 0.0);
    if (!model_->isProvenOptimal()) return;
    const double* load = model_->getRowActivity();
    for (std::size_t r = 0; r < rows_.channel.size(); ++r)
      congestion[rows_.channel[r]] = std::pow(std::max(0.0, load[r]) / rows_.upper[r], kSharpness);
    take_bound(pricer_.price(fs_, congestion, length_, nullptr), congestion);
  }

  // Prices under the mixed lengths, then the duals y: converged when the
  // bounds meet, else added when some path improves the LP under y.
  Step price_and_add(const std::vector<double>& mixed, const std::vector<double>& y) {
    for (const std::vector<double>* lengths : {&mixed, &y}) {
      take_bound(pricer_.price(fs_, *lengths, length_, &paths_), *lengths);
      if (s_.upper <= (1.0 + eps_) * s_.lower) return Step::converged;
      for (std::size_t f = 0; f < fs_.size(); ++f) {
        double own = 0.0;
        for (ChannelId c : paths_[f]) own += y[c];
        take_[f] = std::isfinite(length_[f]) && !paths_[f].empty() &&
                   fs_[f].weight - own > kEnterTolerance;
      }
      if (add_columns()) return Step::added;
    }
    return Step::none;
  }

  const ChannelNetwork& net_;
  const std::vector<Commodity>& fs_;
  const SolveOptions& o_;
  const double eps_;
  const ChannelRows rows_;
  Pricer pricer_;
  const double selves_;
  std::unique_ptr<ClpSimplex> model_;
  std::vector<double> length_;
  std::vector<std::vector<ChannelId>> paths_;
  std::vector<bool> take_;
  std::vector<double> center_;  // the scaled duals of the best bound so far
  Solution s_;
};

Solution solve_column_generation(const ChannelNetwork& net, const std::vector<Commodity>& fs,
                                 const SolveOptions& o, Method method) {
  return ColumnGeneration(net, fs, o, method).run();
}

}  // namespace

std::size_t exact_work(const ChannelNetwork& net, const std::vector<Commodity>& fs) {
  const auto switched = std::count_if(
      fs.begin(), fs.end(), [](const Commodity& c) { return c.kind == Commodity::switched; });
  std::size_t channels = 0;
  for (ChannelId c = 0; c < net.channel_count(); ++c) channels += net.capacity(c) > 0.0;
  return static_cast<std::size_t>(switched) * channels;
}

Solution solve(const ChannelNetwork& net, const std::vector<Commodity>& fs,
               const SolveOptions& options) {
  Method m = options.method;
  if (m == Method::automatic) {
    m = exact_work(net, fs) <= options.exact_work ? Method::exact : Method::approximate;
  }
  if (m == Method::approximate) return solve_fleischer(net, fs, options);
  return m == Method::arc_lp ? solve_arc_lp(net, fs, options)
                             : solve_column_generation(net, fs, options, m);
}

}  // namespace psssp::bound
