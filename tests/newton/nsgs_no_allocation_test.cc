// NSGS and projected Jacobi sweeps do not allocate (house style §7.7): the
// heap allocations of a run with 2 sweeps and of a run with 12 sweeps are
// counted, with the true-error checks (which allocate) only at the start and
// at the last sweep; the counts must be equal.
//
// Counting interposes malloc/calloc/realloc in this test executable only (Eigen
// allocates with malloc, operator new goes through it as well) and forwards to
// glibc's __libc_* entry points.
#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <string>

#include "fcsn/fclib_io.h"
#include "fcsn/options.h"
#include "newton/delassus.h"
#include "newton/nsgs.h"
#include "test_problems.h"
#include "test_util.h"

namespace {
bool counting = false;
long allocations = 0;
}  // namespace

// Under AddressSanitizer the runtime owns malloc: no interposition, the test
// skips.
#if defined(__SANITIZE_ADDRESS__)
#define FCSN_COUNT_MALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FCSN_COUNT_MALLOC 0
#endif
#endif
#ifndef FCSN_COUNT_MALLOC
#define FCSN_COUNT_MALLOC 1
#endif

#if FCSN_COUNT_MALLOC
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);

void* malloc(std::size_t size) {
  if (counting) ++allocations;
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) {
  if (counting) ++allocations;
  return __libc_calloc(count, size);
}
void* realloc(void* pointer, std::size_t size) {
  if (counting) ++allocations;
  return __libc_realloc(pointer, size);
}
}
#endif

namespace fcsn::internal {
namespace {

template <class SolverType>
long CountAllocations(const GlobalProblem& problem,
                      SolverType* solver,
                      const NsgsOptions& options,
                      int sweeps) {
  Eigen::VectorXd r = Eigen::VectorXd::Zero(problem.m());
  Eigen::VectorXd v = Eigen::VectorXd::Zero(problem.n());
  allocations = 0;
  counting = true;
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
  counting = false;
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
