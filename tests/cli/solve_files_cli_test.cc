// `fcsn solve` over several files: a bad file gets its table row (or JSON
// line) and one line on stderr, the other files are still solved, and the
// exit code is the worst outcome (2 bad input over 1 not converged over 0).
// --output is checked for writability before the solve: an unwritable path
// is exit 2 with one line and no solve.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "test_util.h"

namespace fcsn {
namespace {

using ::testing::HasSubstr;
using testing::SharedProblem;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A file that is not HDF5 and a path that does not exist.
class SolveFilesCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::TempDir() + "/solve_files_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::create_directories(dir_);
    garbage_ = dir_ + "/garbage.hdf5";
    std::ofstream(garbage_) << "not an HDF5 file\n";
    missing_ = dir_ + "/missing.hdf5";
  }
  std::string dir_, garbage_, missing_;
};

TEST_F(SolveFilesCliTest, BadFilesGetTheirRowAndTheOthersAreSolved) {
  const RunResult r =
      RunFcsn("solve " + SharedProblem("GFC3D_Example0.hdf5") + " " + garbage_ +
              " " + missing_ + " " + SharedProblem("CubeH8.hdf5"));
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  const std::vector<std::string> rows = Lines(r.out);
  ASSERT_EQ(rows.size(), 5u) << r.out;  // the header and one row per file
  EXPECT_THAT(rows[1], HasSubstr("GFC3D_Example0.hdf5"));
  EXPECT_THAT(rows[1], HasSubstr("converged"));
  EXPECT_THAT(rows[2], HasSubstr("garbage.hdf5"));
  EXPECT_THAT(rows[2], HasSubstr("invalid-input"));
  EXPECT_THAT(rows[2], HasSubstr("not an HDF5 file"));
  EXPECT_THAT(rows[3], HasSubstr("missing.hdf5"));
  EXPECT_THAT(rows[3], HasSubstr("invalid-input"));
  EXPECT_THAT(rows[4], HasSubstr("CubeH8.hdf5"));
  EXPECT_THAT(rows[4], HasSubstr("converged"));
  // One line on stderr per bad file, naming it.
  const std::vector<std::string> errors = Lines(r.err);
  ASSERT_EQ(errors.size(), 2u) << r.err;
  EXPECT_THAT(errors[0], HasSubstr(garbage_));
  EXPECT_THAT(errors[1], HasSubstr(missing_));
}

TEST_F(SolveFilesCliTest, JsonGivesOneObjectPerFileBadOnesIncluded) {
  const RunResult r = RunFcsn("solve --json --no-history " + garbage_ + " " +
                              SharedProblem("CubeH8.hdf5"));
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 2u) << r.out;
  const nlohmann::json bad = nlohmann::json::parse(lines[0]);
  EXPECT_EQ(bad["file"], garbage_);
  EXPECT_EQ(bad["status"], "invalid-input");
  EXPECT_THAT(bad["message"].get<std::string>(), HasSubstr("not an HDF5 file"));
  EXPECT_EQ(nlohmann::json::parse(lines[1])["status"], "converged");
}

// Bad input outranks a solve that did not converge, which outranks success,
// whatever the order of the files.
TEST_F(SolveFilesCliTest, ExitCodeIsTheWorstOutcome) {
  const std::string unconverged = "--solver nsn --max-iter 1 --tol 1e-12 " +
                                  SharedProblem("Box_Stacks-i0122-82-5.hdf5");
  const std::string good = SharedProblem("CubeH8.hdf5");
  EXPECT_EQ(RunFcsn("solve " + unconverged + " " + good).exit_code, 1);
  EXPECT_EQ(RunFcsn("solve " + unconverged + " " + garbage_).exit_code, 2);
  EXPECT_EQ(RunFcsn("solve " + garbage_ + " " + unconverged).exit_code, 2);
  EXPECT_EQ(RunFcsn("solve " + good + " " + good).exit_code, 0);
}

// The output's folder is probed before the solve: no report on stdout, one
// line on stderr, nothing left behind in the folder.
TEST_F(SolveFilesCliTest, UnwritableOutputIsRefusedBeforeTheSolve) {
  const std::string input = SharedProblem("CubeH8.hdf5");
  for (const std::string& output :
       {dir_ + "/no/such/folder/out.hdf5", garbage_ + "/out.hdf5"}) {
    const RunResult r = RunFcsn("solve --output " + output + " " + input);
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_EQ(r.out, "");
    ASSERT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_THAT(r.err, HasSubstr(output + ": cannot write the file"));
  }
  const RunResult ok = RunFcsn("solve --output " + dir_ + "/out.hdf5 " + input);
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  int entries = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
    EXPECT_THAT(entry.path().filename().string(),
                ::testing::AnyOf("garbage.hdf5", "out.hdf5"));
    ++entries;
  }
  EXPECT_EQ(entries, 2);
}

}  // namespace
}  // namespace fcsn
