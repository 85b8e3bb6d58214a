#include "guid_list.h"

#include <cctype>
#include <charconv>

#include "fabric_io.h"

namespace psssp {

std::vector<Guid> parse_guid_list(std::string_view content, const std::string& source) {
  std::vector<Guid> guids;
  std::size_t line_no = 0;
  while (!content.empty()) {
    const auto nl = content.find('\n');
    std::string_view line = content.substr(0, nl);
    content = nl == std::string_view::npos ? std::string_view{} : content.substr(nl + 1);
    ++line_no;
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) line.remove_prefix(1);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.remove_suffix(1);
    if (line.empty()) continue;
    std::string_view digits = line;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
      digits.remove_prefix(2);
    Guid guid = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), guid, 16);
    if (ec != std::errc() || end != digits.data() + digits.size() || guid == 0)
      throw InputError(source, line_no, "not a GUID: '" + std::string(line) + "'");
    guids.push_back(guid);
  }
  return guids;
}

std::vector<Guid> read_guid_list(const std::string& path) {
  return parse_guid_list(read_file(path), path);
}

}  // namespace psssp
