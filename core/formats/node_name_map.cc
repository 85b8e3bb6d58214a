// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "node_name_map.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "fabric_io.h"
#include "line_scanner.h"

namespace psssp {

std::map<Guid, std::string> parse_node_name_map(std::string_view content,
                                                const std::string& source) {
  std::map<Guid, std::string> names;
  formats::LineScanner lines(content);
  std::string_view line;
  while (lines.next(line)) {
    const std::string_view text = formats::trim(line);
    if (text.empty() || text[0] == '#') continue;
    // strtoull with base 0, as infiniband-diags reads it: 0x.. hex, 0.. octal.
    const std::string copy(text);
    char* end = nullptr;
    errno = 0;
    const unsigned long long guid = std::strtoull(copy.c_str(), &end, 0);
    const bool separated =
        *end == '\0' || *end == '#' || std::isspace(static_cast<unsigned char>(*end));
    if (end == copy.c_str() || !separated || errno == ERANGE || copy[0] == '-')
      throw InputError(source, lines.line_number(),
                       "not a GUID at the start of the line: '" + formats::excerpt(text) + "'");
    std::string_view rest = formats::trim(std::string_view(end));
    if (rest.empty() || rest[0] == '#') continue;  // a GUID without a name maps nothing
    rest.remove_prefix(std::min(rest.find_first_not_of('"'), rest.size()));
    const std::string_view name = formats::trim(rest.substr(0, rest.find_first_of("\"#")));
    if (!name.empty()) names[guid] = std::string(name);
  }
  return names;
}

std::size_t apply_node_name_map(Fabric& fabric, const std::map<Guid, std::string>& names) {
  std::size_t renamed = 0;
  for (NodeId id = 0; id < fabric.node_count(); ++id) {
    Node& node = fabric.node(id);
    const auto it = names.find(node.guid);
    if (it == names.end()) continue;
    node.description = it->second;
    ++renamed;
  }
  return renamed;
}

}  // namespace psssp
