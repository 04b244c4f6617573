// Tests of `fcsn --version` (cli/version.cc): versions, the loaded BLAS, and
// the note on BLAS kernels below the CPU's, which OPENBLAS_CORETYPE (read by
// OpenBLAS when the process starts) provokes or cures.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "cli_runner.h"
#include "fcsn/config.h"

namespace fcsn {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

bool CpuHasAvx2Fma() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

TEST(VersionCliTest, ReportsVersionsAndTheBlas) {
  const RunResult r = RunFcsn("--version");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(std::string("fcsn ") + FCSN_VERSION + "\n"));
  EXPECT_THAT(r.out, HasSubstr("MUMPS: 5."));
  EXPECT_THAT(r.out, HasSubstr(std::string("(") + FCSN_MUMPS_FLAVOR + ")"));
  EXPECT_THAT(r.out, HasSubstr("BLAS:  "));
}

TEST(VersionCliTest, ThreadsAreTheProcessSetting) {
  const RunResult r = RunFcsnWith("env OPENBLAS_NUM_THREADS=1", "--version");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  if (r.out.find("OpenBLAS") == std::string::npos) {
    GTEST_SKIP() << "not OpenBLAS: " << r.out;
  }
  EXPECT_THAT(r.out, HasSubstr(", 1 thread\n"));
}

TEST(VersionCliTest, NotesGenericKernelsOnACpuWithAvx2) {
  const RunResult generic =
      RunFcsnWith("env OPENBLAS_CORETYPE=Prescott", "--version");
  ASSERT_EQ(generic.exit_code, 0) << generic.err;
  if (generic.out.find("OpenBLAS") == std::string::npos) {
    GTEST_SKIP() << "not OpenBLAS: " << generic.out;
  }
  EXPECT_THAT(generic.out, HasSubstr("kernels Prescott"));
  if (CpuHasAvx2Fma()) {
    EXPECT_THAT(generic.out, HasSubstr("note:  the CPU has AVX2"));
    const RunResult matched =
        RunFcsnWith("env OPENBLAS_CORETYPE=Haswell", "--version");
    EXPECT_THAT(matched.out, HasSubstr("kernels Haswell"));
    EXPECT_THAT(matched.out, Not(HasSubstr("note:")));
  } else {
    EXPECT_THAT(generic.out, Not(HasSubstr("note:")));
  }
}

}  // namespace
}  // namespace fcsn
