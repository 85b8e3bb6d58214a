// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "option_names.h"

#include <cstddef>

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

}  // namespace psssp
