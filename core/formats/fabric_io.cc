// Entry points of fabric reading: InputError, whole-file reads, and
// parse_fabric dispatching to the reader that format_detect picks.
#include "fabric_io.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "readers.h"

namespace psssp {

InputError::InputError(const std::string& source, std::size_t line, const std::string& message)
    : std::runtime_error(source + ":" + std::to_string(line) + ": " + message) {}

std::string read_file(const std::string& path) {
  std::error_code ec;
  // Refuse devices and FIFOs: an include of /dev/zero must not hang a reader.
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError(path + ": " +
                     (std::filesystem::exists(path, ec) ? "not a regular file" : "no such file"));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(path + ": read error");
  return std::move(text).str();
}

Fabric parse_fabric(std::string_view content, const std::string& source) {
  Fabric fabric;
  switch (detect_fabric_format(content, source)) {
    case FabricFormat::ibnetdiscover:
      fabric = formats::parse_ibnetdiscover(content, source);
      break;
    case FabricFormat::ibsim_net:
      fabric = formats::parse_ibsim_net(content, source);
      break;
    case FabricFormat::subnet_lst:
      fabric = formats::parse_subnet_lst(content, source);
      break;
  }
  try {
    fabric.index();
  } catch (const FabricError& e) {
    throw InputError(source + ": " + e.what());
  }
  return fabric;
}

Fabric read_fabric(const std::string& path) { return parse_fabric(read_file(path), path); }

}  // namespace psssp
