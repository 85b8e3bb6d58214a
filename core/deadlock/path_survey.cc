// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "path_survey.h"

#include <algorithm>

namespace psssp::deadlock {

PathSurvey::PathSurvey(const Fabric& fabric, const DependencySlots& slots,
                       const RouteTracer& tracer, std::size_t max_group)
    : fabric_(fabric),
      slots_(slots),
      tracer_(tracer),
      known_(tracer.switch_count(), 0),
      onward_(tracer.switch_count(), 0),
      out_(tracer.switch_count(), 0),
      out_switch_(tracer.switch_count(), 0),
      max_group_(std::min(max_group, kMaxGroup)) {
  if (max_group_ != 0) {
    named_in_.assign(tracer.switch_count(), 0);
    named_count_.assign(tracer.switch_count(), 0);
    names_.resize(tracer.switch_count() * max_group_);
    name_.assign(tracer.switch_count(), 0);
  }
}

void PathSurvey::begin_group() {
  next_index_ = 0;
  order_.clear();
  if (++group_ == 0) {  // wrapped: forget all
    std::fill(named_in_.begin(), named_in_.end(), 0u);
    group_ = 1;
  }
}

void PathSurvey::begin(Lid dlid, const std::uint8_t* column) {
  index_ = next_index_;
  if (next_index_ != kOwn) ++next_index_;  // 254 LIDs, then kOwn: no more names
  dlid_ = dlid;
  column_ = column;
  want_ = dlid < tracer_.lid_limit() ? tracer_.terminal_of_lid(dlid) : 0;
  if (++stamp_ == 0) {  // wrapped: forget all
    std::fill(known_.begin(), known_.end(), 0u);
    stamp_ = 1;
  }
}

std::size_t PathSurvey::walk(NodeId source, std::vector<std::uint8_t>* marked, WalkEnd& end) {
  same_as_ = kOwn;
  end = walk_route(tracer_, source, dlid_, hops_);
  std::size_t n = 0;
  for (std::size_t i = 1; i < hops_.size(); ++i) {
    const Hop& h = hops_[i];
    if (!h.to_switch || !hops_[i - 1].to_switch) continue;
    if (marked) (*marked)[slots_.slot(h.sw, h.in_port, h.out_port)] = 1;
    ++n;
  }
  return n;
}

std::size_t PathSurvey::count(NodeId source, std::vector<std::uint8_t>* marked, WalkEnd& end) {
  std::uint32_t row = tracer_.row_of(source);
  if (row == RouteTracer::kNoRow || dlid_ >= tracer_.lid_limit()) return walk(source, marked, end);
  path_.clear();
  PortNum in = 0;
  bool hit = false;
  const std::size_t limit = tracer_.switch_count();
  for (;;) {
    if (known_[row] == stamp_) {
      hit = true;
      break;
    }
    if (path_.size() > limit) return walk(source, marked, end);  // a loop
    const PortNum p = column_[row];
    ChannelId channel = 0;
    const std::uint32_t next = tracer_.step_port(row, p, want_, channel);
    if (next == RouteTracer::kFailed) return walk(source, marked, end);
    const bool to_switch = next != RouteTracer::kArrived;
    path_.push_back(Step{row, in, p, to_switch});
    if (!to_switch) break;
    const PortRef at = slots_.arrival(channel);
    if (!at.valid()) return walk(source, marked, end);
    in = at.port;
    row = next;
  }
  end = WalkEnd::delivered;
  // Onward from the last new switch: the dependency where it enters the
  // known switch, then that switch's own.
  std::size_t onward = 0;
  if (hit) {
    if (!path_.empty() && out_switch_[row]) {
      if (marked) (*marked)[slots_.slot(tracer_.switch_at(row), in, out_[row])] = 1;
      ++onward;
    }
    onward += onward_[row];
  }
  for (std::size_t j = path_.size(); j-- > 0;) {
    const Step& s = path_[j];
    known_[s.row] = stamp_;
    onward_[s.row] = static_cast<std::uint32_t>(onward);
    out_[s.row] = s.out;
    out_switch_[s.row] = s.to_switch;
    if (j > 0 && s.to_switch && path_[j - 1].to_switch) {
      if (marked) (*marked)[slots_.slot(tracer_.switch_at(s.row), s.in, s.out)] = 1;
      ++onward;
    }
  }
  if (max_group_ != 0) name_ways_onward(row, hit);
  return onward;
}

// Names the ways onward of the switches just walked (path_), from the end:
// each is named by its port and the next switch's name (`known`, the
// switch the walk stopped at, has its name already when `hit`).
void PathSurvey::name_ways_onward(std::uint32_t known, bool hit) {
  if (index_ >= max_group_) {
    same_as_ = kOwn;
    return;
  }
  std::uint8_t next = hit ? name_[known] : 0;
  NameBook book = name_book();
  for (std::size_t j = path_.size(); j-- > 0;) {
    const Step& s = path_[j];
    const std::uint16_t key =
        s.to_switch ? static_cast<std::uint16_t>(s.out << 8 | next) : kDelivers;
    next = name_[s.row] = book.first_with(s.row, key);
  }
  const std::uint8_t first = path_.empty() ? name_[known] : name_[path_.front().row];
  same_as_ = first < index_ ? first : kOwn;
}

void PathSurvey::keep_order() {
  order_.clear();
  const std::uint32_t rows = static_cast<std::uint32_t>(tracer_.switch_count());
  // Counting sort by hops to delivery: the dependencies plus one for a
  // switch that forwards to another switch, 0 for the one that delivers
  // (capped: a longer route only makes count_every_switch stop early).
  const auto hops = [&](std::uint32_t row) {
    return std::min<std::uint32_t>(out_switch_[row] ? onward_[row] + 1 : 0, kMaxHops);
  };
  order_start_.assign(kMaxHops + 2, 0);
  for (std::uint32_t row = 0; row < rows; ++row) {
    if (known_[row] != stamp_) return;  // a route that did not deliver
    ++order_start_[hops(row) + 1];
  }
  for (std::size_t h = 1; h < order_start_.size(); ++h) order_start_[h] += order_start_[h - 1];
  order_.resize(rows);
  for (std::uint32_t row = 0; row < rows; ++row) order_[order_start_[hops(row)]++] = row;
}

std::size_t PathSurvey::count_every_switch() { return count_in_order(nullptr); }

std::size_t PathSurvey::count_in_order(const std::uint32_t* next_rows) {
  if (dlid_ >= tracer_.lid_limit()) return 0;
  const bool naming = max_group_ != 0 && index_ < max_group_;
  // In locals, as in read_off.
  const std::uint8_t* column = column_;
  std::uint32_t* known = known_.data();
  std::uint32_t* onward = onward_.data();
  PortNum* out = out_.data();
  std::uint8_t* out_switch = out_switch_.data();
  std::uint8_t* name = name_.data();
  NameBook book = name_book();
  const std::uint32_t stamp = stamp_, want = want_;
  std::size_t counted = 0;
  for (const std::uint32_t row : order_) {
    const PortNum p = column[row];
    ChannelId channel = 0;
    const std::uint32_t next =
        next_rows ? next_rows[row] : tracer_.step_port(row, p, want, channel);
    std::uint16_t key = kDelivers;
    if (next == RouteTracer::kArrived) {
      onward[row] = 0;
      out_switch[row] = 0;
    } else {
      if (next == RouteTracer::kFailed || known[next] != stamp) return counted;
      onward[row] = onward[next] + (out_switch[next] ? 1 : 0);
      out_switch[row] = 1;
      key = static_cast<std::uint16_t>(p << 8 | name[next]);
    }
    out[row] = p;
    known[row] = stamp;
    if (naming) name[row] = book.first_with(row, key);
    ++counted;
  }
  return counted;
}

bool PathSurvey::count_tree() {
  order_.clear();
  if (dlid_ >= tracer_.lid_limit()) return false;
  const auto rows = static_cast<std::uint32_t>(tracer_.switch_count());
  next_.resize(rows);
  child_start_.assign(rows + 2, 0);
  std::uint32_t root = RouteTracer::kNoRow;
  for (std::uint32_t row = 0; row < rows; ++row) {
    ChannelId channel = 0;
    const std::uint32_t next = tracer_.step_port(row, column_[row], want_, channel);
    if (next == RouteTracer::kFailed) return false;
    if (next == RouteTracer::kArrived) {
      if (root != RouteTracer::kNoRow) return false;  // one port owns a LID
      root = row;
    } else {
      ++child_start_[next + 2];
    }
    next_[row] = next;
  }
  if (root == RouteTracer::kNoRow) return false;
  // Children by parent (a counting sort), then the tree breadth first.
  for (std::uint32_t r = 2; r < rows + 2; ++r) child_start_[r] += child_start_[r - 1];
  children_.resize(rows);
  for (std::uint32_t row = 0; row < rows; ++row)
    if (row != root) children_[child_start_[next_[row] + 1]++] = row;
  order_.push_back(root);
  for (std::size_t i = 0; i < order_.size(); ++i) {
    const std::uint32_t parent = order_[i];
    for (std::uint32_t c = child_start_[parent]; c < child_start_[parent + 1]; ++c)
      order_.push_back(children_[c]);
  }
  if (order_.size() != rows) {  // a loop: its switches never reach the root
    order_.clear();
    return false;
  }
  // Every route delivers: count in that order, as for a later LID, with
  // the next hops already found.
  return count_in_order(next_.data()) == rows;
}

void PathSurvey::read_off(const std::uint32_t* rows, std::size_t n, std::uint8_t* length,
                          std::uint8_t* repeat, std::uint8_t* seen) const {
  // In locals: the byte stores may alias the vectors' own pointers, which
  // the compiler would then load again per switch.
  const std::uint32_t* onward = onward_.data();
  const std::uint8_t* name = name_.data();
  const std::uint8_t earlier = index_ < max_group_ ? index_ : 0;  // names below it repeat
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t row = rows[i];
    record(onward[row], name[row] < earlier ? name[row] : kOwn, length[i], repeat + i, seen);
  }
}

void mark_every_switchs_dependencies(const DependencySlots& slots, const RouteTracer& tracer,
                                     Lid dlid, const std::uint8_t* column,
                                     std::vector<std::uint8_t>& marked) {
  if (dlid >= tracer.lid_limit()) return;  // no table: no route
  const std::uint32_t want = tracer.terminal_of_lid(dlid);
  const std::size_t rows = tracer.switch_count();
  for (std::uint32_t row = 0; row < rows; ++row) {
    ChannelId in = 0, out = 0;
    const std::uint32_t next = tracer.step_port(row, column[row], want, in);
    if (next == RouteTracer::kFailed || next == RouteTracer::kArrived) continue;
    const PortRef at = slots.arrival(in);
    if (!at.valid()) continue;
    const std::uint32_t after = tracer.step_port(next, column[next], want, out);
    if (after == RouteTracer::kFailed || after == RouteTracer::kArrived) continue;
    marked[slots.slot(at.node, at.port, column[next])] = 1;
  }
}

}  // namespace psssp::deadlock
