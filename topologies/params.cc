#include "params.h"

#include <limits>
#include <stdexcept>

namespace psssp::topo {

std::uint64_t parse_u64(const std::string& key, const std::string& text) {
  std::size_t end = 0;
  std::uint64_t value = 0;
  try {
    if (!text.empty() && text[0] != '-') value = std::stoull(text, &end, 0);
  } catch (const std::exception&) {
    end = 0;
  }
  if (end == 0 || end != text.size())
    throw std::invalid_argument("--" + key + ": \"" + text + "\" is not a non-negative integer");
  return value;
}

unsigned Params::get_uint(const std::string& key, unsigned fallback) {
  used_.insert(key);
  const auto it = values_.find(key);
  if (it == values_.end()) return fallback;
  const std::uint64_t v = parse_u64(key, it->second);
  if (v > 1000000) throw std::invalid_argument("--" + key + ": " + it->second + " is too large");
  return static_cast<unsigned>(v);
}

std::uint64_t Params::get_u64(const std::string& key, std::uint64_t fallback) {
  used_.insert(key);
  const auto it = values_.find(key);
  return it == values_.end() ? fallback : parse_u64(key, it->second);
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
