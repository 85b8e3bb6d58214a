// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
// The files a command writes, made visible together or not at all: each is
// written to a temporary file in its own directory, and commit() renames
// them into place only after every one of them and standard output were
// written without error. A failed run leaves no partial file behind and
// keeps what was there before. "-" is standard output.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace psssp::cli {

class OutputFiles {
 public:
  OutputFiles();
  OutputFiles(const OutputFiles&) = delete;
  OutputFiles& operator=(const OutputFiles&) = delete;
  ~OutputFiles();  // removes the temporary files unless committed

  // Reserves standard output for `what` (the command's report, e.g. "--json").
  // Throws UsageError if something else already has it.
  void claim_stdout(const std::string& what);

  // A stream for the output that `option` names. "-" claims standard output;
  // a device or FIFO (/dev/null) is written directly. Throws UsageError on a
  // second claim of standard output, std::runtime_error if the temporary
  // file cannot be created.
  std::ostream& open(const std::string& path, const std::string& option);

  // Closes every file and flushes standard output, then renames the
  // temporary files over their targets. Throws std::runtime_error naming the
  // first output that failed; nothing is renamed then.
  void commit();

 private:
  struct File;
  // Takes ownership of `fd` (throws naming `path` if it is -1).
  std::ostream& add(const std::string& path, const std::string& option, const std::string& target,
                    const std::string& temp, int fd);

  std::vector<std::unique_ptr<File>> files_;
  std::string stdout_owner_;
};

}  // namespace psssp::cli
