// `fcsn` and the user's files: --output "" is an
// error; --output naming the input (also through a hard link) is refused
// before anything is written; a full disk (a file-size limit) while writing
// --output leaves the input and the previous output untouched with one line
// on stderr; `check` on an M without entries finishes (exit 2, one line).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cli_runner.h"
#include "fclib_test_files.h"
#include "test_util.h"

namespace fcsn {
namespace {

using ::testing::HasSubstr;
using testing::SharedProblem;

int CountLines(const std::string& text) {
  int lines = 0;
  for (char c : text) lines += c == '\n';
  return lines;
}

class CliFileSafetyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::TempDir() + "/" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::create_directories(dir_);
    input_ = dir_ + "/input.hdf5";
    std::filesystem::copy_file(SharedProblem("GFC3D_OneContact.hdf5"), input_);
    input_bytes_ = Slurp(input_);
  }
  void ExpectOneLineError(const RunResult& r, const std::string& what) {
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_EQ(CountLines(r.err), 1) << r.err;
    EXPECT_THAT(r.err, HasSubstr(what));
  }
  int CountEntries() const {
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
      (void)entry;
      ++count;
    }
    return count;
  }
  std::string dir_, input_, input_bytes_;
};

TEST_F(CliFileSafetyTest, EmptyOutputNameIsAnError) {
  const RunResult r = RunFcsn("solve --output '' " + input_);
  ExpectOneLineError(r, "fcsn: --output: the file name is empty");
  EXPECT_EQ(r.out, "");
}

TEST_F(CliFileSafetyTest, OutputEqualToTheInputIsRefused) {
  const RunResult r = RunFcsn("solve --output " + input_ + " " + input_);
  ExpectOneLineError(r, input_ + ": is the input file");
  EXPECT_EQ(Slurp(input_), input_bytes_);
  EXPECT_EQ(r.out, "");
}

TEST_F(CliFileSafetyTest, OutputHardLinkedToTheInputIsRefused) {
  const std::string link = dir_ + "/other_name.hdf5";
  std::filesystem::create_hard_link(input_, link);
  const RunResult r = RunFcsn("solve --output " + link + " " + input_);
  ExpectOneLineError(r, link + ": is the input file");
  EXPECT_EQ(Slurp(input_), input_bytes_);
}

// prlimit --fsize: write() beyond 8 KB fails (EFBIG), like a full disk; the
// solution file needs ~20 KB. fcsn ignores SIGXFSZ itself.
TEST_F(CliFileSafetyTest, FullDiskLeavesInputAndPreviousOutputUntouched) {
  const std::string output = dir_ + "/result.hdf5";
  std::filesystem::copy_file(SharedProblem("GFC3D_Example0.hdf5"), output);
  const std::string output_bytes = Slurp(output);
  const RunResult r = RunFcsnWith("prlimit --fsize=8192",
                                  "solve --output " + output + " " + input_);
  ExpectOneLineError(r, output + ": cannot write the file");
  EXPECT_THAT(r.err, HasSubstr("the file is unchanged"));
  EXPECT_EQ(Slurp(output), output_bytes);
  EXPECT_EQ(Slurp(input_), input_bytes_);
  EXPECT_EQ(CountEntries(), 2) << "a temporary file was left behind";
}

// The hang was Eigen's SparseLU spinning on an M without entries in
// problem/error_measures.cc; the reader now rejects a singular M before that.
TEST_F(CliFileSafetyTest, CheckOnAnMWithoutEntriesFinishes) {
  std::string path;
  for (const testing::MalformedCase& c : testing::HostileCases()) {
    if (c.name == "MWithoutEntries") path = c.make(dir_);
  }
  ASSERT_FALSE(path.empty());
  const RunResult r = RunFcsnWith("timeout 60", "check " + path);
  ExpectOneLineError(r, "M has no nonzero entry, so it is singular");
}

}  // namespace
}  // namespace fcsn
