// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Command-line style parameters ("--key value") of a topology family, with
// typed getters that remember which keys were used so that misspelled
// options are reported instead of silently ignored.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace psssp::topo {

class Params {
 public:
  Params() = default;
  explicit Params(std::map<std::string, std::string> values) : values_(std::move(values)) {}

  void set(const std::string& key, const std::string& value) { values_[key] = value; }
  bool has(const std::string& key) const { return values_.count(key) != 0; }

  unsigned get_uint(const std::string& key, unsigned fallback);
  std::uint64_t get_u64(const std::string& key, std::uint64_t fallback);
  std::string get_string(const std::string& key, const std::string& fallback);
  // "8x8x4" -> {8, 8, 4}
  std::vector<unsigned> get_dims(const std::string& key, const std::vector<unsigned>& fallback);

  // Throws std::invalid_argument naming the keys no getter asked for.
  void check_all_used(const std::string& family) const;
  const std::set<std::string>& used() const { return used_; }

 private:
  std::map<std::string, std::string> values_;
  std::set<std::string> used_;
};

// Decimal or 0x-hex (cli::parse_uint); throws std::invalid_argument naming --key.
std::uint64_t parse_u64(const std::string& key, const std::string& text,
                        std::uint64_t max = UINT64_MAX);

}  // namespace psssp::topo
