// MPI MUMPS under mpirun: the replicated-data contract of
// linalg/mumps_comm.h. Run with any number of processes (ctest runs it with 2):
// every rank makes the same calls and must get the same status and the same
// solution, bit for bit, on success and on failure alike; a failure never
// leaves a rank waiting (a deadlock ends in the ctest timeout).
#include <gtest/gtest.h>
#include <mpi.h>

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "fcsn/linear_solver_options.h"
#include "linalg/mumps_comm.h"
#include "linalg/mumps_solver.h"
#include "test_matrices.h"

namespace fcsn {
namespace {

using internal::LinearSolverStatus;
using internal::MumpsSolver;
using testing::BackwardError;
using testing::ContactSaddlePoint;
using testing::NearlyDependentRows;
using testing::TestSystem;
using testing::ToEigen;

int Size(MPI_Comm comm) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  return size;
}

// True when `value` is the same on every rank of `comm`.
bool SameOnAllRanks(int value, MPI_Comm comm) {
  int low = value, high = value;
  MPI_Allreduce(MPI_IN_PLACE, &low, 1, MPI_INT, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, &high, 1, MPI_INT, MPI_MAX, comm);
  return low == high;
}

// True when x is bitwise the same vector on every rank of `comm`.
template <typename Vector>
bool SameOnAllRanks(const Vector& x, MPI_Comm comm) {
  Eigen::VectorXd low = x, high = x;
  MPI_Allreduce(MPI_IN_PLACE, low.data(), x.size(), MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, high.data(), x.size(), MPI_DOUBLE, MPI_MAX, comm);
  return low == x && high == x;
}

std::unique_ptr<MumpsSolver> MakeSolver(Ordering ordering,
                                        FactorizationPrecision precision,
                                        MPI_Comm comm) {
  LinearSolverOptions options;
  options.ordering = ordering;
  options.precision = precision;
  options.mpi_communicator = static_cast<int>(MPI_Comm_c2f(comm));
  std::string message;
  auto solver = MumpsSolver::Create(options, &message);
  EXPECT_NE(solver, nullptr) << message;
  return solver;
}

// Analyze, factorize and solve `system` on `comm`; the solution is checked on
// every rank and must be identical on all of them.
void SolveEverywhere(const TestSystem& system,
                     Ordering ordering,
                     FactorizationPrecision precision,
                     MPI_Comm comm) {
  auto solver = MakeSolver(ordering, precision, comm);
  ASSERT_NE(solver, nullptr);
  std::string message;
  ASSERT_EQ(solver->Analyze(system.pattern, &message),
            LinearSolverStatus::kSuccess)
      << message;
  ASSERT_EQ(solver->Factorize(system.values.data(), &message),
            LinearSolverStatus::kSuccess)
      << message;
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(system.pattern.n, 1, 2);
  Eigen::VectorXd x = b;
  ASSERT_EQ(solver->Solve(&x, &message), LinearSolverStatus::kSuccess)
      << message;
  // 1e-12: tens of eps for a well-conditioned system, on every rank.
  EXPECT_LT(BackwardError(ToEigen(system.pattern, system.values), x, b), 1e-12);
  EXPECT_TRUE(SameOnAllRanks(x, comm));
  EXPECT_TRUE(
      SameOnAllRanks(static_cast<int>(solver->stats().factor_entries), comm));
  EXPECT_TRUE(SameOnAllRanks(solver->Infog(1), comm));
  // The estimates decide the arithmetic of FactorizationPrecision::kAuto:
  // every rank must read the same (global RINFOG).
  const Eigen::Vector2d flops(solver->stats().estimated_flops,
                              solver->stats().last_factorization_flops);
  EXPECT_TRUE(SameOnAllRanks(flops, comm));
  EXPECT_GT(flops(0), 0.0);
}

TEST(MumpsMpi, EveryRankGetsTheSameSolution) {
  const TestSystem system = ContactSaddlePoint(4, 12, 1);
  for (Ordering ordering : {Ordering::kMetis, Ordering::kAmd}) {
    for (FactorizationPrecision precision :
         {FactorizationPrecision::kDouble, FactorizationPrecision::kMixed}) {
      SCOPED_TRACE(std::string(ToString(ordering)) + " " + ToString(precision));
      SolveEverywhere(system, ordering, precision, MPI_COMM_WORLD);
    }
  }
}

TEST(MumpsMpi, PtScotchAnalysesInParallel) {
  const TestSystem system = ContactSaddlePoint(5, 20, 2);
  SolveEverywhere(system,
                  Ordering::kPtScotch,
                  FactorizationPrecision::kDouble,
                  MPI_COMM_WORLD);
  auto solver = MakeSolver(
      Ordering::kPtScotch, FactorizationPrecision::kDouble, MPI_COMM_WORLD);
  ASSERT_EQ(solver->Analyze(system.pattern, nullptr),
            LinearSolverStatus::kSuccess);
  // INFOG(32): the analysis actually done, parallel (2) from 2 processes on.
  EXPECT_EQ(solver->Infog(32), Size(MPI_COMM_WORLD) > 1 ? 2 : 1);
  EXPECT_EQ(solver->stats().ordering_used,
            Size(MPI_COMM_WORLD) > 1 ? "ptscotch" : "scotch");
}

// A singular matrix fails on every rank with the same status, and the solver
// is usable again afterwards (no rank left inside MUMPS).
TEST(MumpsMpi, SingularMatrixFailsOnEveryRankWithoutDeadlock) {
  const TestSystem singular = NearlyDependentRows(0.0);
  const TestSystem regular = NearlyDependentRows(1e-3);
  auto solver = MakeSolver(
      Ordering::kMetis, FactorizationPrecision::kDouble, MPI_COMM_WORLD);
  ASSERT_NE(solver, nullptr);
  std::string message;
  ASSERT_EQ(solver->Analyze(singular.pattern, &message),
            LinearSolverStatus::kSuccess)
      << message;
  const LinearSolverStatus status =
      solver->Factorize(singular.values.data(), &message);
  EXPECT_EQ(status, LinearSolverStatus::kSingular) << message;
  EXPECT_TRUE(SameOnAllRanks(static_cast<int>(status), MPI_COMM_WORLD));
  Eigen::VectorXd x = Eigen::VectorXd::Ones(singular.pattern.n);
  EXPECT_EQ(solver->Solve(&x, nullptr), LinearSolverStatus::kNotReady);
  ASSERT_EQ(solver->Factorize(regular.values.data(), &message),
            LinearSolverStatus::kSuccess)
      << message;
  ASSERT_EQ(solver->Solve(&x, &message), LinearSolverStatus::kSuccess)
      << message;
  EXPECT_TRUE(SameOnAllRanks(x, MPI_COMM_WORLD));
}

// The communicator option: each rank alone (MPI_COMM_SELF) solves its own
// system, while the world communicator solves a shared one.
TEST(MumpsMpi, HonoursTheGivenCommunicator) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const TestSystem own = ContactSaddlePoint(3, 6, static_cast<unsigned>(rank));
  SolveEverywhere(
      own, Ordering::kMetis, FactorizationPrecision::kDouble, MPI_COMM_SELF);
  const TestSystem shared = ContactSaddlePoint(3, 6, 7);
  SolveEverywhere(shared,
                  Ordering::kMetis,
                  FactorizationPrecision::kDouble,
                  MPI_COMM_WORLD);
}

TEST(MumpsMpi, AnyRankAgreesOnARankDependentFlag) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int world = static_cast<int>(MPI_Comm_c2f(MPI_COMM_WORLD));
  const int last = Size(MPI_COMM_WORLD) - 1;
  EXPECT_TRUE(internal::AnyRank(rank == last, world));
  EXPECT_FALSE(internal::AnyRank(false, world));
  EXPECT_TRUE(internal::AnyRank(true, kMpiCommWorld));
}

TEST(MumpsMpi, RefusesTheNullCommunicator) {
  LinearSolverOptions options;
  options.mpi_communicator = static_cast<int>(MPI_Comm_c2f(MPI_COMM_NULL));
  std::string message;
  EXPECT_EQ(MumpsSolver::Create(options, &message), nullptr);
  EXPECT_NE(message.find("MPI_COMM_NULL"), std::string::npos) << message;
}

}  // namespace
}  // namespace fcsn
