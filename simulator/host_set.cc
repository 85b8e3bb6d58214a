// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "host_set.h"

#include <re2/re2.h>

#include <algorithm>
#include <stdexcept>
#include <unordered_set>

#include "formats/guid_list.h"
#include "output_util.h"

namespace psssp::sim {

std::uint64_t parse_number(const std::string& text, const std::string& what) {
  std::size_t used = 0;
  std::uint64_t value = 0;
  try {
    const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    value = std::stoull(hex ? text.substr(2) : text, &used, hex ? 16 : 10);
    if (hex) used += 2;
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || text[0] == '-')
    throw std::runtime_error(what + ": '" + text + "' is not a number");
  return value;
}

bool natural_less(const std::string& a, const std::string& b) {
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  int zeros = 0;  // leading zeros, the tie-break between runs of equal value
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (!digit(a[i]) || !digit(b[j])) {
      if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
      ++i, ++j;
      continue;
    }
    const std::size_t a0 = i, b0 = j;
    while (i < a.size() && a[i] == '0') ++i;
    while (j < b.size() && b[j] == '0') ++j;
    const std::size_t a1 = i, b1 = j;  // first significant digits
    while (i < a.size() && digit(a[i])) ++i;
    while (j < b.size() && digit(b[j])) ++j;
    if (i - a1 != j - b1) return i - a1 < j - b1;  // fewer significant digits: smaller
    const int c = a.compare(a1, i - a1, b, b1, j - b1);
    if (c != 0) return c < 0;
    if (zeros == 0 && a1 - a0 != b1 - b0) zeros = a1 - a0 < b1 - b0 ? -1 : 1;
  }
  if (i < a.size() || j < b.size()) return j < b.size();  // a prefix sorts first
  return zeros < 0;
}

std::vector<std::uint32_t> hostname_order(const Fabric& fabric, const std::vector<Host>& hosts) {
  std::vector<std::uint32_t> order(hosts.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  auto name = [&](std::uint32_t i) -> const std::string& {
    const Node& node = fabric.node(hosts[i].port.node);
    return node.description.empty() ? node.name : node.description;
  };
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
    const std::string &a = name(x), &b = name(y);
    if (natural_less(a, b)) return true;
    if (natural_less(b, a)) return false;
    return hosts[x].port.port < hosts[y].port.port;
  });
  return order;
}

std::vector<Host> select_hosts(const Fabric& fabric, const HostFilter& filter) {
  std::unordered_set<std::uint64_t> wanted_ports;  // channel-free key: node << 8 | port
  auto key = [](PortRef r) { return static_cast<std::uint64_t>(r.node) << 8 | r.port; };
  const bool by_file = !filter.guids_file.empty();
  if (by_file) {
    // Like OpenSM's cn_guid_file the list names port GUIDs; a node GUID
    // stands for all host ports of that node.
    for (const Guid guid : read_guid_list(filter.guids_file)) {
      if (const auto port = fabric.find_port_by_guid(guid)) {
        wanted_ports.insert(key(*port));
      } else if (const auto node = fabric.find_by_guid(guid)) {
        for (PortNum p = 1; p < fabric.node(*node).ports.size(); ++p)
          wanted_ports.insert(key(PortRef{*node, p}));
      } else {
        throw std::runtime_error(filter.guids_file + ": GUID " + hex_guid(guid) +
                                 " is not in the fabric");
      }
    }
  }
  // RE2 matches in time linear in the text, without recursion: a node
  // description of any length cannot exhaust the stack (std::regex did).
  const bool by_regex = !filter.regex.empty();
  RE2::Options options;
  options.set_log_errors(false);
  const RE2 re(by_regex ? filter.regex : std::string("^$"), options);
  if (by_regex && !re.ok())
    throw std::runtime_error("bad --hosts-regex '" + filter.regex + "': " + re.error());
  std::vector<Host> hosts;
  for (const PortRef& ref : fabric.host_ports()) {
    const Node& node = fabric.node(ref.node);
    if (by_file && !wanted_ports.count(key(ref))) continue;
    if (by_regex && !RE2::PartialMatch(node.description.empty() ? node.name : node.description, re))
      continue;
    const Port& port = fabric.port(ref);
    hosts.push_back(Host{ref, port.lid, port.lmc});
  }
  return hosts;
}

}  // namespace psssp::sim
