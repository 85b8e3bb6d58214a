// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "fleischer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <utility>

#include "bound/pricer.h"
#include "parallel/worker_team.h"

namespace psssp::bound {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// Lengths only matter relative to each other; past this they are scaled down.
constexpr double kLengthCeiling = 1e100;

// The step: a push of a channel's capacity multiplies the channel's length
// by e^step. MWU's gap levels off at about the step, so the first is a
// fraction of eps, halved whenever the gap has not shrunk by a tenth within
// kStallSteps / step phases.
constexpr double kStepPerEps = 0.75;
constexpr double kStallSteps = 10.0;
// Phases between sweeps: kSweepSteps / step, at least kMinSweep. Between
// sweeps flows are routed on their pools, far cheaper than the trees.
constexpr double kSweepSteps = 1.0;
constexpr unsigned kMinSweep = 10;
// Per phase, the path amounts the feasible flow is built from decay by
// kDecayPerStep * step: the early phases' flow, routed on lengths that knew
// little, fades.
constexpr double kDecayPerStep = 0.5;
// Rounds of the per-path scaling that makes the flow feasible.
constexpr unsigned kFillRounds = 10;

// The switch graph reversed, compactly: for each vertex the arcs into it,
// as (from, channel).
struct ReverseGraph {
  struct In {
    std::uint32_t from;
    ChannelId channel;
  };
  std::vector<std::uint32_t> begin;
  std::vector<In> in;
  explicit ReverseGraph(const ChannelNetwork& net) : begin(net.in_begin()) {
    in.reserve(net.in_arcs().size());
    for (std::uint32_t ai : net.in_arcs())
      in.push_back({net.arcs()[ai].from, net.arcs()[ai].channel});
  }
};

// Shortest paths from every switch to one destination switch t under
// channel lengths: a reverse Dijkstra on the switch graph (an indexed 4-ary
// heap), stopped once the group's sources are settled; or with `minimal` one
// pass over the minimal-hop DAG towards t in BFS order.
class Trees {
 public:
  Trees(const ReverseGraph& g, std::size_t vertices, bool minimal)
      : g_(g),
        minimal_(minimal),
        dist_(vertices),
        hop_(vertices),
        next_(vertices),
        channel_(vertices),
        pos_(vertices, kNoVertex),
        wanted_(vertices, 0) {}

  // `sources`: the vertices whose distance is needed (repeats allowed).
  void grow(std::uint32_t t, const std::vector<double>& y,
            const std::vector<std::uint32_t>& sources) {
    std::fill(dist_.begin(), dist_.end(), kInf);
    dist_[t] = 0.0;
    next_[t] = kNoVertex;
    if (minimal_)
      grow_minimal(t, y);
    else
      grow_dijkstra(t, y, sources);
  }
  double dist(std::uint32_t v) const { return dist_[v]; }
  // The channels from v to t, appended to `out`.
  void walk(std::uint32_t v, std::uint32_t t, std::vector<ChannelId>& out) const {
    for (; v != t; v = next_[v]) out.push_back(channel_[v]);
  }

 private:
  void grow_dijkstra(std::uint32_t t, const std::vector<double>& y,
                     const std::vector<std::uint32_t>& sources) {
    std::size_t left = 0;
    for (std::uint32_t v : sources)
      if (!wanted_[v]) {
        wanted_[v] = 1;
        ++left;
      }
    heap_.clear();
    insert(t);
    while (!heap_.empty() && left > 0) {
      const std::uint32_t v = pop();
      if (wanted_[v]) {
        wanted_[v] = 0;
        --left;
      }
      const double d = dist_[v];
      for (std::uint32_t k = g_.begin[v]; k < g_.begin[v + 1]; ++k) {
        const ReverseGraph::In& a = g_.in[k];
        const double nd = d + y[a.channel];
        if (nd < dist_[a.from]) {
          dist_[a.from] = nd;
          next_[a.from] = v;
          channel_[a.from] = a.channel;
          if (pos_[a.from] == kNoVertex)
            insert(a.from);
          else
            sift_up(pos_[a.from]);
        }
      }
    }
    for (std::uint32_t v : heap_) pos_[v] = kNoVertex;
    for (std::uint32_t v : sources) wanted_[v] = 0;
  }

  void insert(std::uint32_t v) {
    pos_[v] = static_cast<std::uint32_t>(heap_.size());
    heap_.push_back(v);
    sift_up(pos_[v]);
  }
  std::uint32_t pop() {
    const std::uint32_t top = heap_[0];
    pos_[top] = kNoVertex;
    const std::uint32_t last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) {
      heap_[0] = last;
      pos_[last] = 0;
      sift_down(0);
    }
    return top;
  }
  void sift_up(std::uint32_t i) {
    const std::uint32_t v = heap_[i];
    const double d = dist_[v];
    while (i > 0) {
      const std::uint32_t parent = (i - 1) / 4;
      if (dist_[heap_[parent]] <= d) break;
      heap_[i] = heap_[parent];
      pos_[heap_[i]] = i;
      i = parent;
    }
    heap_[i] = v;
    pos_[v] = i;
  }
  void sift_down(std::uint32_t i) {
    const std::uint32_t v = heap_[i];
    const double d = dist_[v];
    const std::uint32_t n = static_cast<std::uint32_t>(heap_.size());
    for (;;) {
      const std::uint32_t first = 4 * i + 1;
      if (first >= n) break;
      std::uint32_t best = first;
      for (std::uint32_t c = first + 1; c < std::min(first + 4, n); ++c)
        if (dist_[heap_[c]] < dist_[heap_[best]]) best = c;
      if (dist_[heap_[best]] >= d) break;
      heap_[i] = heap_[best];
      pos_[heap_[i]] = i;
      i = best;
    }
    heap_[i] = v;
    pos_[v] = i;
  }

  // BFS order is an order of the DAG: a vertex's allowed arcs all lead to
  // vertices one hop nearer t, settled before it.
  void grow_minimal(std::uint32_t t, const std::vector<double>& y) {
    std::fill(hop_.begin(), hop_.end(), kNoVertex);
    order_.clear();
    hop_[t] = 0;
    order_.push_back(t);
    for (std::size_t head = 0; head < order_.size(); ++head) {
      const std::uint32_t v = order_[head];
      for (std::uint32_t k = g_.begin[v]; k < g_.begin[v + 1]; ++k) {
        const ReverseGraph::In& a = g_.in[k];
        if (hop_[a.from] == kNoVertex) {
          hop_[a.from] = hop_[v] + 1;
          order_.push_back(a.from);
        }
        if (hop_[a.from] != hop_[v] + 1) continue;
        const double nd = dist_[v] + y[a.channel];
        if (nd < dist_[a.from]) {
          dist_[a.from] = nd;
          next_[a.from] = v;
          channel_[a.from] = a.channel;
        }
      }
    }
  }

  const ReverseGraph& g_;
  bool minimal_;
  std::vector<double> dist_;
  std::vector<std::uint32_t> hop_, order_, next_;
  std::vector<ChannelId> channel_;
  std::vector<std::uint32_t> pos_, heap_;
  std::vector<std::uint8_t> wanted_;
};

// The flows into one destination switch (kNoVertex: the CA-to-CA flows).
struct Group {
  std::uint32_t to = kNoVertex;
  std::vector<std::uint32_t> flows;
  std::vector<std::uint32_t> sources;  // the flows' source switches
};

// Every path some flow was pushed along, once per flow.
struct Paths {
  std::vector<std::uint32_t> begin{0};  // path p: channels[begin[p] .. begin[p + 1])
  std::vector<ChannelId> channels;
  std::vector<std::uint64_t> hash;
  std::vector<std::uint32_t> flow;
  std::vector<double> amount;  // pushed along it, older pushes decayed
  std::size_t size() const { return hash.size(); }
};

std::uint64_t hash_of(const std::vector<ChannelId>& p) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (ChannelId c : p) h = (h ^ c) * 1099511628211ull;
  return h;
}

class Fleischer {
 public:
  Fleischer(const ChannelNetwork& net, const std::vector<Commodity>& fs, const SolveOptions& o)
      : net_(net),
        fs_(fs),
        o_(o),
        reverse_(net),
        pool_(fs.size()),
        shortest_(fs.size()),
        length_(fs.size(), kInf),
        known_(fs.size(), 0.0) {
    Group direct;
    std::vector<std::uint32_t> order;
    for (std::uint32_t f = 0; f < fs.size(); ++f) {
      if (fs[f].kind == Commodity::self) selves_ += 1.0;
      if (fs[f].kind == Commodity::direct) direct.flows.push_back(f);
      if (fs[f].kind == Commodity::switched) order.push_back(f);
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return fs[a].to < fs[b].to; });
    for (std::uint32_t f : order) {
      if (groups_.empty() || groups_.back().to != fs[f].to) groups_.push_back({fs[f].to, {}, {}});
      groups_.back().flows.push_back(f);
      groups_.back().sources.push_back(fs[f].from);
    }
    if (!direct.flows.empty()) groups_.push_back(std::move(direct));
    y_.assign(net.channel_count(), 0.0);
    for (ChannelId c = 0; c < y_.size(); ++c)
      if (net.capacity(c) > 0.0) y_[c] = 1.0 / net.capacity(c);
    if (o.threads > 1) team_ = std::make_unique<parallel::WorkerTeam>(o.threads);
  }

  Solution run() {
    Solution s;
    s.method = Method::approximate;
    s.upper = kInf;
    s.complete = false;
    double alpha = 0.0, best_gap = kInf;
    unsigned until_sweep = 0, best_round = 0;
    set_step(std::min(0.5, kStepPerEps * o_.eps));
    for (;;) {
      if (until_sweep == 0) {
        alpha = std::max(alpha, sweep(s));
        const double gap = s.upper / s.lower - 1.0;
        if (gap <= o_.eps || !std::isfinite(alpha)) {
          s.complete = true;
          break;
        }
        if (gap < 0.9 * best_gap) {
          best_gap = gap;
          best_round = s.rounds;
        } else if (s.rounds - best_round >= kStallSteps / step_) {
          set_step(step_ / 2);
          best_gap = gap;
          best_round = s.rounds;
        }
        until_sweep = sweep_every_;
      }
      if (Clock::now() >= o_.deadline) break;
      ++s.rounds;
      --until_sweep;
      alpha *= 1.0 + step_;
      for (double& a : paths_.amount) a *= 1.0 - decay_;
      route(alpha);
      if (rescale()) alpha *= 1.0 / kLengthCeiling;
    }
    s.columns = paths_.size();
    return s;
  }

  void set_step(double step) {
    step_ = step;
    sweep_every_ = std::max(kMinSweep, static_cast<unsigned>(std::lround(kSweepSteps / step)));
    decay_ = std::min(0.5, kDecayPerStep * step);
  }

 private:
  // Every flow's shortest path under the current lengths (on the team's
  // threads, a destination switch per task): the upper bound they certify,
  // and each path joins its flow's pool. Then the feasible flow from the
  // pools. Returns the shortest length of all relative to the flow's weight.
  double sweep(Solution& s) {
    shortest_paths(y_);
    double alpha = kInf, capacity_cost = 0.0;
    for (ChannelId c = 0; c < y_.size(); ++c) capacity_cost += net_.capacity(c) * y_[c];
    for (std::uint32_t f = 0; f < fs_.size(); ++f) {
      if (!std::isfinite(length_[f])) continue;
      alpha = std::min(alpha, length_[f] / fs_[f].weight);
      known_[f] = length_[f];
      remember(f, shortest_[f]);
    }
    s.upper = std::min(s.upper, selves_ + scaled_bound(capacity_cost, fs_, length_));
    s.lower = std::max(s.lower, selves_ + filled_flow());
    return alpha;
  }

  // length_[f] and shortest_[f] under lengths y, for every flow.
  void shortest_paths(const std::vector<double>& y) {
    const std::uint32_t tasks =
        team_ ? static_cast<std::uint32_t>(std::min<std::size_t>(groups_.size(), 4 * team_->size()))
              : 1;
    auto task = [&](std::uint32_t k) {
      Trees trees(reverse_, net_.vertex_count(), o_.minimal);
      for (std::size_t gi = groups_.size() * k / tasks; gi < groups_.size() * (k + 1) / tasks;
           ++gi) {
        const Group& g = groups_[gi];
        if (g.to != kNoVertex) trees.grow(g.to, y, g.sources);
        for (std::uint32_t f : g.flows) {
          const Commodity& c = fs_[f];
          std::vector<ChannelId>& p = shortest_[f];
          p.assign(1, c.up);
          if (g.to == kNoVertex) {
            length_[f] = y[c.up];
            continue;
          }
          if (!std::isfinite(trees.dist(c.from))) {
            length_[f] = kInf;
            p.clear();
            continue;
          }
          length_[f] = y[c.up] + trees.dist(c.from) + y[c.down];
          trees.walk(c.from, g.to, p);
          p.push_back(c.down);
        }
      }
    };
    if (team_)
      team_->run_each(tasks, task);
    else
      task(0);
  }

  // Adds path p to flow f's pool unless it is there (a hash collision only
  // leaves a path out of the pool; neither end depends on the pools).
  bool remember(std::uint32_t f, const std::vector<ChannelId>& p) {
    const std::uint64_t h = hash_of(p);
    for (std::uint32_t q : pool_[f])
      if (paths_.hash[q] == h) return false;
    pool_[f].push_back(static_cast<std::uint32_t>(paths_.size()));
    paths_.hash.push_back(h);
    paths_.flow.push_back(f);
    paths_.amount.push_back(0.0);
    paths_.channels.insert(paths_.channels.end(), p.begin(), p.end());
    paths_.begin.push_back(static_cast<std::uint32_t>(paths_.channels.size()));
    return true;
  }

  double path_length(std::uint32_t p) const {
    double l = 0.0;
    for (std::uint32_t i = paths_.begin[p]; i < paths_.begin[p + 1]; ++i)
      l += y_[paths_.channels[i]];
    return l;
  }

  // One phase: every flow, while the shortest path of its pool is shorter
  // than threshold * its weight, pushes along it as much as the path's
  // narrowest channel takes (Fleischer's rule, on the pools: they hold every
  // flow's shortest path as of the last sweep).
  void route(double threshold) {
    for (std::uint32_t f = 0; f < fs_.size(); ++f) {
      const Commodity& c = fs_[f];
      if (pool_[f].empty() || known_[f] >= threshold * c.weight) continue;
      for (;;) {
        double best = kInf;
        std::uint32_t which = 0;
        for (std::uint32_t p : pool_[f]) {
          const double l = path_length(p);
          if (l < best) {
            best = l;
            which = p;
          }
        }
        if (!(best < threshold * c.weight)) break;
        push(which);
      }
    }
  }

  void push(std::uint32_t p) {
    const std::uint32_t b = paths_.begin[p], e = paths_.begin[p + 1];
    double amount = fs_[paths_.flow[p]].cap;
    for (std::uint32_t i = b; i < e; ++i)
      amount = std::min(amount, net_.capacity(paths_.channels[i]));
    for (std::uint32_t i = b; i < e; ++i) {
      const ChannelId c = paths_.channels[i];
      y_[c] *= std::exp(step_ * amount / net_.capacity(c));
    }
    paths_.amount[p] += amount;
  }

  bool rescale() {
    double top = 0.0;
    for (double v : y_) top = std::max(top, v);
    if (top < kLengthCeiling) return false;
    for (double& v : y_) v /= kLengthCeiling;
    for (double& v : known_) v /= kLengthCeiling;
    return true;
  }

  // A feasible flow from the paths' (decayed) amounts: each path divided by
  // the largest load / capacity along it. No channel then carries more than
  // its capacity, and from the second round on every path only grows.
  double filled_flow() {
    std::vector<double> x = paths_.amount, load(net_.channel_count());
    for (unsigned r = 0; r < kFillRounds; ++r) {
      std::fill(load.begin(), load.end(), 0.0);
      for (std::size_t p = 0; p < x.size(); ++p)
        for (std::uint32_t i = paths_.begin[p]; i < paths_.begin[p + 1]; ++i)
          load[paths_.channels[i]] += x[p];
      for (std::size_t p = 0; p < x.size(); ++p) {
        if (x[p] <= 0.0) continue;
        double worst = 0.0;
        for (std::uint32_t i = paths_.begin[p]; i < paths_.begin[p + 1]; ++i) {
          const ChannelId c = paths_.channels[i];
          worst = std::max(worst, load[c] / net_.capacity(c));
        }
        x[p] /= worst;
      }
    }
    double value = 0.0;
    for (std::size_t p = 0; p < x.size(); ++p) value += fs_[paths_.flow[p]].weight * x[p];
    return value;
  }

  const ChannelNetwork& net_;
  const std::vector<Commodity>& fs_;
  const SolveOptions& o_;
  double step_ = 0.0, decay_ = 0.0;
  unsigned sweep_every_ = 0;
  const ReverseGraph reverse_;
  double selves_ = 0.0;
  std::vector<Group> groups_;
  std::vector<double> y_;
  Paths paths_;
  std::vector<std::vector<std::uint32_t>> pool_;  // per flow: its paths
  std::vector<std::vector<ChannelId>> shortest_;  // per flow, at the last sweep
  std::vector<double> length_;                    // per flow, at the last sweep
  std::vector<double> known_;  // per flow: its shortest length at the last sweep, a lower end
  std::unique_ptr<parallel::WorkerTeam> team_;
};

}  // namespace

Solution solve_fleischer(const ChannelNetwork& net, const std::vector<Commodity>& fs,
                         const SolveOptions& options) {
  return Fleischer(net, fs, options).run();
}

}  // namespace psssp::bound
