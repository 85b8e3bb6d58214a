#include "option_names.h"

namespace psssp {

std::optional<RoutingOptions::Effort> parse_effort(const std::string& name) {
  using Effort = RoutingOptions::Effort;
  if (name == "auto") return Effort::automatic;
  if (name == "full") return Effort::full;
  if (name == "fast") return Effort::fast;
  return std::nullopt;
}

const char* effort_name(RoutingOptions::Effort effort) {
  switch (effort) {
    case RoutingOptions::Effort::full:
      return "full";
    case RoutingOptions::Effort::fast:
      return "fast";
    default:
      return "auto";
  }
}

std::optional<RoutingOptions::Order> parse_order(const std::string& name) {
  using Order = RoutingOptions::Order;
  if (name == "auto") return Order::automatic;
  if (name == "switches") return Order::switches;
  if (name == "interleaved") return Order::interleaved;
  if (name == "lid") return Order::lid;
  return std::nullopt;
}

const char* order_name(RoutingOptions::Order order) {
  switch (order) {
    case RoutingOptions::Order::interleaved:
      return "interleaved";
    case RoutingOptions::Order::switches:
      return "switches";
    case RoutingOptions::Order::lid:
      return "lid";
    default:
      return "auto";
  }
}

}  // namespace psssp
