// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "cli/output_files.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/conventions.h"

namespace psssp::cli {
namespace {

namespace fs = std::filesystem;

class OutputFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = ::testing::TempDir() + "outputs.XXXXXX";
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  }
  static std::string contents(const std::string& file) {
    std::ifstream in(file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

  fs::path dir_;
};

TEST_F(OutputFilesTest, VisibleOnlyAfterCommit) {
  {
    OutputFiles out;
    out.open(path("a.txt"), "-o") << "first\n";
    out.open(path("b.txt"), "--roots") << "second\n";
    EXPECT_FALSE(fs::exists(path("a.txt")));
    EXPECT_EQ(entries().size(), 2u);  // the two temporary files
    out.commit();
  }
  EXPECT_EQ(entries(), (std::vector<std::string>{"a.txt", "b.txt"}));
  EXPECT_EQ(contents(path("a.txt")), "first\n");
  EXPECT_EQ(contents(path("b.txt")), "second\n");
}

TEST_F(OutputFilesTest, WithoutCommitNothingChanges) {
  std::ofstream(path("a.txt")) << "old\n";
  {
    OutputFiles out;
    out.open(path("a.txt"), "-o") << "new\n";
    out.open(path("b.txt"), "--roots") << "side\n";
  }  // an error before commit(): the destructor cleans up
  EXPECT_EQ(entries(), std::vector<std::string>{"a.txt"});
  EXPECT_EQ(contents(path("a.txt")), "old\n");
}

TEST_F(OutputFilesTest, KeepsTheModeOfTheReplacedFile) {
  std::ofstream(path("a.txt")) << "old\n";
  fs::permissions(path("a.txt"),
                  fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  OutputFiles out;
  out.open(path("a.txt"), "-o") << "new\n";
  out.commit();
  EXPECT_EQ(fs::status(path("a.txt")).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
}

TEST_F(OutputFilesTest, ReplacesTheTargetOfASymlink) {
  std::ofstream(path("real.txt")) << "old\n";
  fs::create_symlink("real.txt", path("link.txt"));
  OutputFiles out;
  out.open(path("link.txt"), "-o") << "new\n";
  out.commit();
  EXPECT_TRUE(fs::is_symlink(path("link.txt")));
  EXPECT_EQ(contents(path("real.txt")), "new\n");
}

TEST_F(OutputFilesTest, DashIsStandardOutput) {
  std::fflush(stdout);
  const int saved = ::dup(STDOUT_FILENO);
  const int file = ::open(path("stdout.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ::dup2(file, STDOUT_FILENO);
  ::close(file);
  std::printf("report first\n");
  {
    OutputFiles out;
    out.open("-", "-o") << "then the file\n";
    out.commit();
  }
  ::dup2(saved, STDOUT_FILENO);
  ::close(saved);
  EXPECT_EQ(contents(path("stdout.txt")), "report first\nthen the file\n");
}

TEST_F(OutputFilesTest, StandardOutputHasOneOwner) {
  OutputFiles out;
  out.open("-", "-o");
  EXPECT_THROW(out.open("-", "--roots"), UsageError);
  OutputFiles report;
  report.claim_stdout("--json");
  try {
    report.open("-", "-o");
    ADD_FAILURE();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "--json and -o - both write to standard output");
  }
}

TEST_F(OutputFilesTest, OneFileTwiceIsAUsageError) {
  OutputFiles out;
  out.open(path("a.txt"), "--roots");
  EXPECT_THROW(out.open(dir_.string() + "/./a.txt", "--torus-conf"), UsageError);
}

TEST_F(OutputFilesTest, MissingDirectoryFailsAtOpen) {
  OutputFiles out;
  try {
    out.open(path("no/such/dir/a.txt"), "-o");
    ADD_FAILURE();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos);
  }
}

TEST_F(OutputFilesTest, DevicesAreWrittenInPlace) {
  OutputFiles null;
  null.open("/dev/null", "-o") << "gone\n";
  null.commit();
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  OutputFiles full;
  full.open("/dev/full", "-o") << "lost\n";
  try {
    full.commit();
    ADD_FAILURE();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "cannot write /dev/full: No space left on device");
  }
}

// Writes two files under a 4 KiB file size limit, the second too large:
// 0 if commit() fails naming that file and why.
int commit_beyond_size_limit(const std::string& small, const std::string& big) {
  std::signal(SIGXFSZ, SIG_IGN);  // write() then fails with EFBIG
  const rlimit limit{4096, 4096};
  setrlimit(RLIMIT_FSIZE, &limit);
  OutputFiles out;
  out.open(small, "--roots") << "fits\n";
  out.open(big, "-o") << std::string(100000, 'x');
  try {
    out.commit();
  } catch (const std::runtime_error& e) {
    return std::string(e.what()) == "cannot write " + big + ": File too large" ? 0 : 3;
  }
  return 4;
}

// A write that fails half-way keeps the old file and renames nothing, not
// even the output that was written completely.
TEST_F(OutputFilesTest, FailedWriteKeepsEverythingAsItWas) {
  std::ofstream(path("big.txt")) << "old\n";
  EXPECT_EXIT(std::exit(commit_beyond_size_limit(path("small.txt"), path("big.txt"))),
              ::testing::ExitedWithCode(0), "");
  EXPECT_EQ(entries(), std::vector<std::string>{"big.txt"});
  EXPECT_EQ(contents(path("big.txt")), "old\n");
}

}  // namespace
}  // namespace psssp::cli
