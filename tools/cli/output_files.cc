// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "cli/output_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <streambuf>

#include "cli/conventions.h"

namespace psssp::cli {
namespace {

namespace fs = std::filesystem;

std::string reason(int error) { return error ? std::string(": ") + std::strerror(error) : ""; }

// An output buffer over a file descriptor that keeps the errno of the first
// failed write, so that the message can say why (disk full, file too large).
class FdBuffer : public std::streambuf {
 public:
  explicit FdBuffer(int fd) : fd_(fd) { setp(buffer_, buffer_ + sizeof buffer_); }
  FdBuffer(const FdBuffer&) = delete;
  FdBuffer& operator=(const FdBuffer&) = delete;
  ~FdBuffer() override {
    if (fd_ >= 0) ::close(fd_);
  }

  // Writes what is buffered and closes the descriptor; 0 or the first errno.
  int close() {
    drain();
    if (::close(fd_) != 0 && !error_) error_ = errno;
    fd_ = -1;
    return error_;
  }

 protected:
  int_type overflow(int_type ch) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    for (const char* p = pbase(); !error_ && p < pptr();) {
      const ssize_t n = ::write(fd_, p, static_cast<std::size_t>(pptr() - p));
      if (n >= 0)
        p += n;
      else if (errno != EINTR)
        error_ = errno;
    }
    setp(buffer_, buffer_ + sizeof buffer_);
    return !error_;
  }

  int fd_;
  int error_ = 0;
  char buffer_[1 << 16];
};

// Permissions of a new file: those of the file it replaces, else 0666
// less the umask, as creating it in place would give.
mode_t new_file_mode(const struct stat* replaced) {
  if (replaced) return replaced->st_mode & 07777;
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

struct OutputFiles::File {
  std::string option, path;  // as the user gave them
  std::string target;        // what the temporary file replaces
  std::string temp;          // empty once renamed, or when written in place
  std::unique_ptr<FdBuffer> buffer;
  std::unique_ptr<std::ostream> stream;
};

OutputFiles::OutputFiles() = default;

OutputFiles::~OutputFiles() {
  for (const auto& f : files_)
    if (!f->temp.empty()) ::unlink(f->temp.c_str());
}

void OutputFiles::claim_stdout(const std::string& what) {
  if (!stdout_owner_.empty())
    throw UsageError(stdout_owner_ + " and " + what + " both write to standard output");
  stdout_owner_ = what;
}

std::ostream& OutputFiles::open(const std::string& path, const std::string& option) {
  if (path == "-") {
    claim_stdout(option + " -");
    std::fflush(stdout);  // what was printed before comes first
    return add(path, option, "", "", ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0));
  }
  if (path.empty()) throw UsageError(option + ": empty file name");
  // Through a symbolic link the file it points to is replaced, not the link.
  std::error_code error;
  const fs::path resolved =
      fs::is_symlink(path, error) ? fs::canonical(path, error) : fs::path(path);
  const fs::path target = error || resolved.empty() ? fs::path(path) : resolved;
  for (const auto& other : files_)
    if (!other->target.empty() &&
        fs::weakly_canonical(other->target, error) == fs::weakly_canonical(target, error))
      throw UsageError(other->option + " and " + option + " name the same file " + path);

  struct stat st;
  const bool exists = ::stat(target.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode))  // a device or FIFO: nothing to replace
    return add(path, option, target, "", ::open(target.c_str(), O_WRONLY | O_CLOEXEC));
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string temp = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0)
    throw std::runtime_error("cannot write " + path + ": cannot create a file in " + dir.string() +
                             reason(errno));
  std::ostream& stream = add(path, option, target, temp, fd);  // removed again on failure
  if (::fchmod(fd, new_file_mode(exists ? &st : nullptr)) != 0)
    throw std::runtime_error("cannot write " + path + reason(errno));
  return stream;
}

std::ostream& OutputFiles::add(const std::string& path, const std::string& option,
                               const std::string& target, const std::string& temp, int fd) {
  if (fd < 0) throw std::runtime_error("cannot write " + path + reason(errno));
  auto file = std::make_unique<File>();
  file->option = option;
  file->path = path;
  file->target = target;
  file->temp = temp;
  file->buffer = std::make_unique<FdBuffer>(fd);
  file->stream = std::make_unique<std::ostream>(file->buffer.get());
  files_.push_back(std::move(file));
  return *files_.back()->stream;
}

void OutputFiles::commit() {
  for (const auto& f : files_) {
    f->stream->flush();
    if (const int error = f->buffer->close())
      throw std::runtime_error("cannot write " + (f->path == "-" ? "standard output" : f->path) +
                               reason(error));
  }
  if (!stdout_owner_.empty()) flush_stdout();
  for (const auto& f : files_) {
    if (f->temp.empty()) continue;
    if (std::rename(f->temp.c_str(), f->target.c_str()) != 0)
      throw std::runtime_error("cannot replace " + f->path + reason(errno));
    f->temp.clear();
  }
}

}  // namespace psssp::cli
