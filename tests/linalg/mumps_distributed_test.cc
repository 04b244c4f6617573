// Distributed assembled input (linalg/mumps_distributed.h, ICNTL(18) = 3) and
// the distributed matrix products (linalg/distributed_matrix.h):
// each rank hands only its share of the matrix's entries; the solution must
// equal the centralized MumpsSolver's (same matrix, relative tolerance) and be
// the same on every rank. Runs in both flavours: alone (one process holds every
// entry: the ordinary path through the distributed interface) and, in the mpi
// flavour, under mpirun -np 2 (tests/mpi), where the partitions really split
// the matrix. Errors on one rank only must fail every rank with one message.
#include "linalg/mumps_distributed.h"

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "fcsn/linear_solver_options.h"
#include "linalg/distributed_matrix.h"
#include "linalg/mumps_comm.h"
#include "linalg/mumps_solver.h"
#include "test_matrices.h"

namespace fcsn {
namespace {

using internal::CommRank;
using internal::CommSize;
using internal::DistributedMatrix;
using internal::DistributedMumpsSolver;
using internal::LinearSolverStatus;
using internal::SameOnAllRanks;
using testing::TestSystem;

// This rank's local entries: (row, col, value) lists in global indices.
struct Local {
  std::vector<int> rows, cols;
  std::vector<double> values;
};

// Entry q of `system` (CSC order) is given, in parts whose sum is its value,
// to the ranks `share(q, row)` returns as (rank, fraction) pairs.
using Sharing =
    std::function<std::vector<std::pair<int, double>>(int q, int row)>;

Local LocalShare(const TestSystem& system, const Sharing& share) {
  const int rank = CommRank(kMpiCommWorld);
  Local local;
  const internal::SparsityPattern& p = system.pattern;
  for (int j = 0; j < p.n; ++j) {
    for (int q = p.col_ptr[j]; q < p.col_ptr[j + 1]; ++q) {
      for (const auto& [owner, fraction] : share(q, p.row_index[q])) {
        if (owner != rank) continue;
        local.rows.push_back(p.row_index[q]);
        local.cols.push_back(j);
        local.values.push_back(fraction * system.values[q]);
      }
    }
  }
  return local;
}

// Contiguous blocks of rows, one per rank (a FEM code's row partition).
Sharing ByRows(int n) {
  const int size = CommSize(kMpiCommWorld);
  return [n, size](int, int row) {
    return std::vector<std::pair<int, double>>{
        {static_cast<int>(static_cast<int64_t>(row) * size / n), 1.0}};
  };
}

// An arbitrary partition, with every third entry cut in two parts (0.25 and
// 0.75 of it) that land on two ranks, or twice on one rank with one process:
// MUMPS must sum them.
Sharing Scattered() {
  const int size = CommSize(kMpiCommWorld);
  return [size](int q, int) {
    const int owner = (7 * q + 3) % size;
    if (q % 3 != 0) return std::vector<std::pair<int, double>>{{owner, 1.0}};
    return std::vector<std::pair<int, double>>{{owner, 0.25},
                                               {(owner + 1) % size, 0.75}};
  };
}

// Every entry on one rank (the others hold none: NZ_loc = 0).
Sharing OnOneRank(int owner) {
  return [owner](int, int) {
    return std::vector<std::pair<int, double>>{{owner, 1.0}};
  };
}

// A hash of x's bits: equal on every rank iff x is (with overwhelming
// probability) bitwise the same vector.
long long BitsHash(const Eigen::VectorXd& x) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a offset basis
  for (int i = 0; i < x.size(); ++i) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &x[i], sizeof bits);
    h = (h ^ bits) * 1099511628211ull;  // FNV-1a prime
  }
  return static_cast<long long>(h);
}

Eigen::VectorXd RightHandSide(int n) {
  Eigen::VectorXd b(n);
  for (int i = 0; i < n; ++i) b[i] = 1.0 + 0.01 * (i % 17) - 0.3 * (i % 2);
  return b;
}

Eigen::VectorXd CentralizedSolution(const TestSystem& system) {
  std::string message;
  auto solver = internal::MumpsSolver::Create(LinearSolverOptions(), &message);
  EXPECT_NE(solver, nullptr) << message;
  Eigen::VectorXd x = RightHandSide(system.pattern.n);
  EXPECT_EQ(solver->Analyze(system.pattern, &message),
            LinearSolverStatus::kSuccess);
  EXPECT_EQ(solver->Factorize(system.values.data(), &message),
            LinearSolverStatus::kSuccess);
  EXPECT_EQ(solver->Solve(&x, &message), LinearSolverStatus::kSuccess);
  return x;
}

std::unique_ptr<DistributedMumpsSolver> MakeSolver(Ordering ordering) {
  LinearSolverOptions options;
  options.ordering = ordering;
  std::string message;
  auto solver = DistributedMumpsSolver::Create(options, &message);
  EXPECT_NE(solver, nullptr) << message;
  return solver;
}

void ExpectSameAsCentralized(const TestSystem& system,
                             const Sharing& share,
                             Ordering ordering) {
  const Local local = LocalShare(system, share);
  auto solver = MakeSolver(ordering);
  ASSERT_NE(solver, nullptr);
  std::string message;
  const int n = system.pattern.n;
  ASSERT_EQ(solver->Analyze(n, local.rows, local.cols, &message),
            LinearSolverStatus::kSuccess)
      << message;
  EXPECT_EQ(solver->Icntl(18), 3);
  // Two factorizations of the same values: the second reuses the analysis.
  for (int round = 0; round < 2; ++round) {
    ASSERT_EQ(solver->Factorize(local.values.data(), &message),
              LinearSolverStatus::kSuccess)
        << message;
    Eigen::VectorXd x = RightHandSide(n);
    ASSERT_EQ(solver->Solve(&x, &message), LinearSolverStatus::kSuccess)
        << message;
    const Eigen::VectorXd reference = CentralizedSolution(system);
    // Other orderings and pivot sequences than the centralized run: equal to
    // round-off amplified by the (moderate) condition numbers of these
    // systems, 1e-10 relative.
    EXPECT_LE((x - reference).norm(), 1e-10 * reference.norm());
    EXPECT_TRUE(SameOnAllRanks(BitsHash(x), kMpiCommWorld));
  }
}

TEST(MumpsDistributedTest, RowPartitionSolvesLikeTheCentralizedInput) {
  const TestSystem contact = testing::ContactSaddlePoint(4, 12, 1);
  ExpectSameAsCentralized(contact, ByRows(contact.pattern.n), Ordering::kMetis);
  const TestSystem random = testing::RandomUnsymmetric(300, 3, 0.2, 5);
  ExpectSameAsCentralized(random, ByRows(random.pattern.n), Ordering::kAmd);
}

TEST(MumpsDistributedTest, ScatteredSplitEntriesAreSummed) {
  ExpectSameAsCentralized(
      testing::ContactSaddlePoint(4, 12, 2), Scattered(), Ordering::kMetis);
  ExpectSameAsCentralized(
      testing::Laplacian3D(6), Scattered(), Ordering::kPtScotch);
}

TEST(MumpsDistributedTest, RanksWithoutEntriesTakePart) {
  ExpectSameAsCentralized(testing::Arrowhead(50),
                          OnOneRank(CommSize(kMpiCommWorld) - 1),
                          Ordering::kMetis);
}

// Selected entries of A^-1 (ICNTL(30)) on an unsymmetric matrix split by
// rows: equal to the columns of A^-1 that ordinary solves give, the same on
// every rank, and interleaved with ordinary solves (the sparse request must
// not disturb them). A malformed pattern fails every rank.
TEST(MumpsDistributedTest, InverseEntriesMatchSolvesOfUnitVectors) {
  const TestSystem system = testing::RandomUnsymmetric(120, 3, 0.2, 7);
  const int n = system.pattern.n;
  const Local local = LocalShare(system, ByRows(n));
  auto solver = MakeSolver(Ordering::kMetis);
  ASSERT_NE(solver, nullptr);
  std::string message;
  ASSERT_EQ(solver->Analyze(n, local.rows, local.cols, &message),
            LinearSolverStatus::kSuccess)
      << message;
  ASSERT_EQ(solver->Factorize(local.values.data(), &message),
            LinearSolverStatus::kSuccess)
      << message;
  // Columns 0, 7, 8 and 119 (the others empty), a few rows each.
  std::vector<int> col_ptr(n + 1, 0), rows;
  for (int j = 0; j < n; ++j) {
    if (j == 0 || j == 7 || j == 8 || j == n - 1) {
      for (int i : {0, 3, j, n - 1}) {
        if (rows.size() > static_cast<size_t>(col_ptr[j]) && rows.back() >= i)
          continue;  // keeps each column's rows strictly increasing
        rows.push_back(i);
      }
    }
    col_ptr[j + 1] = static_cast<int>(rows.size());
  }
  for (int round = 0; round < 2; ++round) {
    std::vector<double> values;
    ASSERT_EQ(solver->InverseEntries(col_ptr, rows, &values, &message),
              LinearSolverStatus::kSuccess)
        << message;
    ASSERT_EQ(values.size(), rows.size());
    for (int j = 0; j < n; ++j) {
      if (col_ptr[j] == col_ptr[j + 1]) continue;
      Eigen::VectorXd e = Eigen::VectorXd::Unit(n, j);
      ASSERT_EQ(solver->Solve(&e, &message), LinearSolverStatus::kSuccess)
          << message;
      for (int k = col_ptr[j]; k < col_ptr[j + 1]; ++k) {
        EXPECT_NEAR(values[k], e[rows[k]], 1e-10 * e.norm())
            << "entry (" << rows[k] << ", " << j << ")";
      }
    }
    const Eigen::VectorXd flat =
        Eigen::Map<const Eigen::VectorXd>(values.data(), values.size());
    EXPECT_TRUE(SameOnAllRanks(BitsHash(flat), kMpiCommWorld));
  }
  std::vector<int> unsorted = rows;
  std::swap(unsorted[0], unsorted[1]);
  std::vector<double> values;
  EXPECT_EQ(solver->InverseEntries(col_ptr, unsorted, &values, &message),
            LinearSolverStatus::kInvalidInput);
  EXPECT_NE(message.find("pattern"), std::string::npos) << message;
}

// A bad entry or value on the last rank only: every rank fails, with the same
// message naming that rank, and nobody waits (a deadlock ends in the ctest
// timeout). The solver stays usable afterwards.
TEST(MumpsDistributedTest, AnErrorOnOneRankFailsEveryRankAlike) {
  const TestSystem system = testing::Arrowhead(40);
  Local local = LocalShare(system, ByRows(40));
  const int last = CommSize(kMpiCommWorld) - 1;
  const bool mine = CommRank(kMpiCommWorld) == last;
  auto solver = MakeSolver(Ordering::kMetis);
  ASSERT_NE(solver, nullptr);
  std::vector<int> bad_rows = local.rows;
  if (mine) bad_rows.push_back(40);  // outside 0..n-1
  std::vector<int> bad_cols = local.cols;
  if (mine) bad_cols.push_back(0);
  std::string message;
  EXPECT_EQ(solver->Analyze(40, bad_rows, bad_cols, &message),
            LinearSolverStatus::kInvalidInput);
  EXPECT_NE(message.find("rank " + std::to_string(last)), std::string::npos)
      << message;
  EXPECT_TRUE(
      SameOnAllRanks(static_cast<long long>(std::hash<std::string>()(message)),
                     kMpiCommWorld));
  ASSERT_EQ(solver->Analyze(40, local.rows, local.cols, &message),
            LinearSolverStatus::kSuccess)
      << message;
  std::vector<double> bad_values = local.values;
  if (mine && !bad_values.empty()) bad_values[0] = std::nan("");
  EXPECT_EQ(solver->Factorize(bad_values.data(), &message),
            LinearSolverStatus::kInvalidInput);
  EXPECT_NE(message.find("not finite"), std::string::npos) << message;
  Eigen::VectorXd x = RightHandSide(40);
  EXPECT_EQ(solver->Solve(&x, &message), LinearSolverStatus::kNotReady);
  EXPECT_EQ(solver->Factorize(local.values.data(), &message),
            LinearSolverStatus::kSuccess)
      << message;
  EXPECT_EQ(solver->Solve(&x, &message), LinearSolverStatus::kSuccess);
  // n differing between ranks is refused everywhere.
  const int n = mine && last > 0 ? 41 : 40;
  if (last > 0) {
    EXPECT_EQ(solver->Analyze(n, local.rows, local.cols, &message),
              LinearSolverStatus::kInvalidInput);
  }
}

TEST(MumpsDistributedTest, SingularMatrixIsSingularOnEveryRank) {
  const TestSystem system = testing::NearlyDependentRows(0.0);
  const Local local = LocalShare(system, Scattered());
  auto solver = MakeSolver(Ordering::kMetis);
  ASSERT_NE(solver, nullptr);
  std::string message;
  ASSERT_EQ(solver->Analyze(system.pattern.n, local.rows, local.cols, &message),
            LinearSolverStatus::kSuccess)
      << message;
  EXPECT_EQ(solver->Factorize(local.values.data(), &message),
            LinearSolverStatus::kSingular)
      << message;
}

std::unique_ptr<DistributedMatrix> MakeMatrix(int n, Local local) {
  std::string message;
  auto matrix = DistributedMatrix::Create(n,
                                          n,
                                          std::move(local.rows),
                                          std::move(local.cols),
                                          std::move(local.values),
                                          kMpiCommWorld,
                                          &message);
  EXPECT_NE(matrix, nullptr) << message;
  return matrix;
}

// y = A x and diag(A) from the local entries equal the whole matrix's, up to
// the order of the sums (1e-14 relative), and are bitwise the same on every
// rank; the solve of distributed input has a small residual measured with the
// distributed product.
TEST(DistributedMatrixTest, ProductsAndSolveNeedNoGatheredMatrix) {
  const TestSystem system = testing::ContactSaddlePoint(4, 12, 1);
  const int n = system.pattern.n;
  for (const Sharing& share : {ByRows(n), Scattered()}) {
    auto matrix = MakeMatrix(n, LocalShare(system, share));
    ASSERT_NE(matrix, nullptr);
    const Eigen::SparseMatrix<double> whole =
        testing::ToEigen(system.pattern, system.values);
    const Eigen::VectorXd x = RightHandSide(n);
    Eigen::VectorXd y;
    matrix->Multiply(x, &y);
    const Eigen::VectorXd expected = whole * x;
    EXPECT_LE((y - expected).norm(), 1e-14 * expected.norm());
    EXPECT_TRUE(SameOnAllRanks(BitsHash(y), kMpiCommWorld));
    const Eigen::VectorXd diagonal = whole.diagonal();
    EXPECT_LE((matrix->Diagonal() - diagonal).norm(), 1e-14 * diagonal.norm());

    auto solver = MakeSolver(Ordering::kMetis);
    ASSERT_NE(solver, nullptr);
    std::string message;
    ASSERT_EQ(solver->Analyze(n, matrix->rows(), matrix->cols(), &message),
              LinearSolverStatus::kSuccess)
        << message;
    ASSERT_EQ(solver->Factorize(matrix->values().data(), &message),
              LinearSolverStatus::kSuccess)
        << message;
    Eigen::VectorXd solution = RightHandSide(n);
    ASSERT_EQ(solver->Solve(&solution, &message), LinearSolverStatus::kSuccess);
    Eigen::VectorXd residual;
    matrix->Multiply(solution, &residual);
    residual -= RightHandSide(n);
    // Backward-stable LU on a moderately conditioned system.
    EXPECT_LE(residual.norm(), 1e-12 * RightHandSide(n).norm());
  }
}

TEST(DistributedMatrixTest, ABadEntryOnOneRankFailsEveryRank) {
  const TestSystem system = testing::Arrowhead(30);
  Local local = LocalShare(system, ByRows(30));
  const int last = CommSize(kMpiCommWorld) - 1;
  if (CommRank(kMpiCommWorld) == last) {
    local.rows.push_back(3);
    local.cols.push_back(4);
    local.values.push_back(std::nan(""));
  }
  std::string message;
  EXPECT_EQ(DistributedMatrix::Create(30,
                                      30,
                                      local.rows,
                                      local.cols,
                                      local.values,
                                      kMpiCommWorld,
                                      &message),
            nullptr);
  EXPECT_NE(message.find("rank " + std::to_string(last) + ": a local value"),
            std::string::npos)
      << message;
  EXPECT_TRUE(
      SameOnAllRanks(static_cast<long long>(std::hash<std::string>()(message)),
                     kMpiCommWorld));
}

}  // namespace
}  // namespace fcsn
