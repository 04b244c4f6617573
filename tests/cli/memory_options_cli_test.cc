// `fcsn solve --low-rank TOL --out-of-core --out-of-core-dir DIR`: the options
// reach MUMPS and come back in the JSON, the memory report is there for every
// solve, BLR still converges by fcsn's criterion, out-of-core solves take the
// in-core iterates and leave their directory empty (also when the solve fails),
// and bad values exit with 2.
#include <gtest/gtest.h>
#include <stdlib.h>  // mkdtemp

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.h"
#include "test_util.h"

namespace fcsn {
namespace {

// A fresh empty directory in the test's temporary directory.
std::string FreshDirectory() {
  std::string pattern = testing::TempDir() + "/ooc-XXXXXX";
  return mkdtemp(pattern.data()) ? pattern : "";
}

nlohmann::json SolveJson(const std::string& options,
                         const std::string& file,
                         int expected_exit = 0) {
  const RunResult r = RunFcsn("solve --json --solver nsn --tol 1e-10 " +
                              options + " " + testing::SharedProblem(file));
  EXPECT_EQ(r.exit_code, expected_exit) << options << "\n" << r.out << r.err;
  return r.exit_code == expected_exit && !r.out.empty()
             ? nlohmann::json::parse(r.out)
             : nlohmann::json::object();
}

TEST(MemoryOptionsCli, DefaultsAreReportedWithTheFactorizationFigures) {
  const nlohmann::json s = SolveJson("", "CubeH8.hdf5");
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(s["low_rank_tolerance"].get<double>(), 0.0);
  EXPECT_FALSE(s["out_of_core"].get<bool>());
  EXPECT_GT(s["factor_entries"].get<long long>(), 0);
  EXPECT_EQ(s["compressed_factor_entries"].get<long long>(),
            s["factor_entries"].get<long long>());
  EXPECT_EQ(s["last_factorization_effective_flops"].get<double>(),
            s["last_factorization_flops"].get<double>());
  // MUMPS counts whole MB: the estimate is rounded up, the memory used (below
  // 1 MB on this small problem) down.
  EXPECT_GT(s["estimated_memory_mb"].get<double>(), 0.0);
  EXPECT_GE(s["factorization_memory_mb"].get<double>(), 0.0);
  EXPECT_EQ(s["out_of_core_disk_mb"].get<double>(), 0.0);
}

// Tolerance 1e-8 (CNTL(7) on the scaled J): converged to 1e-10 by the
// criterion recomputed at the returned point, with no more stored factor
// entries than the full-rank solve.
TEST(MemoryOptionsCli, LowRankConvergesByTheCriterion) {
  for (const char* file : {"CubeH8.hdf5", "Box_Stacks-i0122-82-5.hdf5"}) {
    const nlohmann::json full = SolveJson("--no-history", file);
    const nlohmann::json blr = SolveJson("--no-history --low-rank 1e-8", file);
    ASSERT_FALSE(full.empty() || blr.empty()) << file;
    EXPECT_EQ(blr["low_rank_tolerance"].get<double>(), 1e-8);
    EXPECT_EQ(blr["status"], "converged") << file;
    EXPECT_LE(blr["error"].get<double>(), 1e-10) << file;
    EXPECT_LE(blr["compressed_factor_entries"].get<long long>(),
              full["factor_entries"].get<long long>())
        << file;
  }
}

// --block-ordering (LinearSolverOptions::adaptive_block_ordering) comes back
// in the JSON; below 20,000 unknowns J is never ordered by blocks, so the
// solve is the same.
TEST(MemoryOptionsCli, BlockOrderingIsReportedAndChangesNothingWhenSmall) {
  const nlohmann::json adaptive =
      SolveJson("--no-history --block-ordering", "CubeH8.hdf5");
  const nlohmann::json off = SolveJson("--no-history", "CubeH8.hdf5");
  ASSERT_FALSE(adaptive.empty() || off.empty());
  EXPECT_TRUE(adaptive["adaptive_block_ordering"].get<bool>());
  EXPECT_FALSE(off["adaptive_block_ordering"].get<bool>());
  EXPECT_EQ(adaptive["ordering_used"], "metis");
  EXPECT_EQ(off["ordering_used"], "metis");
  EXPECT_EQ(adaptive["iterations"], off["iterations"]);
  EXPECT_EQ(adaptive["error"], off["error"]);
  EXPECT_EQ(adaptive["last_factorization_flops"],
            off["last_factorization_flops"]);
}

TEST(MemoryOptionsCli, OutOfCoreTakesTheInCoreIteratesAndCleansUp) {
  const std::string dir = FreshDirectory();
  ASSERT_FALSE(dir.empty());
  const nlohmann::json in_core = SolveJson("", "CubeH8.hdf5");
  const nlohmann::json ooc =
      SolveJson("--out-of-core-dir " + dir, "CubeH8.hdf5");
  ASSERT_FALSE(in_core.empty() || ooc.empty());
  EXPECT_TRUE(ooc["out_of_core"].get<bool>());
  EXPECT_GT(ooc["out_of_core_disk_mb"].get<double>(), 0.0);
  EXPECT_EQ(ooc["iterations"], in_core["iterations"]);
  const nlohmann::json& a = in_core["history"];
  const nlohmann::json& b = ooc["history"];
  ASSERT_EQ(a.size(), b.size());
  for (size_t k = 0; k < a.size(); ++k) {
    const double merit = a[k]["merit"].get<double>();
    // The same factors, stored elsewhere: the same iterates up to round-off.
    EXPECT_NEAR(b[k]["merit"].get<double>(), merit, 1e-9 * (1 + merit)) << k;
    EXPECT_EQ(b[k]["stick"], a[k]["stick"]) << k;
    EXPECT_EQ(b[k]["slip"], a[k]["slip"]) << k;
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  // A solve that fails (one Newton iteration is not enough) cleans up too.
  SolveJson(
      "--max-iter 1 --out-of-core-dir " + dir, "Box_Stacks-i0122-82-5.hdf5", 1);
  EXPECT_TRUE(std::filesystem::is_empty(dir));
}

TEST(MemoryOptionsCli, BadValuesExitWithTwo) {
  const std::string file = testing::SharedProblem("CubeH8.hdf5");
  for (const char* tolerance : {"-1e-8", "1"}) {
    const RunResult r =
        RunFcsn(std::string("solve --low-rank ") + tolerance + " " + file);
    EXPECT_EQ(r.exit_code, 2) << tolerance << r.out << r.err;
    EXPECT_NE(r.err.find("low_rank_tolerance"), std::string::npos) << r.err;
  }
  const RunResult r =
      RunFcsn("solve --out-of-core-dir /nonexistent-fcsn-directory/x " + file);
  EXPECT_NE(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("out_of_core_directory"), std::string::npos)
      << r.out << r.err;
}

}  // namespace
}  // namespace fcsn
