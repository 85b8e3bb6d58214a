// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Reader for LFT dumps, bound to a fabric. Accepted layouts, one table per
// switch:
//   opensm-lfts.dump  "Unicast lids [0-6] of switch Lid 1 guid 0x... ('desc'):"
//                     "0x0001 000 # Switch portguid 0x...: 'desc'"
//                     "6 lids dumped"
//   dump_fts/ibroute  "Unicast lids [0x0-0x6] of switch Lid 3 guid 0x... (desc):"
//                     or "... of switch DR path slid 0; dlid 0; 0,3 guid 0x... (desc):"
//                     "  Lid  Out   Destination" / "       Port     Info "
//                     "0x0004 001 : (Channel Adapter portguid 0x...: 'desc')"
//                     "0x0005 003 : (path #2 out of 4: portguid 0x...)"
//                     "0x0001 003 " (-n), "6 valid lids dumped "
// Entries naming a port GUID are moved to that port's LID range in the
// fabric exactly as OpenSM's file engine does (remap_lid in osm_ucast_file.c).
//
// Large dumps (hundreds of MB on a 4096-host fat tree) take a fast path: the file
// is mapped rather than copied, well-formed entry lines are parsed in place
// with the port GUID -> LID remap cached per LID, and the text is split at
// table headers and parsed by several threads. Anything unusual goes through
// the general line parser, and any error makes the whole text be parsed again
// sequentially, so messages and line numbers are those of a single pass.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>

#include "formats/lft_io.h"
#include "line_scanner.h"
#include "parallel/run_workers.h"
#include "parallel/thread_count.h"

namespace psssp {
namespace {

using formats::Cursor;
using formats::starts_with;
using formats::trim;

// Hex digit values; -1 for anything else.
struct HexTable {
  signed char v[256];
  constexpr HexTable() : v() {
    for (int i = 0; i < 256; ++i) v[i] = -1;
    for (int i = 0; i < 10; ++i) v['0' + i] = static_cast<signed char>(i);
    for (int i = 0; i < 6; ++i) {
      v['a' + i] = static_cast<signed char>(10 + i);
      v['A' + i] = static_cast<signed char>(10 + i);
    }
  }
};
constexpr HexTable kHex;
inline int hex_digit(char c) { return kHex.v[static_cast<unsigned char>(c)]; }

// State shared by the readers of one text: the tables, which switch tables
// were claimed (by which reader, 1-based), the port GUID remap cache.
struct Shared {
  explicit Shared(const Fabric& f) : tables(f), claimed(f.node_count()) {}
  ForwardingTables tables;
  std::vector<std::atomic<unsigned>> claimed;
};

class LftReader {
 public:
  // Reads lines [first line of `content`, end) numbered from line_base + 1.
  // `id` tells the claims of concurrent readers apart.
  LftReader(std::string_view content, const std::string& source, const Fabric& fabric,
            Shared& shared, unsigned id)
      : content_(content),
        source_(source),
        fabric_(fabric),
        tables_(shared.tables),
        claimed_(shared.claimed),
        id_(id) {}

  // Returns whether any table header was seen. Throws InputError on bad
  // input, or a Conflict when another reader already claimed a switch.
  struct Conflict {};
  bool read() {
    // Lines as formats::LineScanner splits them (newline and a trailing '\r'
    // removed, no empty line after the final newline), numbered from 1.
    const char* p = content_.data();
    const char* const end = p + content_.size();
    std::size_t line_no = 0;
    bool any = false;
    while (p < end) {
      ++line_no;
      if (row_ && end - p >= 10 && p[0] == '0' && p[1] == 'x') {
        if (const char* next = fast_entry(p, end)) {
          p = next;
          continue;
        }
      }
      const char* nl =
          static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
      std::string_view raw(p, static_cast<std::size_t>((nl ? nl : end) - p));
      p = nl ? nl + 1 : end;
      if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
      line_no_ = line_no;
      line_ = raw;
      const std::string_view t = trim(raw);
      if (t.empty() || t[0] == '#') continue;
      if (starts_with(t, "Unicast lids")) {
        header(t);
        any = true;
      } else if (starts_with(t, "0x")) {
        if (current_ == kNoNode) error("LFT entry outside a switch table");
        entry(t);
      } else if (starts_with(t, "Lid ") || starts_with(t, "Port ")) {
        if (current_ == kNoNode) error("column header outside a switch table");
      } else if (t.size() > 11 && t.substr(t.size() - 11) == "lids dumped") {
        if (current_ == kNoNode) error("footer outside a switch table");
        current_ = kNoNode;
        row_ = nullptr;
      } else {
        error("unrecognised line");
      }
    }
    return any;
  }

 private:
  [[noreturn]] void error(const std::string& message) {
    formats::fail(source_, line_no_, message, line_);
  }

  void header(std::string_view t) {
    Cursor c(t);
    c.consume("Unicast lids");
    c.skip_space();
    if (!c.consume('[') || !c.number(0xFFFF) || !c.consume('-') || !c.number(0xFFFF) ||
        !c.consume(']'))
      error("bad LID range in table header");
    c.skip_space();
    if (!c.consume("of switch")) error("expected \"of switch\" in table header");
    const std::string_view rest = c.rest();
    NodeId sw = kNoNode;
    const auto guid_at = rest.find(" guid 0x");
    if (guid_at != std::string_view::npos) {
      Cursor g(rest.substr(guid_at + 6));
      const auto guid = g.hex_0x();
      if (!guid) error("bad switch GUID");
      const auto node = fabric_.find_by_guid(*guid);
      if (!node)
        error("unknown switch GUID " + formats::guid_string(*guid) + " (not in the fabric)");
      sw = *node;
    } else {
      // Without a GUID only a "Lid N" header identifies the switch.
      Cursor l(rest);
      l.skip_space();
      if (!l.consume("Lid")) error("table header names neither a switch GUID nor a LID");
      l.skip_space();
      const auto lid = l.decimal(kMaxUnicastLid);
      if (!lid) error("bad switch LID");
      const PortRef owner = fabric_.port_of_lid(static_cast<Lid>(*lid));
      if (!owner.valid()) error("no switch has LID " + std::to_string(*lid) + " in the fabric");
      sw = owner.node;
    }
    if (!fabric_.node(sw).is_switch()) error(describe_node(fabric_, sw) + " is not a switch");
    unsigned before = 0;
    if (!claimed_[sw].compare_exchange_strong(before, id_)) {
      if (before != id_) throw Conflict{};  // the sequential pass reports it
      error("second table for switch " + describe_node(fabric_, sw));
    }
    current_ = sw;
    row_ = tables_.row(sw);
    ports_ = fabric_.node(sw).num_ports();
  }

  // The port GUID -> LID remap of OpenSM's file engine (remap_lid): a LID
  // outside the port's current range keeps its offset within the LMC block.
  // Returns the target LID, or an error message.
  bool remap(std::uint64_t lid, Guid guid, std::uint64_t& target, std::string* why) const {
    const auto ref = fabric_.find_port_by_guid(guid);
    if (!ref) {
      if (why) *why = "unknown port GUID " + formats::guid_string(guid) + " (not in the fabric)";
      return false;
    }
    const Port& dest = fabric_.port(*ref);
    if (dest.lid == 0) {
      if (why) *why = "port " + formats::guid_string(guid) + " has no LID in the fabric";
      return false;
    }
    target = lid;
    if (lid < dest.lid || lid >= dest.lid + dest.lid_count())
      target = dest.lid + (lid & (dest.lid_count() - 1));
    return true;
  }

  void entry(std::string_view t) {
    Cursor c(t);
    const auto lid = c.hex_0x(0xFFFF);
    if (!lid || !c.skip_space()) error("bad LID");
    const auto port = c.decimal(255);
    if (!port) error("bad output port");
    const Node& sw = fabric_.node(current_);
    if (*port != kNoPath && *port > sw.num_ports())
      error("port " + std::to_string(*port) + " beyond the " + std::to_string(sw.num_ports()) +
            " ports of " + describe_node(fabric_, current_));
    c.skip_space();
    const std::string_view note = c.rest();
    if (!note.empty() && note[0] != ':' && note[0] != '#') error("unexpected text after the port");
    std::optional<Guid> guid;
    const auto guid_at = note.find("portguid 0x");
    if (guid_at != std::string_view::npos) {
      Cursor g(note.substr(guid_at + 9));
      guid = g.hex_0x();
      if (!guid) error("bad port GUID");
    }
    std::uint64_t target = *lid;
    if (guid) {
      std::string why;
      if (!remap(*lid, *guid, target, &why)) error(why);
    }
    if (target >= tables_.lid_count())
      error("LID " + std::to_string(target) + " beyond the fabric's highest LID " +
            std::to_string(fabric_.max_lid()));
    tables_.set(current_, static_cast<Lid>(target), static_cast<PortNum>(*port));
  }

  // The common entry shape, "0xLLLL PPP[ note]" inside a table, parsed in
  // place from `p` (a line start, at least 10 characters before `end`).
  // Returns the start of the next line, or nullptr, having changed nothing,
  // for anything the general parser might treat differently (every error
  // included).
  const char* fast_entry(const char* p, const char* end) {
    if (p[6] != ' ') return nullptr;
    const int h0 = hex_digit(p[2]), h1 = hex_digit(p[3]), h2 = hex_digit(p[4]),
              h3 = hex_digit(p[5]);
    if ((h0 | h1 | h2 | h3) < 0) return nullptr;
    const std::uint64_t lid = static_cast<std::uint64_t>(h0 << 12 | h1 << 8 | h2 << 4 | h3);
    const unsigned d0 = static_cast<unsigned char>(p[7]) - unsigned{'0'},
                   d1 = static_cast<unsigned char>(p[8]) - unsigned{'0'},
                   d2 = static_cast<unsigned char>(p[9]) - unsigned{'0'};
    if (d0 > 9 || d1 > 9 || d2 > 9) return nullptr;
    const unsigned port = d0 * 100 + d1 * 10 + d2;
    if (port > 255 || (port != kNoPath && port > ports_)) return nullptr;
    const char* q = p + 10;
    if (q < end && *q != '\n') {
      if (!formats::is_space(*q)) return nullptr;  // more digits, '\r', junk
      while (q < end && formats::is_space(*q)) ++q;
    }
    std::uint64_t target = lid;
    const char* line_end = nullptr;
    if (q < end && *q != '\n') {
      if (*q != ':' && *q != '#') return nullptr;
      // The note's first "portguid 0x". OpenSM's two shapes have it at a
      // known place; other notes are searched.
      static constexpr std::string_view kCa = "# Channel Adapter portguid 0x";
      static constexpr std::string_view kSwitch = "# Switch portguid 0x";
      static constexpr std::string_view kKey = "portguid 0x";
      const auto rest = static_cast<std::size_t>(end - q);
      const char* digits = nullptr;
      if (rest >= kCa.size() && std::memcmp(q, kCa.data(), kCa.size()) == 0) {
        digits = q + kCa.size();
      } else if (rest >= kSwitch.size() && std::memcmp(q, kSwitch.data(), kSwitch.size()) == 0) {
        digits = q + kSwitch.size();
      } else {
        line_end = static_cast<const char*>(std::memchr(q, '\n', rest));
        const std::string_view note(q, static_cast<std::size_t>((line_end ? line_end : end) - q));
        const auto at = note.find(kKey);
        if (at != std::string_view::npos) digits = q + at + kKey.size();
      }
      if (digits) {
        // OpenSM prints 16 digits: the same 16 hex digits as last time for
        // this LID remap as last time, without being parsed again.
        std::uint64_t text[2];
        const bool sixteen = end - digits > 16 && hex_digit(digits[16]) < 0 &&
                             (std::memcpy(text, digits, 16), lid < cache_.size());
        if (sixteen && cache_[lid].valid && cache_[lid].text[0] == text[0] &&
            cache_[lid].text[1] == text[1]) {
          target = cache_[lid].target;
          q = digits + 16;
        } else {
          // As Cursor::hex_0x: 1.. digits, at most 16 after leading zeros.
          const char* e = digits;
          while (e < end && hex_digit(*e) >= 0) ++e;
          if (e == digits) return nullptr;
          const char* k = digits;
          while (k + 1 < e && *k == '0') ++k;
          if (e - k > 16) return nullptr;
          Guid guid = 0;
          for (; k < e; ++k) guid = guid << 4 | static_cast<Guid>(hex_digit(*k));
          if (!remap(lid, guid, target, nullptr)) return nullptr;
          if (sixteen && e - digits == 16)
            cache_[lid] = Cache{{text[0], text[1]}, static_cast<std::uint32_t>(target), true};
          q = e;
        }
      }
    }
    if (target >= tables_.lid_count()) return nullptr;
    row_[target] = static_cast<PortNum>(port);
    if (!line_end)
      line_end = static_cast<const char*>(std::memchr(q, '\n', static_cast<std::size_t>(end - q)));
    return line_end ? line_end + 1 : end;
  }

  struct Cache {  // a LID's last 16-digit port GUID text and where it led
    std::uint64_t text[2] = {0, 0};
    std::uint32_t target = 0;
    bool valid = false;
  };

  std::string_view content_;
  const std::string& source_;
  const Fabric& fabric_;
  ForwardingTables& tables_;
  std::vector<std::atomic<unsigned>>& claimed_;
  unsigned id_;
  NodeId current_ = kNoNode;
  PortNum* row_ = nullptr;                                              // current_'s LFT row
  unsigned ports_ = 0;                                                  // current_'s port count
  std::vector<Cache> cache_ = std::vector<Cache>(tables_.lid_count());  // per entry LID
  std::size_t line_no_ = 0;
  std::string_view line_;
};

constexpr std::string_view kHeaderLine = "\nUnicast lids";

// Splits `content` into up to `parts` pieces that each start at a line
// beginning with a table header (the first piece: at the start).
std::vector<std::string_view> split_at_headers(std::string_view content, unsigned parts) {
  std::vector<std::string_view> out;
  std::size_t begin = 0;
  for (unsigned i = 1; i < parts; ++i) {
    const std::size_t from = std::max(begin, content.size() / parts * i);
    const std::size_t nl = content.find(kHeaderLine, from);
    if (nl == std::string_view::npos) break;
    out.push_back(content.substr(begin, nl + 1 - begin));
    begin = nl + 1;
  }
  out.push_back(content.substr(begin));
  return out;
}

ForwardingTables parse_sequential(std::string_view content, const std::string& source,
                                  const Fabric& fabric) {
  Shared shared(fabric);
  if (!LftReader(content, source, fabric, shared, 1).read())
    throw InputError(source + ": no \"Unicast lids\" switch tables found");
  return std::move(shared.tables);
}

// Below this size one thread reads the text (tests may lower it).
#ifndef PSSSP_LFT_PARALLEL_BYTES
#define PSSSP_LFT_PARALLEL_BYTES (std::size_t{4} << 20)
#endif
constexpr std::size_t kParallelBytes = PSSSP_LFT_PARALLEL_BYTES;

}  // namespace

ForwardingTables parse_lfts(std::string_view content, const std::string& source,
                            const Fabric& fabric) {
  if (is_fdbs(content)) return parse_fdbs(content, source, fabric);
  const unsigned threads = std::min(8u, parallel::effective_threads(0));
  if (threads < 2 || content.size() < kParallelBytes)
    return parse_sequential(content, source, fabric);
  const std::vector<std::string_view> parts = split_at_headers(content, threads);
  if (parts.size() < 2) return parse_sequential(content, source, fabric);
  // Every piece starts at a header (or the text's start), where the single
  // pass has no state left but the set of switches seen; a switch seen by two
  // readers, like any error, sends the text through the single pass.
  Shared shared(fabric);
  std::vector<char> any(parts.size(), 0), failed(parts.size(), 0);
  auto work = [&](unsigned i) {
    try {
      any[i] = LftReader(parts[i], source, fabric, shared, i + 1).read();
    } catch (...) {
      failed[i] = 1;
    }
  };
  parallel::run_workers(static_cast<unsigned>(parts.size()), work);
  if (std::find(failed.begin(), failed.end(), 1) != failed.end())
    return parse_sequential(content, source, fabric);
  if (std::find(any.begin(), any.end(), 1) == any.end())
    throw InputError(source + ": no \"Unicast lids\" switch tables found");
  return std::move(shared.tables);
}

namespace {

// A read-only private mapping of a regular file; empty when the file cannot
// be mapped (then read_file reads it, or reports why it cannot).
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
      size_ = static_cast<std::size_t>(st.st_size);
      void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
      if (p == MAP_FAILED) {
        size_ = 0;
      } else {
        data_ = static_cast<const char*>(p);
      }
    }
    ::close(fd);
  }
  ~MappedFile() {
    if (data_) ::munmap(const_cast<char*>(data_), size_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  bool ok() const { return data_ != nullptr; }
  std::string_view text() const { return {data_, size_}; }

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace

ForwardingTables read_lfts(const std::string& path, const Fabric& fabric) {
  const MappedFile file(path);
  if (file.ok()) return parse_lfts(file.text(), path, fabric);
  return parse_lfts(read_file(path), path, fabric);
}

}  // namespace psssp
