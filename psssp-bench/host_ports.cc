// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "host_ports.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "output_util.h"

namespace psssp::bench {
namespace fs = std::filesystem;

namespace {

std::string read_small_file(const fs::path& path) {
  std::ifstream in(path);
  std::string text;
  std::getline(in, text);
  return text;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

// "fe80:0000:0000:0000:0002:c903:0000:1234" -> 0x0002c90300001234.
std::uint64_t guid_of_gid(const std::string& gid, const std::string& where) {
  std::uint64_t guid = 0;
  std::istringstream in(gid);
  std::string group;
  std::vector<std::string> groups;
  while (std::getline(in, group, ':')) groups.push_back(group);
  if (groups.size() != 8) throw std::runtime_error(where + ": GID '" + gid + "' is not a GID");
  for (std::size_t i = 4; i < 8; ++i)
    guid = guid << 16 | sim::parse_number("0x" + groups[i], where + ": GID");
  return guid;
}

std::string port_key(const PortId& p) {
  return p.guid ? sim::hex_guid(p.guid) : "LID " + std::to_string(p.lid);
}

}  // namespace

std::vector<PortId> read_map(const std::string& path, std::size_t ranks) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::vector<PortId> ports(ranks);
  std::vector<bool> seen(ranks, false);
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    const std::string where = path + ":" + std::to_string(number);
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    std::string rank_text, value_text, extra;
    if (!(words >> rank_text)) continue;
    if (!(words >> value_text) || (words >> extra))
      throw std::runtime_error(where + ": expected 'RANK PORT-GUID' or 'RANK LID'");
    const std::uint64_t rank = sim::parse_number(rank_text, where + ": rank");
    if (rank >= ranks)
      throw std::runtime_error(where + ": rank " + rank_text + ", but there are " +
                               std::to_string(ranks) + " ranks (0.." + std::to_string(ranks - 1) +
                               ")");
    if (seen[rank]) throw std::runtime_error(where + ": rank " + rank_text + " again");
    seen[rank] = true;
    const std::uint64_t value = sim::parse_number(value_text, where + ": port GUID or LID");
    if (value == 0) throw std::runtime_error(where + ": 0 is neither a LID nor a GUID");
    PortId& p = ports[rank];
    if (value <= kMaxUnicastLid)
      p.lid = static_cast<std::uint32_t>(value);
    else
      p.guid = value;
    p.where = where;
  }
  for (std::size_t r = 0; r < ranks; ++r)
    if (!seen[r])
      throw std::runtime_error(path + ": no line for rank " + std::to_string(r) + " (of " +
                               std::to_string(ranks) + " ranks)");
  return ports;
}

PortId read_sysfs_port(const std::string& root, const std::string& hca) {
  std::error_code ec;
  if (!fs::is_directory(root, ec))
    throw std::runtime_error("no InfiniBand devices: " + root +
                             " is not a directory (give the ports with --map)");
  std::string want_dev = hca, want_port;
  if (const auto colon = hca.find(':'); colon != std::string::npos) {
    want_dev = hca.substr(0, colon);
    want_port = hca.substr(colon + 1);
  }
  std::vector<fs::path> devices;
  for (const auto& e : fs::directory_iterator(root, ec)) devices.push_back(e.path());
  std::sort(devices.begin(), devices.end());
  for (const fs::path& dev : devices) {
    if (!want_dev.empty() && dev.filename() != want_dev) continue;
    std::vector<fs::path> ports;
    for (const auto& e : fs::directory_iterator(dev / "ports", ec)) ports.push_back(e.path());
    std::sort(ports.begin(), ports.end());
    for (const fs::path& port : ports) {
      if (!want_port.empty() && port.filename() != want_port) continue;
      const std::string layer = trim(read_small_file(port / "link_layer"));
      const std::string state = trim(read_small_file(port / "state"));
      if (!layer.empty() && layer != "InfiniBand") continue;
      if (state.find("ACTIVE") == std::string::npos) continue;
      const std::string where =
          "sysfs " + dev.filename().string() + " port " + port.filename().string();
      PortId p;
      p.where = where;
      p.lid = static_cast<std::uint32_t>(
          sim::parse_number(trim(read_small_file(port / "lid")), (port / "lid").string()));
      p.guid = guid_of_gid(trim(read_small_file(port / "gids" / "0")), (port / "gids/0").string());
      if (p.lid == 0 || p.guid == 0)
        throw std::runtime_error(where +
                                 ": the port has no LID or GUID yet (is a subnet "
                                 "manager running?)");
      return p;
    }
  }
  throw std::runtime_error("no ACTIVE InfiniBand port under " + root +
                           (hca.empty() ? std::string() : " matching --hca " + hca) +
                           " (give the ports with --map)");
}

RankPorts resolve_ports(const std::vector<PortId>& ports, const Fabric* fabric,
                        const std::vector<sim::Host>& hosts, const std::string& fabric_path) {
  RankPorts out;
  std::map<std::uint64_t, std::uint32_t> host_of;  // node << 8 | port -> host index
  for (std::uint32_t i = 0; i < hosts.size(); ++i)
    host_of.emplace(static_cast<std::uint64_t>(hosts[i].port.node) << 8 | hosts[i].port.port, i);
  std::map<std::string, std::size_t> owner;  // port -> first rank on it
  for (std::size_t r = 0; r < ports.size(); ++r) {
    PortId p = ports[r];
    if (fabric) {
      PortRef ref;
      if (p.guid) {
        if (const auto found = fabric->find_port_by_guid(p.guid)) ref = *found;
        if (!ref.valid())
          throw std::runtime_error(p.where + ": port GUID " + sim::hex_guid(p.guid) + " (rank " +
                                   std::to_string(r) + ") is not in " + fabric_path);
      } else {
        ref = fabric->port_of_lid(static_cast<Lid>(p.lid));
        if (!ref.valid())
          throw std::runtime_error(p.where + ": LID " + std::to_string(p.lid) + " (rank " +
                                   std::to_string(r) + ") is not in " + fabric_path);
      }
      const auto it = host_of.find(static_cast<std::uint64_t>(ref.node) << 8 | ref.port);
      if (it == host_of.end())
        throw std::runtime_error(p.where + ": " + port_key(p) + " (rank " + std::to_string(r) +
                                 ") is not a host port with a LID in " + fabric_path);
      out.host.push_back(it->second);
      p.guid = fabric->port(ref).guid;
      p.lid = hosts[it->second].lid;
    } else if (p.lid == 0) {
      throw std::runtime_error(p.where + ": port GUID " + sim::hex_guid(p.guid) + " (rank " +
                               std::to_string(r) + "): without --fabric the map gives LIDs");
    }
    const std::string key = fabric ? "host " + std::to_string(out.host.back()) : port_key(p);
    const auto [at, fresh] = owner.emplace(key, r);
    if (!fresh)
      throw std::runtime_error("ranks " + std::to_string(at->second) + " and " + std::to_string(r) +
                               " are on the same port (" + port_key(p) + ", " + p.where +
                               "): one rank per host port");
    out.guid.push_back(p.guid);
    out.lid.push_back(p.lid);
  }
  return out;
}

}  // namespace psssp::bench
