// A small command-line parser for the subcommands: positional arguments,
// "--opt VALUE" / "--opt=VALUE" options (repeatable where declared) and flags.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace psssp::sim {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class CliArgs {
 public:
  // `with_value`: options taking a value; `flags`: options without. Names
  // include the dashes. Throws UsageError on unknown options or missing values.
  CliArgs(int argc, char** argv, const std::vector<std::string>& with_value,
          const std::vector<std::string>& flags);

  bool flag(const std::string& name) const { return flags_.count(name) > 0; }
  bool has(const std::string& name) const { return values_.count(name) > 0; }
  // Last value given, or `fallback`.
  std::string get(const std::string& name, const std::string& fallback = "") const;
  const std::vector<std::string>& all(const std::string& name) const;  // every value, in order
  std::uint64_t get_uint(const std::string& name, std::uint64_t fallback) const;
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  std::map<std::string, std::vector<std::string>> values_;
  std::map<std::string, bool> flags_;
  std::vector<std::string> positional_;
};

}  // namespace psssp::sim
