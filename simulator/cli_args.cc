#include "cli_args.h"

#include <algorithm>

#include "host_set.h"

namespace psssp::sim {

CliArgs::CliArgs(int argc, char** argv, const std::vector<std::string>& with_value,
                 const std::vector<std::string>& flags) {
  auto known = [](const std::vector<std::string>& list, const std::string& name) {
    return std::find(list.begin(), list.end(), name) != list.end();
  };
  bool only_positional = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (only_positional || arg.size() < 2 || arg[0] != '-') {
      positional_.push_back(arg);
      continue;
    }
    if (arg == "--") {
      only_positional = true;
      continue;
    }
    std::string value;
    bool inline_value = false;
    const auto eq = arg.find('=');
    if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg.erase(eq);
      inline_value = true;
    }
    if (known(flags, arg)) {
      if (inline_value) throw UsageError(arg + " takes no value");
      flags_[arg] = true;
    } else if (known(with_value, arg)) {
      if (!inline_value) {
        if (i + 1 >= argc) throw UsageError(arg + " needs a value");
        value = argv[++i];
      }
      values_[arg].push_back(value);
    } else {
      throw UsageError("unknown option " + arg);
    }
  }
}

std::string CliArgs::get(const std::string& name, const std::string& fallback) const {
  const auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second.back();
}

const std::vector<std::string>& CliArgs::all(const std::string& name) const {
  static const std::vector<std::string> kEmpty;
  const auto it = values_.find(name);
  return it == values_.end() ? kEmpty : it->second;
}

std::uint64_t CliArgs::get_uint(const std::string& name, std::uint64_t fallback) const {
  if (!has(name)) return fallback;
  try {
    return parse_number(get(name), name);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

}  // namespace psssp::sim
