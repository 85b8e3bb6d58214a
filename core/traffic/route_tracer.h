// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The one route tracer over forwarding tables, used by the router's eBB
// estimate, the deadlock checker's route walk and the simulator's checker
// and scorer. Forwarding state is kept compact: the LFT bytes themselves
// plus, per switch port, the channel it drives and where that leads. No
// per-pair path table is built, so memory stays O(switches x LIDs) bytes and
// a trace costs O(hops).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fabric/fabric.h"
#include "fabric/forwarding_tables.h"
#include "trace_status.h"

namespace psssp {

struct TraceEnd {
  TraceStatus status = TraceStatus::delivered;
  std::uint32_t row = 0;   // switch row where the trace ended (failures)
  PortNum port = 0;        // the port taken there (failures)
  std::uint32_t hops = 0;  // switch-to-switch links crossed
  PortRef reached;         // wrong_delivery: the port the packet arrived at
};

class RouteTracer {
 public:
  // Both must outlive the tracer. Switch rows follow lfts.switch_at().
  RouteTracer(const Fabric& fabric, const ForwardingTables& lfts);

  // Where a packet injected at a non-switch port enters the switch fabric.
  struct Start {
    ChannelId uplink = 0;                         // channel leaving the host port
    std::uint32_t row = kNoRow;                   // first switch; kNoRow if none (see status)
    TraceStatus status = TraceStatus::delivered;  // non-delivered: the host link is bad
    PortRef direct;                               // remote port when it is not a switch
  };
  Start start(PortRef host_port) const;

  // Follows `dlid` from switch row `row`, appending the channel of every
  // switch output port used (the last one is the link into the destination;
  // none for a switch's own LID, delivered through port 0).
  template <typename Sink>
  TraceEnd trace(std::uint32_t row, Lid dlid, Sink&& sink) const;

  // The same from any port: a switch port starts at that switch, a CA or
  // router port sends over its own cable first (that channel comes first).
  template <typename Sink>
  TraceEnd trace_from(PortRef from, Lid dlid, Sink&& sink) const;

  std::uint32_t row_of(NodeId sw) const { return row_of_node_[sw]; }
  NodeId switch_at(std::uint32_t row) const { return lfts_.switch_at(row); }
  std::size_t switch_count() const { return lfts_.switch_count(); }
  const Fabric& fabric() const { return fabric_; }
  const ForwardingTables& lfts() const { return lfts_; }
  // Sentinel terminal code of the port owning `lid` (see Hop::next); lid
  // below lid_limit().
  std::uint32_t terminal_of_lid(Lid lid) const { return terminal_[lid]; }
  std::size_t lid_limit() const { return lid_limit_; }
  // The LFT row of every switch row (lid_limit() bytes each), for callers
  // that read the tables in their own order.
  const PortNum* const* lft_rows() const { return rows_.data(); }

  // One hop for callers that interleave many traces (memory-level
  // parallelism): from switch `row` towards `dlid` (< lid_limit()), whose
  // terminal code is `want`. Returns the next row, kArrived, or kFailed (then
  // trace() tells why). `channel` is set unless kFailed (on arrival at a
  // switch's own LID: its port 0, which is no cable).
  // Asks for the LFT byte step() will read next, so that the miss overlaps
  // with work on other traces.
  void prefetch(std::uint32_t row, Lid dlid) const { __builtin_prefetch(rows_[row] + dlid); }
  static constexpr std::uint32_t kArrived = 0xFFFFFFF0u;
  static constexpr std::uint32_t kFailed = 0xFFFFFFF1u;
  std::uint32_t step(std::uint32_t row, Lid dlid, std::uint32_t want, ChannelId& channel) const {
    return step_port(row, rows_[row][dlid], want, channel);
  }
  // The same, given the LFT byte `p` of `row` for the destination (for
  // callers that keep the bytes in their own layout).
  std::uint32_t step_port(std::uint32_t row, PortNum p, std::uint32_t want,
                          ChannelId& channel) const {
    if (p >= port_stride_) return kFailed;
    const Hop& h = hops_[row * port_stride_ + p];
    channel = h.channel;
    if (h.next < kTerminal) return h.next;
    return h.next == want ? kArrived : kFailed;
  }

  static constexpr std::uint32_t kNoRow = 0xFFFFFFFFu;

 private:
  // What a switch output port leads to. next < kTerminal: the row of the next
  // switch; kTerminal | channel(remote port): a CA/router port, or port 0
  // for the switch itself; the kDead* codes: the port cannot forward.
  struct Hop {
    ChannelId channel;
    std::uint32_t next;
  };
  static constexpr std::uint32_t kTerminal = 0x80000000u;
  static constexpr std::uint32_t kDeadUnconnected = 0xFFFFFFFFu;
  static constexpr std::uint32_t kDeadDown = 0xFFFFFFFEu;
  static constexpr std::uint32_t kNoTerminal = 0xFFFFFFFCu;  // LID owned by no port

  const Fabric& fabric_;
  const ForwardingTables& lfts_;
  std::vector<const PortNum*> rows_;
  std::vector<std::uint32_t> row_of_node_;
  std::size_t port_stride_ = 0;  // hops_ entries per switch: max port number + 1
  std::vector<Hop> hops_;
  std::size_t lid_limit_ = 0;            // LIDs the tables cover
  std::vector<std::uint32_t> terminal_;  // per LID below lid_limit_
};

// The switches of the cycle a loop runs into, starting at `row` (the row of a
// loop's TraceEnd); empty if the route from there does not cycle.
std::vector<NodeId> loop_cycle(const RouteTracer& tracer, std::uint32_t row, Lid dlid);

// "black hole at switch \"leaf1\" (0x...) lid 5 port 255 for LID 9" and the like.
std::string describe_trace_end(const RouteTracer& tracer, const TraceEnd& end, Lid dlid);

template <typename Sink>
TraceEnd RouteTracer::trace(std::uint32_t row, Lid dlid, Sink&& sink) const {
  TraceEnd end;
  if (dlid >= lid_limit_) {
    end.status = TraceStatus::black_hole;
    end.row = row;
    end.port = kNoPath;
    return end;
  }
  const std::uint32_t want = terminal_of_lid(dlid);
  const std::size_t max_hops = rows_.size();
  for (;;) {
    const PortNum p = rows_[row][dlid];
    if (p >= port_stride_) {
      end.status = p == kNoPath ? TraceStatus::black_hole : TraceStatus::unconnected;
      end.row = row;
      end.port = p;
      return end;
    }
    const Hop& h = hops_[row * port_stride_ + p];
    if (h.next < kTerminal) {
      sink(h.channel);
      if (++end.hops > max_hops) {
        end.status = TraceStatus::loop;
        end.row = h.next;
        end.port = p;
        return end;
      }
      row = h.next;
      continue;
    }
    end.row = row;
    end.port = p;
    if (h.next == want) {
      if (p != 0) sink(h.channel);
      return end;
    }
    switch (h.next) {
      case kDeadUnconnected:
        end.status = TraceStatus::unconnected;
        break;
      case kDeadDown:
        end.status = TraceStatus::down_link;
        break;
      default:
        end.status = TraceStatus::wrong_delivery;
        end.reached = fabric_.channel_port(h.next & ~kTerminal);
        break;
    }
    return end;
  }
}

template <typename Sink>
TraceEnd RouteTracer::trace_from(PortRef from, Lid dlid, Sink&& sink) const {
  if (fabric_.node(from.node).is_switch()) {
    if (row_of(from.node) != kNoRow) return trace(row_of(from.node), dlid, sink);
    TraceEnd end;  // a switch without a table forwards nothing
    end.status = TraceStatus::black_hole;
    end.row = kNoRow;
    end.port = kNoPath;
    return end;
  }
  TraceEnd end;
  if (fabric_.port_of_lid(dlid) == from) return end;  // its own LID: nothing to send
  const Start s = start(from);
  end.row = kNoRow;
  end.status = s.status;
  if (s.status != TraceStatus::delivered) return end;
  sink(s.uplink);
  if (s.row != kNoRow) return trace(s.row, dlid, sink);
  if (fabric_.port_of_lid(dlid) != s.direct) {  // cabled straight to another CA port
    end.status = TraceStatus::wrong_delivery;
    end.reached = s.direct;
  }
  return end;
}

}  // namespace psssp
