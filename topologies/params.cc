// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "params.h"

#include <stdexcept>

#include "cli/conventions.h"

namespace psssp::topo {

std::uint64_t parse_u64(const std::string& key, const std::string& text, std::uint64_t max) {
  return cli::parse_uint("--" + key, text, 0, max);
}

unsigned Params::get_uint(const std::string& key, unsigned fallback) {
  used_.insert(key);
  const auto it = values_.find(key);
  if (it == values_.end()) return fallback;
  return static_cast<unsigned>(parse_u64(key, it->second, 1000000));
}

std::uint64_t Params::get_u64(const std::string& key, std::uint64_t fallback) {
  used_.insert(key);
  const auto it = values_.find(key);
  return it == values_.end() ? fallback : parse_u64(key, it->second);
}

std::string Params::get_string(const std::string& key, const std::string& fallback) {
  used_.insert(key);
  const auto it = values_.find(key);
  return it == values_.end() ? fallback : it->second;
}

std::vector<unsigned> Params::get_dims(const std::string& key,
                                       const std::vector<unsigned>& fallback) {
  used_.insert(key);
  const auto it = values_.find(key);
  if (it == values_.end()) return fallback;
  std::vector<unsigned> dims;
  const std::string& text = it->second;
  for (std::size_t start = 0;;) {
    const std::size_t x = text.find_first_of("xX", start);
    const std::uint64_t d = parse_u64(key, text.substr(start, x - start));
    if (d == 0 || d > 100000)
      throw std::invalid_argument("--" + key + ": bad dimension in " + text);
    dims.push_back(static_cast<unsigned>(d));
    if (x == std::string::npos) break;
    start = x + 1;
  }
  return dims;
}

void Params::check_all_used(const std::string& family) const {
  std::string unknown;
  for (const auto& [key, value] : values_)
    if (!used_.count(key)) unknown += (unknown.empty() ? "--" : ", --") + key;
  if (!unknown.empty()) throw std::invalid_argument(family + ": unknown option(s) " + unknown);
}

}  // namespace psssp::topo
