// The example programs write only what they are asked to, where they are
// asked to: masonry_wall and elastic_bar, run from an empty folder without
// --log, leave it empty (the CSV log is opt-in), and their --vtk and
// --export-dir folders are created when missing, parents included.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cli_runner.h"
#include "test_util.h"

namespace fcsn {
namespace {

namespace fs = std::filesystem;

// Runs build/bin/<program> <args> from `folder`; returns the exit code.
int RunExampleIn(const std::string& folder,
                 const std::string& program,
                 const std::string& args) {
  const std::string command = "cd '" + folder + "' && " +
                              std::string(FCSN_BINARY_DIR) + "/bin/" + program +
                              " " + args + " >/dev/null 2>&1";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

class ExampleOutputsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = testing::TempDir() + "/example_outputs_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(root_);
    run_dir_ = root_ + "/run";
    fs::create_directories(run_dir_);
  }
  bool RunDirIsEmpty() const { return fs::is_empty(run_dir_); }
  std::string root_, run_dir_;
};

TEST_F(ExampleOutputsTest, MasonryWallCreatesItsFoldersAndLogsOnlyWhenAsked) {
  if (!fs::exists(std::string(FCSN_BINARY_DIR) + "/bin/masonry_wall")) {
    GTEST_SKIP() << "masonry_wall is not built (FCSN_BUILD_EXAMPLES=OFF)";
  }
  ASSERT_EQ(RunExampleIn(run_dir_, "masonry_wall", "--coarse --steps 2"), 0);
  EXPECT_TRUE(RunDirIsEmpty());
  const std::string vtk = root_ + "/pictures/wall";
  const std::string exported = root_ + "/steps/fclib";
  ASSERT_EQ(
      RunExampleIn(run_dir_,
                   "masonry_wall",
                   "--coarse --steps 2 --vtk " + vtk + " --export-dir " +
                       exported + " --export-steps 2 --skip-naming-solve"),
      0);
  EXPECT_TRUE(fs::exists(vtk + "/wall.pvd"));
  EXPECT_FALSE(fs::is_empty(exported));
  EXPECT_TRUE(RunDirIsEmpty());
  ASSERT_EQ(RunExampleIn(run_dir_,
                         "masonry_wall",
                         "--coarse --steps 2 --log " + root_ + "/log.csv"),
            0);
  EXPECT_TRUE(fs::exists(root_ + "/log.csv"));
}

TEST_F(ExampleOutputsTest, ElasticBarCreatesItsFolderAndLogsOnlyWhenAsked) {
  if (!fs::exists(std::string(FCSN_BINARY_DIR) + "/bin/elastic_bar")) {
    GTEST_SKIP() << "elastic_bar is not built (FCSN_BUILD_EXAMPLES=OFF)";
  }
  const std::string small = "--nx 4 --ny 2 --nz 1 --steps 2";
  ASSERT_EQ(RunExampleIn(run_dir_, "elastic_bar", small), 0);
  EXPECT_TRUE(RunDirIsEmpty());
  const std::string exported = root_ + "/bar/fclib";
  ASSERT_EQ(RunExampleIn(
                run_dir_, "elastic_bar", small + " --export-dir " + exported),
            0);
  EXPECT_FALSE(fs::is_empty(exported));
  EXPECT_TRUE(RunDirIsEmpty());
}

}  // namespace
}  // namespace fcsn
