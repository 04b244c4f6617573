// FCLib reader on hostile files: every case of HostileCases()
// is rejected with one line (MalformedFileTest in fclib_io_test.cc checks the
// message) AND without allocating more than O(file size) memory: a forged
// extent or size field in a file of a few KB must not make the reader touch
// gigabytes before it notices.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <string>

#include "fclib_test_files.h"
#include "fcsn/fclib_io.h"
#include "test_util.h"

namespace fcsn {
namespace {

using testing::MalformedCase;
using testing::TempDir;

long MaxRssKb() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// Reads `path` in a forked child and returns by how many MB its peak resident
// set grew during the read (-1 if the child did not exit normally). Forking
// keeps an old reader's multi-GB allocation out of this process.
long PeakGrowthOfReadMb(const std::string& path) {
  const pid_t pid = fork();
  if (pid == 0) {
    const long before = MaxRssKb();
    GlobalProblem p;
    std::string error;
    ReadGlobalProblem(path, ReadOptions(), &p, nullptr, &error);
    const long growth_mb = (MaxRssKb() - before) / 1024;
    _exit(static_cast<int>(std::min(growth_mb, 255L)));
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

class HostileFileTest : public ::testing::TestWithParam<MalformedCase> {};

// The files are < 20 KB; 64 MB leaves room for HDF5's caches and sanitizers.
TEST_P(HostileFileTest, IsRejectedWithinMemoryOfTheFileSize) {
  const std::string path = GetParam().make(TempDir());
  const long growth_mb = PeakGrowthOfReadMb(path);
  EXPECT_GE(growth_mb, 0) << "the reader crashed";
  EXPECT_LT(growth_mb, 64) << path;
}

INSTANTIATE_TEST_SUITE_P(
    Inputs,
    HostileFileTest,
    ::testing::ValuesIn(testing::HostileCases()),
    [](const ::testing::TestParamInfo<MalformedCase>& info) {
      return info.param.name;
    });

}  // namespace
}  // namespace fcsn
