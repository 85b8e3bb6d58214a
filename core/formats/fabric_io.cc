// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
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

std::string read_file(const std::string& path) { return read_file(path, {}); }

std::string read_file(const std::string& path, const HeadCheck& check_head) {
  std::error_code ec;
  // Refuse devices and directories: an include of /dev/zero must not hang a
  // reader. Pipes are read: a shell's <(command) is one (/dev/fd/63).
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::is_regular_file(status) && !std::filesystem::is_fifo(status))
    throw InputError(
        path + ": " +
        (std::filesystem::exists(status) ? "not a regular file or pipe" : "no such file"));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open: " + std::strerror(errno));
  // Every format read here is text: a NUL byte in the first 64 KiB means a
  // binary file (a core dump, a disk image), refused before reading the rest
  // of what may be gigabytes.
  std::string head(64 * 1024, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  const auto nul = head.find('\0');
  if (nul != std::string::npos)
    throw InputError(path + ": binary data (a NUL byte at offset " + std::to_string(nul) +
                     "), not a text file");
  if (in.bad()) throw InputError(path + ": read error");
  if (check_head) check_head(head, in.eof());
  std::ostringstream text;
  text << head;
  if (!in.eof()) text << in.rdbuf();
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
  check_lid_alignment(fabric, source);
  return fabric;
}

void check_lid_alignment(const Fabric& fabric, const std::string& source) {
  for (NodeId id = 0; id < fabric.node_count(); ++id) {
    const Node& n = fabric.node(id);
    for (PortNum p = 0; p < n.ports.size(); ++p) {
      const Port& port = n.ports[p];
      if (port.lid != 0 && port.lid % port.lid_count() != 0)
        throw InputError(source + ": base LID " + std::to_string(port.lid) + " of " +
                         describe_node(fabric, id) + " port " + std::to_string(p) +
                         " is not a multiple of 2^LMC = " + std::to_string(port.lid_count()) +
                         " (LMC " + std::to_string(port.lmc) + ")");
    }
  }
}

std::string read_fabric_file(const std::string& path) {
  return read_file(path, [&path](std::string_view head, bool whole) {
    if (whole) return;  // the detection on the whole content says what is wrong
    // A fabric file shows its format in its first lines: text with nothing
    // like one in its first 64 KiB is refused before the rest is read.
    try {
      detect_fabric_format(head, path);
    } catch (const InputError&) {
      throw InputError(path +
                       ": not an ibnetdiscover, ibsim net or opensm-subnet.lst file (nothing "
                       "like one in its first 64 KiB)");
    }
  });
}

Fabric read_fabric(const std::string& path) { return parse_fabric(read_fabric_file(path), path); }

}  // namespace psssp
