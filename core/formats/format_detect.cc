// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Picks the fabric reader from the content. ibnetdiscover output and ibsim
// net files share the record syntax; ibnetdiscover's own marks (the
// "# Topology file" banner, "switchguid=0x..(..)" lines, "[p](guid)" CA
// ports) decide for it unless ibsim-only syntax (Hca records, include, do)
// appears.
#include "fabric_io.h"
#include "line_scanner.h"

namespace psssp {

std::string_view format_name(FabricFormat format) {
  switch (format) {
    case FabricFormat::ibnetdiscover:
      return "ibnetdiscover";
    case FabricFormat::ibsim_net:
      return "ibsim net";
    case FabricFormat::subnet_lst:
      return "opensm-subnet.lst";
  }
  return "?";
}

FabricFormat detect_fabric_format(std::string_view content, const std::string& source) {
  using formats::starts_with;
  formats::LineScanner lines(content);
  std::string_view line;
  bool first_significant = true;
  bool ibnetdiscover_marks = false, ibsim_marks = false, records = false;
  while (lines.next(line)) {
    const std::string_view t = formats::trim(line);
    if (t.empty()) continue;
    if (first_significant && starts_with(t, "{") && t.find("NodeGUID:") != std::string_view::npos)
      return FabricFormat::subnet_lst;
    first_significant = false;
    const std::string_view word = formats::Cursor(t).word();
    if (starts_with(t, "# Topology file") ||
        (starts_with(t, "switchguid=0x") && t.find('(') != std::string_view::npos) ||
        (t[0] == '[' && t.find("](") != std::string_view::npos))
      ibnetdiscover_marks = true;
    if (word == "Hca" || word == "include" || word == "do" || starts_with(t, "hcaguids"))
      ibsim_marks = true;
    if (word == "Switch" || word == "Ca" || word == "Rt" || word == "Hca") records = true;
  }
  if (ibnetdiscover_marks && !ibsim_marks) return FabricFormat::ibnetdiscover;
  if (records || ibsim_marks) return FabricFormat::ibsim_net;
  throw InputError(source + ": not an ibnetdiscover, ibsim net or opensm-subnet.lst file" +
                   (content.empty() ? " (empty)" : ""));
}

}  // namespace psssp
