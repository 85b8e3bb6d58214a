// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "option_names.h"

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <system_error>

namespace psssp {
namespace {

template <typename Enum>
struct Named {
  const char* name;
  Enum value;
};

using Effort = RoutingOptions::Effort;
using Order = RoutingOptions::Order;
using TieBreak = RoutingOptions::TieBreak;

constexpr Named<Effort> kEfforts[] = {
    {"auto", Effort::automatic}, {"full", Effort::full}, {"fast", Effort::fast}};
constexpr Named<Order> kOrders[] = {{"auto", Order::automatic},
                                    {"switches", Order::switches},
                                    {"interleaved", Order::interleaved},
                                    {"lid", Order::lid}};
constexpr Named<TieBreak> kTieBreaks[] = {
    {"path", TieBreak::path}, {"first", TieBreak::first}, {"dmodk", TieBreak::dmodk}};

template <typename Enum, std::size_t N>
std::optional<Enum> parse(const Named<Enum> (&table)[N], const std::string& name) {
  for (const Named<Enum>& n : table)
    if (name == n.name) return n.value;
  return std::nullopt;
}

template <typename Enum, std::size_t N>
const char* name_of(const Named<Enum> (&table)[N], Enum value) {
  for (const Named<Enum>& n : table)
    if (n.value == value) return n.name;
  return "?";  // not reached: every value has a word
}

template <typename Enum, std::size_t N>
std::string choices(const Named<Enum> (&table)[N]) {
  std::string out;
  for (std::size_t i = 0; i < N; ++i) {
    if (i > 0) out += i + 1 == N ? " or " : ", ";
    out += std::string("'") + table[i].name + "'";
  }
  return out;
}

}  // namespace

std::optional<Effort> parse_effort(const std::string& name) { return parse(kEfforts, name); }
const char* effort_name(Effort effort) { return name_of(kEfforts, effort); }
std::string effort_choices() { return choices(kEfforts); }

std::optional<Order> parse_order(const std::string& name) { return parse(kOrders, name); }
const char* order_name(Order order) { return name_of(kOrders, order); }
std::string order_choices() { return choices(kOrders); }

const char* tie_break_name(TieBreak tie_break) { return name_of(kTieBreaks, tie_break); }

std::optional<std::uint64_t> parse_whole_number(const std::string& text, std::uint64_t most) {
  std::uint64_t n = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, n);
  if (text.empty() || error != std::errc() || stop != end || n > most) return std::nullopt;
  return n;
}

namespace {
constexpr std::uint64_t kMostMoved = 100000000, kMostPerLost = 1000;
}  // namespace

bool parse_rebalance(const std::string& word, IncrementalOptions& out) {
  const IncrementalOptions defaults;
  if (word == "auto" || word == "off") {
    out.rebalance = word == "auto" ? -1 : 0;
    out.changes_per_lost = defaults.changes_per_lost;
    return true;
  }
  if (!word.empty() && word.back() == 'x') {
    const auto k = parse_whole_number(word.substr(0, word.size() - 1), kMostPerLost);
    if (!k || *k == 0) return false;
    out.rebalance = -1;
    out.changes_per_lost = static_cast<unsigned>(*k);
    return true;
  }
  const auto n = parse_whole_number(word, kMostMoved);
  if (!n) return false;
  out.rebalance = static_cast<std::int64_t>(*n);
  out.changes_per_lost = defaults.changes_per_lost;
  return true;
}

std::string rebalance_name(const IncrementalOptions& options) {
  if (options.rebalance == 0) return "off";
  if (options.rebalance > 0) return std::to_string(options.rebalance);
  if (options.changes_per_lost == IncrementalOptions{}.changes_per_lost) return "auto";
  return std::to_string(options.changes_per_lost) + "x";
}

std::string rebalance_choices() {
  return "'auto', 'off', N (entries moved, up to 100000000) or Kx (after a fault at most K "
         "changes per entry that lost its hop, K = 1..1000)";
}

}  // namespace psssp
