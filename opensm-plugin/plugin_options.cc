#include "plugin_options.h"

#include <cctype>
#include <charconv>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "routing/option_names.h"

namespace psssp {
namespace {

std::vector<std::string> split_tokens(const std::string& text) {
  std::vector<std::string> tokens;
  std::string current;
  for (const char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
      if (!current.empty()) tokens.push_back(std::move(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) tokens.push_back(std::move(current));
  return tokens;
}

unsigned parse_count(const std::string& key, const std::string& value, unsigned lo, unsigned hi) {
  unsigned n = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc() || end != value.data() + value.size() || n < lo || n > hi)
    throw std::invalid_argument("option '" + key + "' needs a whole number in " +
                                std::to_string(lo) + ".." + std::to_string(hi) + ", got '" + value +
                                "'");
  return n;
}

}  // namespace

PluginOptions parse_plugin_options(const std::string& text) {
  PluginOptions o;
  for (const std::string& token : split_tokens(text)) {
    const auto eq = token.find('=');
    const std::string key = token.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : token.substr(eq + 1);
    const bool has_value = eq != std::string::npos;
    auto flag = [&]() {
      if (has_value) throw std::invalid_argument("option '" + key + "' takes no value");
    };
    auto need = [&]() {
      if (!has_value || value.empty())
        throw std::invalid_argument("option '" + key + "' needs a value (" + key + "=...)");
    };
    if (key == "minimal") {
      flag();
      o.routing.minimal = true;
    } else if (key == "nonminimal") {
      flag();
      o.routing.minimal = false;
    } else if (key == "max_extra_hops") {
      need();
      o.routing.max_extra_hops = parse_count(key, value, 0, 64);
    } else if (key == "capacity") {
      flag();
      o.routing.capacity_weights = true;
    } else if (key == "switch_load") {
      flag();
      o.routing.switch_lids_load = true;
    } else if (key == "threads") {
      need();
      o.routing.threads = parse_count(key, value, 0, 256);
    } else if (key == "effort") {
      need();
      const auto effort = parse_effort(value);
      if (!effort)
        throw std::invalid_argument("option 'effort' is " + effort_choices() + ", got '" + value +
                                    "'");
      o.routing.effort = *effort;
    } else if (key == "vls") {
      need();
      o.vls = parse_count(key, value, 1, 15);
    } else if (key == "guid_file") {
      need();
      o.guid_file = value;
    } else if (key == "guid_mode") {
      need();
      if (value == "priority")
        o.routing.guid_list_mode = RoutingOptions::GuidListMode::priority;
      else if (value == "only")
        o.routing.guid_list_mode = RoutingOptions::GuidListMode::only;
      else
        throw std::invalid_argument("option 'guid_mode' is 'priority' or 'only', got '" + value +
                                    "'");
    } else {
      throw std::invalid_argument(
          "unknown option '" + token +
          "' (known: minimal nonminimal max_extra_hops=N capacity switch_load threads=N "
          "effort=auto|full|fast vls=N guid_file=PATH guid_mode=priority|only)");
    }
  }
  return o;
}

std::string describe(const PluginOptions& o) {
  std::ostringstream out;
  out << (o.routing.minimal ? "minimal" : "nonminimal");
  if (!o.routing.minimal) out << " max_extra_hops=" << o.routing.max_extra_hops;
  if (o.routing.capacity_weights) out << " capacity";
  if (o.routing.switch_lids_load) out << " switch_load";
  out << " threads=" << o.routing.threads;
  if (o.routing.effort != RoutingOptions::Effort::automatic)
    out << " effort=" << effort_name(o.routing.effort);
  if (o.vls) out << " vls=" << o.vls;
  if (!o.guid_file.empty())
    out << " guid_file=" << o.guid_file << " guid_mode="
        << (o.routing.guid_list_mode == RoutingOptions::GuidListMode::only ? "only" : "priority");
  return out.str();
}

}  // namespace psssp
