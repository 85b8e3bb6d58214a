// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Reading and writing fabrics: ibnetdiscover output, ibsim net files and
// opensm-subnet.lst, detected from the content. Errors are thrown as
// InputError whose what() reads "FILE:LINE: what is wrong".
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

#include "fabric/fabric.h"

namespace psssp {

class InputError : public std::runtime_error {
 public:
  InputError(const std::string& source, std::size_t line, const std::string& message);
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

enum class FabricFormat { ibnetdiscover, ibsim_net, subnet_lst };
std::string_view format_name(FabricFormat format);

// Detects the format from the content; throws InputError if none fits.
FabricFormat detect_fabric_format(std::string_view content, const std::string& source);

// Parses and indexes a fabric. `source` names the input in messages.
Fabric parse_fabric(std::string_view content, const std::string& source);
// Throws InputError naming `source` and the port whose base LID is not a
// multiple of 2^LMC (the SMA masks the low LMC bits, so such a port would
// answer to LIDs it was not given).
void check_lid_alignment(const Fabric& fabric, const std::string& source);
Fabric read_fabric(const std::string& path);  // reads the file, then parse_fabric

// Replaces LIDs from an opensm-subnet.lst or a guid2lid file ("0xGUID LID LID"
// per line, as OpenSM's cache writes it), matched by port GUID, then re-indexes.
void apply_lid_file(Fabric& fabric, const std::string& path);

// Cables counted once each: matched in the source (`changed` of them at
// another rate there) or not found in it (their rate is kept).
struct RateTransfer {
  std::size_t matched = 0, changed = 0, unmatched = 0;
};

// Sets every cable end's rate to the rate the same end (node GUID, port
// number) has in `source`, another description of the same machine.
RateTransfer apply_rates(Fabric& fabric, const Fabric& source);

// What write_ibsim_net could not keep: cables whose rate ibsim cannot run
// ("4xNDR as 4xHDR" -> number of cables). Empty when every rate is kept.
struct NetWriteReport {
  std::map<std::string, std::size_t> substituted;
};

// Writes an ibsim net file that ibsim loads and that reads back into the same
// switches, CAs and cables, each cable at its own width and speed where
// ibsim has that rate (see NetWriteReport).
NetWriteReport write_ibsim_net(std::ostream& out, const Fabric& fabric);

// Reads a whole file into a string; throws InputError naming the file.
std::string read_file(const std::string& path);

// The same, calling check_head(first 64 KiB, whether that is all) before
// reading the rest, so that a check can refuse a huge file early.
using HeadCheck = std::function<void(std::string_view head, bool whole)>;
std::string read_file(const std::string& path, const HeadCheck& check_head);

// read_file for fabric files: text whose first 64 KiB look like no fabric
// format is refused before the rest is read.
std::string read_fabric_file(const std::string& path);

}  // namespace psssp
