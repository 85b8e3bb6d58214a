// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The engine's options and their one table: key, value, range, default,
// parser and help of every option. The plugin's event_plugin_options words
// and psssp-sim route's flags are both read through it, and a test checks
// psssp(8) and psssp-sim(1) against it, so the two vocabularies cannot drift.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "routing/incremental/incremental.h"
#include "routing/psssp_routing.h"

namespace psssp::engine {

struct EngineOptions {
  RoutingOptions routing;
  std::string guid_file;  // read at every routing, so edits apply on the next
  // Deadlock-free mode: spread routes over up to `vls` virtual layers, each
  // acyclic, used as SL = VL = layer. 0 = off.
  unsigned vls = 0;
  // With vls: layer the routes from switches without hosts too (their own
  // traffic), where they fit; off: the routes from switches with hosts only
  // (faster on large trees, where the others need a second layer).
  bool vls_all_routes = true;
  // Re-routings start from the switches' current tables where they are given
  // (routing/incremental.h); off: always a full routing.
  bool incremental = true;
  IncrementalOptions incremental_options;
  // Who fills OpenSM's hop tables (its "LID matrices", read by multicast
  // routing and the dumps): the engine's BFS or OpenSM's min-hop step. Both
  // give identical tables.
  enum class LidMatrices { psssp, opensm } lid_matrices = LidMatrices::psssp;
};

// At most 15 virtual layers: a layer is a data VL of its own on every hop,
// and InfiniBand has 15 data VLs (VL0..VL14; VL15 carries management only),
// though 16 SLs.
constexpr unsigned kMaxVirtualLayers = 15;
// Worker threads, as psssp-sim's other commands allow.
constexpr unsigned kMaxThreads = 1024;

// A bad value; what() says what is wanted and what was given ("is 'on' or
// 'off', got 'yes'"), and the caller names the option in its own vocabulary.
class OptionValueError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct EngineOption {
  // The event_plugin_options word (key or key=VALUE); nullptr: psssp-sim only.
  const char* key;
  // psssp-sim route's flag; nullptr: the plugin only.
  const char* flag;
  // Placeholder of the value ("N", "auto|on|off"); nullptr: takes none.
  const char* value_name;
  // The flag takes no value and stands for key=flag_value ("--no-capacity"
  // is capacity=off); nullptr: the flag takes the key's value.
  const char* flag_value;
  bool value_optional;  // the key may stand alone (capacity = capacity=on)
  unsigned min, max;    // whole-number options: the range, else 0, 0
  const char* default_text;
  const char* help;
  // Applies `value` ("" for an option without one); throws OptionValueError.
  void (*set)(EngineOptions& options, const EngineOption& self, const std::string& value);
};

const std::vector<EngineOption>& engine_option_table();

// The row of a plugin key or a psssp-sim flag; nullptr if none.
const EngineOption* find_option_key(const std::string& key);
const EngineOption* find_option_flag(const std::string& flag);

// Options that need each other; throws std::invalid_argument.
void check_option_combination(const EngineOptions& options);

// "key[=VALUE]" words of every plugin option, for the unknown-option message.
std::string plugin_option_synopsis();

}  // namespace psssp::engine
