// Helpers shared by the formats tests: test data paths and expecting an
// InputError with a given message.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "formats/fabric_io.h"

namespace psssp::testing {

inline std::string testdata(const std::string& name) {
  return std::string(PSSSP_SOURCE_DIR) + "/core/formats/testdata/" + name;
}

// Runs f and returns the InputError message, or "" (and a test failure) if
// it did not throw one.
template <typename F>
std::string input_error(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError thrown";
  return "";
}

// Replaces the first occurrence of `from` (which must exist) in `text`.
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

}  // namespace psssp::testing
