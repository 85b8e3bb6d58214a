// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// Kautz graph K(d, n): switches are strings s_0..s_n over {0..d} without two
// equal neighbours; arc s -> s_1..s_n x. Each arc is one cable, so a switch
// has d "out" ports (slots 1..d) and d "in" ports (slots d+1..2d).
#include <map>
#include <stdexcept>

#include "families.h"

namespace psssp::topo {
namespace {

std::string kautz_name(const std::vector<unsigned>& word, unsigned degree) {
  std::string name = "kz-";
  for (std::size_t i = 0; i < word.size(); ++i) {
    if (degree >= 10 && i > 0) name += '.';
    name += std::to_string(word[i]);
  }
  return name;
}

// Rank of x among the symbols other than `skip`.
unsigned rank_without(unsigned x, unsigned skip) { return x < skip ? x : x - 1; }

}  // namespace

TopologySpec kautz(unsigned degree, unsigned diameter, unsigned hosts_per_switch) {
  if (degree < 1 || diameter < 1) throw std::invalid_argument("kautz: degree and diameter >= 1");
  std::size_t count = degree + 1;
  for (unsigned i = 0; i < diameter; ++i)
    if ((count *= degree) > 100000) throw std::invalid_argument("kautz: too many switches");

  // Enumerate words in lexicographic order.
  std::vector<std::vector<unsigned>> words;
  std::vector<unsigned> w(diameter + 1, 0);
  auto valid = [&] {
    for (std::size_t i = 1; i < w.size(); ++i)
      if (w[i] == w[i - 1]) return false;
    return true;
  };
  for (;;) {
    if (valid()) words.push_back(w);
    std::size_t i = w.size();
    while (i > 0 && w[i - 1] == degree) w[--i] = 0;
    if (i == 0) break;
    ++w[i - 1];
  }
  std::map<std::vector<unsigned>, std::size_t> index;
  TopologySpec spec;
  spec.family = "kautz";
  for (const auto& word : words) {
    index.emplace(word, spec.switches.size());
    spec.switches.push_back({kautz_name(word, degree), hosts_per_switch, 2 * degree});
  }
  for (std::size_t s = 0; s < words.size(); ++s) {
    const auto& word = words[s];
    for (unsigned x = 0; x <= degree; ++x) {
      if (x == word.back()) continue;
      std::vector<unsigned> next(word.begin() + 1, word.end());
      next.push_back(x);
      spec.cables.push_back({s, index.at(next), 1 + rank_without(x, word.back()),
                             degree + 1 + rank_without(word.front(), next.front())});
    }
  }
  return spec;
}

}  // namespace psssp::topo
