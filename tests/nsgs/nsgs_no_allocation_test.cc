// NSGS and projected Jacobi sweeps do not allocate (house style §7.7): the
// heap allocations of a run with 2 sweeps and of a run with 12 sweeps are
// counted, with the true-error checks (which allocate) only at the start and
// at the last sweep; the counts must be equal.
//
// Allocations are counted by tests/alloc_counter.h (malloc/calloc/realloc
// interposed in this test executable).
#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <string>

#include "alloc_counter.h"
#include "fcsn/fclib_io.h"
#include "fcsn/options.h"
#include "minverse/delassus.h"
#include "nsgs/nsgs.h"
#include "test_problems.h"
#include "test_util.h"

namespace fcsn::internal {
namespace {

template <class SolverType>
long CountAllocations(const GlobalProblem& problem,
                      SolverType* solver,
                      const NsgsOptions& options,
                      int sweeps) {
  Eigen::VectorXd r = Eigen::VectorXd::Zero(problem.m());
  Eigen::VectorXd v = Eigen::VectorXd::Zero(problem.n());
  testing::StartCountingAllocations();
  // tol = 0: never converged, and the cheap error triggers no check while r
  // moves.
  const NsgsResult result =
      solver->Run(problem,
                  options,
                  0.0,
                  sweeps,
                  std::chrono::steady_clock::time_point::max(),
                  &r,
                  &v);
  const long allocations = testing::StopCountingAllocations();
  EXPECT_EQ(result.sweeps, sweeps);
  EXPECT_EQ(result.error_checks, 2);
  return allocations;
}

class NsgsNoAllocationTest : public ::testing::TestWithParam<LocalSolverType> {
};

TEST_P(NsgsNoAllocationTest, SweepsDoNotAllocate) {
  GlobalProblem problem;
  std::string error;
  ASSERT_TRUE(
      ReadGlobalProblem(testing::SharedProblem("Box_Stacks-i0122-82-5.hdf5"),
                        ReadOptions{},
                        &problem,
                        nullptr,
                        &error))
      << error;
  Delassus delassus;
  ASSERT_TRUE(delassus.Compute(problem, &error)) << error;
  NsgsSolver solver(delassus);
  NsgsOptions options;
  options.local_solver = GetParam();
  options.error_check_frequency = 1000000;
  const long short_run = CountAllocations(problem, &solver, options, 2);
  const long long_run = CountAllocations(problem, &solver, options, 12);
  // The error checks allocate, so a zero count means malloc is not ours
  // (sanitizer, valgrind).
  if (short_run == 0)
    GTEST_SKIP() << "malloc is not interposed in this build or run";
  EXPECT_EQ(long_run, short_run);
}

// The projected Jacobi sweeps (no W; solves with the LDL^T of M) do not
// allocate either.
TEST(NsgsNoAllocationTest, ProjectedJacobiSweepsDoNotAllocate) {
  const GlobalProblem problem =
      testing::MakeLatticeOnFloor(5, 4, 2, 0.3, 1.2, 0.1);
  MFactorization factorization;
  std::string factor_error;
  ASSERT_TRUE(factorization.Factorize(problem.M, &factor_error))
      << factor_error;
  ProjectedJacobiSolver solver(
      factorization, Eigen::VectorXd::Constant(problem.m(), 0.1), 1.0);
  NsgsOptions options;
  options.error_check_frequency = 1000000;
  const long short_run = CountAllocations(problem, &solver, options, 2);
  const long long_run = CountAllocations(problem, &solver, options, 12);
  if (short_run == 0)
    GTEST_SKIP() << "malloc is not interposed in this build or run";
  EXPECT_EQ(long_run, short_run);
}

INSTANTIATE_TEST_SUITE_P(
    BothLocalSolvers,
    NsgsNoAllocationTest,
    ::testing::Values(LocalSolverType::kAlartCurnierNewton,
                      LocalSolverType::kFixedPointViUpk),
    [](const ::testing::TestParamInfo<LocalSolverType>& info) {
      return std::string(info.param == LocalSolverType::kAlartCurnierNewton
                             ? "AlartCurnier"
                             : "FixedPointViUpk");
    });

}  // namespace
}  // namespace fcsn::internal
