// FCLib writer safety: a write that fails (here a file-size
// limit, which acts as a full disk) leaves the target exactly as it was and
// no temporary file behind; a write through a symbolic link replaces the
// link's target and keeps the link; a replaced file keeps its mode.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "fclib_test_files.h"
#include "fcsn/fclib_io.h"
#include "test_util.h"

namespace fcsn {
namespace {

using ::testing::HasSubstr;
using testing::SmallProblem;
using testing::TempDir;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int CountEntries(const std::string& dir) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    (void)entry;
    ++count;
  }
  return count;
}

// Writes SmallProblem() to `path` in a forked child whose files may not grow
// beyond `limit_bytes` (SIGXFSZ ignored: write() then fails with EFBIG, as on
// a full disk). Returns the child's error line ("" if the write succeeded).
std::string WriteUnderFileSizeLimit(const std::string& path,
                                    rlim_t limit_bytes) {
  int fds[2];
  if (pipe(fds) != 0) return "pipe failed";
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    signal(SIGXFSZ, SIG_IGN);
    const struct rlimit limit = {limit_bytes, limit_bytes};
    setrlimit(RLIMIT_FSIZE, &limit);
    std::string error;
    if (WriteGlobalProblem(path, SmallProblem(), nullptr, nullptr, &error))
      error = "";
    else if (error.empty())
      error = "failed without a message";
    (void)!write(fds[1], error.data(), error.size());
    _exit(0);
  }
  close(fds[1]);
  std::string error;
  char buffer[512];
  ssize_t n;
  while ((n = read(fds[0], buffer, sizeof buffer)) > 0) error.append(buffer, n);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return error;
}

class FclibWriteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = TempDir() + "/" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::create_directories(dir_);
  }
  std::string dir_;
};

TEST_F(FclibWriteTest, FullDiskLeavesTheTargetUntouched) {
  const std::string target = dir_ + "/result.hdf5";
  const std::string old_content = "the user's previous result\n";
  std::ofstream(target, std::ios::binary) << old_content;
  const std::string error = WriteUnderFileSizeLimit(target, 2048);
  EXPECT_THAT(error, HasSubstr(target + ": cannot write the file"));
  EXPECT_THAT(error, HasSubstr("the file is unchanged"));
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  EXPECT_EQ(Slurp(target), old_content);
  EXPECT_EQ(CountEntries(dir_), 1) << "a temporary file was left behind";
}

TEST_F(FclibWriteTest, FullDiskCreatesNoFile) {
  const std::string target = dir_ + "/new.hdf5";
  EXPECT_THAT(WriteUnderFileSizeLimit(target, 2048),
              HasSubstr(target + ": cannot write the file"));
  EXPECT_EQ(CountEntries(dir_), 0);
}

TEST_F(FclibWriteTest, SucceedsWithoutALimitAndReadsBack) {
  const std::string target = dir_ + "/ok.hdf5";
  EXPECT_EQ(WriteUnderFileSizeLimit(target, RLIM_INFINITY), "");
  GlobalProblem p;
  std::string error;
  EXPECT_TRUE(ReadGlobalProblem(target, ReadOptions(), &p, nullptr, &error))
      << error;
  EXPECT_EQ(CountEntries(dir_), 1);
}

TEST_F(FclibWriteTest, WritingThroughASymlinkReplacesItsTarget) {
  const std::string real = dir_ + "/real.hdf5";
  const std::string link = dir_ + "/link.hdf5";
  std::ofstream(real) << "old";
  std::filesystem::create_symlink(real, link);
  std::string error;
  ASSERT_TRUE(
      WriteGlobalProblem(link, SmallProblem(), nullptr, nullptr, &error))
      << error;
  EXPECT_TRUE(std::filesystem::is_symlink(link));
  GlobalProblem p;
  EXPECT_TRUE(ReadGlobalProblem(real, ReadOptions(), &p, nullptr, &error))
      << error;
}

TEST_F(FclibWriteTest, ReplacedFileKeepsItsMode) {
  const std::string target = dir_ + "/shared.hdf5";
  std::ofstream(target) << "old";
  ASSERT_EQ(chmod(target.c_str(), 0640), 0);
  std::string error;
  ASSERT_TRUE(
      WriteGlobalProblem(target, SmallProblem(), nullptr, nullptr, &error))
      << error;
  struct stat st {};
  ASSERT_EQ(stat(target.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
}

}  // namespace
}  // namespace fcsn
