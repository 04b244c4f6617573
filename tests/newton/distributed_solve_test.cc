// Solver::Solve with M distributed over the ranks (fcsn/solver.h):
// each rank hands only its share of M's entries; the result must be the
// ordinary replicated Solve's (same status and iterations, v and r equal to
// 1e-8 relative) and the same bits on every rank. Partitions: (a) by rows,
// (b) scattered entries with some entries cut in two parts on two ranks, (c)
// the last rank holding nothing. An invalid entry on the last rank only must
// fail the solve on every rank with the same message naming that rank (a
// deadlock ends in the ctest timeout). Runs in both flavours: alone (one
// process holds every entry) and, in the mpi flavour, under mpirun -np 2
// (tests/mpi). FCSN_WALL_STEP (optional): an FCLib file of a generated
// masonry-wall step (tests/mpi/CMakeLists.txt writes one) solved the same way.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "fcsn/fclib_io.h"
#include "fcsn/solver.h"
#include "linalg/m_factorization.h"
#include "linalg/mumps_comm.h"
#include "linalg/mumps_distributed.h"
#include "minverse/distributed_m.h"
#include "test_problems.h"
#include "test_util.h"

namespace fcsn {
namespace {

using internal::CommRank;
using internal::CommSize;

enum class Partition { kRows, kScatteredCut, kLastRankEmpty };

const char* Name(Partition p) {
  switch (p) {
    case Partition::kRows:
      return "rows";
    case Partition::kScatteredCut:
      return "scattered-cut";
    case Partition::kLastRankEmpty:
      return "last-rank-empty";
  }
  return "?";
}

// This rank's entries of M under partition p (global indices, CSC order).
LocalMatrixEntries Share(const SparseMatrix& M, Partition p) {
  const int rank = CommRank(kMpiCommWorld);
  const int size = CommSize(kMpiCommWorld);
  LocalMatrixEntries local;
  auto add = [&](int owner, int i, int j, double value) {
    if (owner != rank) return;
    local.rows.push_back(i);
    local.cols.push_back(j);
    local.values.push_back(value);
  };
  int q = 0;
  for (int j = 0; j < M.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(M, j); it; ++it, ++q) {
      const int i = static_cast<int>(it.row());
      switch (p) {
        case Partition::kRows:
          add(static_cast<int>(static_cast<long long>(i) * size / M.rows()),
              i,
              j,
              it.value());
          break;
        case Partition::kScatteredCut:
          if (q % 3 == 0) {  // cut in two parts, on two ranks when size > 1
            add(q % size, i, j, 0.25 * it.value());
            add((q + 1) % size, i, j, 0.75 * it.value());
          } else {
            add(q % size, i, j, it.value());
          }
          break;
        case Partition::kLastRankEmpty:
          add(size > 1 ? q % (size - 1) : 0, i, j, it.value());
          break;
      }
    }
  }
  return local;
}

using testing::WithoutM;

// FNV-1a of the bits of x (the same vector on every rank <=> same hash).
long long Bits(const Eigen::VectorXd& x) {
  std::uint64_t h = 14695981039346656037ULL;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(x.data());
  for (size_t k = 0; k < sizeof(double) * static_cast<size_t>(x.size()); ++k)
    h = (h ^ p[k]) * 1099511628211ULL;
  return static_cast<long long>(h);
}

long long Bits(const std::string& s) {
  Eigen::VectorXd x(static_cast<Eigen::Index>(s.size()));
  for (size_t k = 0; k < s.size(); ++k) x[k] = s[k];
  return Bits(x);
}

bool Everywhere(long long value) {
  return internal::SameOnAllRanks(value, kMpiCommWorld);
}

SolverOptions NewtonOptions(RhoRule rule, Formulation formulation) {
  SolverOptions options;
  options.solver = SolverType::kNewton;
  options.rho.rule = rule;
  options.formulation = formulation;
  options.record_history = false;
  return options;
}

// Solves `problem` replicated and distributed under partition p; the two
// must agree, and the distributed one be the same on every rank.
void ExpectSameAsReplicated(const GlobalProblem& problem,
                            const SolverOptions& options,
                            Partition p) {
  SCOPED_TRACE(Name(p));
  Solver replicated(options);
  Solution expected;
  const SolverSummary want = replicated.Solve(problem, nullptr, &expected);
  ASSERT_EQ(want.status, SolverStatus::kConverged) << want.message;

  Solver distributed(options);
  Solution got;
  const SolverSummary have =
      distributed.Solve(WithoutM(problem), Share(problem.M, p), nullptr, &got);
  ASSERT_EQ(have.status, want.status) << have.message;
  EXPECT_EQ(have.iterations, want.iterations);
  EXPECT_LE(testing::RelativeDistance(got.v, expected.v), 1e-8);
  EXPECT_LE(testing::RelativeDistance(got.r, expected.r), 1e-8);
  // u = H^T v + w is computed from v the same way in both solves (and
  // cancels to round-off of v on resting contacts: not compared relatively).
  EXPECT_TRUE(Everywhere(Bits(got.v)) && Everywhere(Bits(got.r)));
  EXPECT_TRUE(Everywhere(have.iterations));
}

const Partition kPartitions[] = {
    Partition::kRows, Partition::kScatteredCut, Partition::kLastRankEmpty};

void ExpectSameAsReplicatedForEveryPartition(const GlobalProblem& problem,
                                             const SolverOptions& options) {
  for (Partition p : kPartitions) ExpectSameAsReplicated(problem, options, p);
}

GlobalProblem ReadShared(const std::string& name) {
  GlobalProblem problem;
  FclibFileInfo info;
  std::string error;
  EXPECT_TRUE(ReadGlobalProblem(
      testing::SharedProblem(name), {}, &problem, &info, &error))
      << error;
  return problem;
}

TEST(DistributedSolveTest, CubeH8MatchesReplicatedForEveryPartition) {
  const GlobalProblem problem = ReadShared("CubeH8.hdf5");
  ExpectSameAsReplicatedForEveryPartition(
      problem,
      NewtonOptions(RhoRule::kSplitExactDelassus, Formulation::kAlartCurnier));
}

TEST(DistributedSolveTest, LatticeMatchesReplicatedForEveryRhoRule) {
  const GlobalProblem problem =
      testing::MakeLatticeOnFloor(4, 3, 2, 0.3, 1.5, 0.01);
  for (RhoRule rule : {RhoRule::kExactDelassus,
                       RhoRule::kDiagonalEstimate,
                       RhoRule::kConstant}) {
    SCOPED_TRACE(ToString(rule));
    ExpectSameAsReplicatedForEveryPartition(
        problem, NewtonOptions(rule, Formulation::kFischerBurmeister));
  }
}

TEST(DistributedSolveTest, GeneratedWallStepMatchesReplicated) {
  const char* path = std::getenv("FCSN_WALL_STEP");
  if (path == nullptr || *path == '\0')
    GTEST_SKIP() << "FCSN_WALL_STEP not set (tests/mpi generates one)";
  GlobalProblem problem;
  FclibFileInfo info;
  std::string error;
  ASSERT_TRUE(ReadGlobalProblem(path, {}, &problem, &info, &error)) << error;
  ExpectSameAsReplicatedForEveryPartition(
      problem,
      NewtonOptions(RhoRule::kSplitExactDelassus, Formulation::kAlartCurnier));
}

TEST(DistributedSolveTest, NoContactsSolvesMvEqualsF) {
  GlobalProblem problem = testing::MakeLatticeOnFloor(3, 2, 2, 0.3, 0.5, 0.0);
  problem.H.resize(problem.n(), 0);
  problem.H.makeCompressed();
  problem.w.resize(0);
  problem.mu.resize(0);
  ExpectSameAsReplicatedForEveryPartition(
      problem,
      NewtonOptions(RhoRule::kSplitExactDelassus, Formulation::kAlartCurnier));
}

TEST(DistributedSolveTest, ReusesAnalysisAndFactorsAcrossSteps) {
  const GlobalProblem problem =
      testing::MakeLatticeOnFloor(3, 3, 2, 0.5, 0.5, 0.0);
  const SolverOptions options =
      NewtonOptions(RhoRule::kSplitExactDelassus, Formulation::kAlartCurnier);
  Solver solver(options);
  const LocalMatrixEntries local = Share(problem.M, Partition::kScatteredCut);
  const GlobalProblem without = WithoutM(problem);
  Solution x;
  const SolverSummary first = solver.Solve(without, local, nullptr, &x);
  ASSERT_EQ(first.status, SolverStatus::kConverged) << first.message;
  EXPECT_EQ(first.analyses, 1);
  Solution y;
  const SolverSummary second = solver.Solve(without, local, nullptr, &y);
  ASSERT_EQ(second.status, SolverStatus::kConverged) << second.message;
  EXPECT_EQ(second.analyses, 0);
  EXPECT_EQ(second.iterations, first.iterations);
  // One process: the same factors, the same bits. Several: MPI MUMPS may
  // sum in another order from one factorization to the next (round-off).
  if (CommSize(kMpiCommWorld) == 1) {
    EXPECT_EQ(Bits(y.v), Bits(x.v));
  } else {
    EXPECT_LE(testing::RelativeDistance(y.v, x.v), 1e-8);
  }
  // New values of M (stiffer): the factors must not be reused.
  GlobalProblem stiffer = problem;
  stiffer.M *= 2.0;
  Solution expected;
  Solver replicated(options);
  const SolverSummary want = replicated.Solve(stiffer, nullptr, &expected);
  const SolverSummary third = solver.Solve(
      without, Share(stiffer.M, Partition::kScatteredCut), nullptr, &y);
  ASSERT_EQ(third.status, want.status) << third.message;
  EXPECT_EQ(third.iterations, want.iterations);
  EXPECT_LE(testing::RelativeDistance(y.v, expected.v), 1e-8);
}

// A guess of exactly zero is no guess with M distributed too: the cold start
// (auto: bonded on this resting lattice, which the zero start needs more
// iterations for) applies on every rank.
TEST(DistributedSolveTest, AnAllZeroGuessIsNoGuess) {
  const GlobalProblem problem =
      testing::MakeLatticeOnFloor(3, 3, 2, 0.5, 0.5, 0.0);
  SolverOptions options =
      NewtonOptions(RhoRule::kSplitExactDelassus, Formulation::kAlartCurnier);
  options.cold_start = ColdStart::kAuto;
  const LocalMatrixEntries local = Share(problem.M, Partition::kScatteredCut);
  const GlobalProblem without = WithoutM(problem);
  Solution none;
  const SolverSummary no_guess =
      Solver(options).Solve(without, local, nullptr, &none);
  Solution zero;
  zero.v = Eigen::VectorXd::Zero(problem.n());
  zero.r = Eigen::VectorXd::Zero(problem.m());
  const SolverSummary zero_guess =
      Solver(options).Solve(without, local, &zero, &zero);
  ASSERT_EQ(no_guess.status, SolverStatus::kConverged) << no_guess.message;
  ASSERT_EQ(zero_guess.status, SolverStatus::kConverged) << zero_guess.message;
  EXPECT_EQ(zero_guess.iterations, no_guess.iterations);
  EXPECT_LE(testing::RelativeDistance(zero.v, none.v), 1e-8);
  options.cold_start = ColdStart::kZero;
  Solution x;
  const SolverSummary zero_start =
      Solver(options).Solve(without, local, nullptr, &x);
  EXPECT_LT(no_guess.iterations, zero_start.iterations);
  EXPECT_TRUE(Everywhere(zero_guess.iterations));
}

// The owner of M's factorization keeps the factors and the blocks W_aa while
// every rank's entries and H are unchanged, and drops them otherwise.
TEST(DistributedMTest, KeepsFactorsAndBlocksWhileUnchanged) {
  const GlobalProblem problem =
      testing::MakeLatticeOnFloor(3, 2, 2, 0.3, 0.5, 0.0);
  const GlobalProblem without = WithoutM(problem);
  const SolverOptions options =
      NewtonOptions(RhoRule::kSplitExactDelassus, Formulation::kAlartCurnier);
  internal::DistributedM m;
  internal::ScalingData first, again, stiffer;
  std::string message;
  auto scale = [&](const SparseMatrix& M, internal::ScalingData* scaling) {
    const LocalMatrixEntries local = Share(M, Partition::kRows);
    ASSERT_EQ(m.Accept(options, without, &local, nullptr), "");
    ASSERT_TRUE(m.ComputeScaling(without, options, {}, scaling, &message))
        << message;
  };
  scale(problem.M, &first);
  EXPECT_FALSE(m.reused_factors());
  EXPECT_FALSE(m.reused_blocks());
  scale(problem.M, &again);
  EXPECT_TRUE(m.reused_factors());
  EXPECT_TRUE(m.reused_blocks());
  EXPECT_EQ(Bits(again.rho), Bits(first.rho));
  // q_free is solved again on the kept factors (MPI MUMPS' solve may sum in
  // another order with several processes).
  EXPECT_LE(testing::RelativeDistance(again.q_free, first.q_free), 1e-12);
  const SparseMatrix doubled = 2.0 * problem.M;
  scale(doubled, &stiffer);
  EXPECT_FALSE(m.reused_factors());
  EXPECT_FALSE(m.reused_blocks());
  // W_aa halves when M doubles: rho doubles (to round-off).
  EXPECT_LE(testing::RelativeDistance(stiffer.rho, 2.0 * first.rho), 1e-12);
}

// W_aa from the entries of M^-1 (ICNTL(30)), batched: every batch size, including
// ones that do not divide nc (a short last batch) and ones larger than nc,
// gives the replicated MInverse's blocks (an LDL^T of the whole M) to
// round-off, on every rank.
TEST(DistributedMTest, BatchedBlocksMatchReplicatedForEveryBatchSize) {
  const GlobalProblem problem =
      testing::MakeLatticeOnFloor(3, 2, 2, 0.3, 0.5, 0.0);
  const int nc = problem.nc();
  ASSERT_GE(nc, 4);
  internal::MInverse replicated;
  replicated.Bind(problem);
  std::string message;
  ASSERT_TRUE(replicated.Factorize(&message)) << message;
  const std::vector<Eigen::Matrix3d> want = replicated.DiagonalBlocks();

  LinearSolverOptions linear;
  auto solver = internal::DistributedMumpsSolver::Create(linear, &message);
  ASSERT_NE(solver, nullptr) << message;
  const LocalMatrixEntries local = Share(problem.M, Partition::kScatteredCut);
  ASSERT_EQ(solver->Analyze(problem.n(), local.rows, local.cols, &message),
            internal::LinearSolverStatus::kSuccess)
      << message;
  ASSERT_EQ(solver->Factorize(local.values.data(), &message),
            internal::LinearSolverStatus::kSuccess)
      << message;
  // nc - 1 (nc >= 4) leaves a last batch of one contact.
  for (int batch : {1, 3, nc - 1, nc, nc + 5}) {
    SCOPED_TRACE("contacts per batch " + std::to_string(batch));
    std::vector<Eigen::Matrix3d> got;
    ASSERT_TRUE(internal::DistributedDiagonalBlocks(
        solver.get(), problem.H, batch, &got, &message))
        << message;
    ASSERT_EQ(got.size(), want.size());
    Eigen::VectorXd flat_got(9 * nc), flat_want(9 * nc);
    for (int a = 0; a < nc; ++a) {
      flat_got.segment<9>(9 * a) = got[a].reshaped();
      flat_want.segment<9>(9 * a) = want[a].reshaped();
    }
    EXPECT_LE(testing::RelativeDistance(flat_got, flat_want), 1e-12);
    EXPECT_TRUE(Everywhere(Bits(flat_got)));
  }
}

TEST(DistributedSolveTest, InvalidEntryOnLastRankFailsEveryRank) {
  const GlobalProblem problem =
      testing::MakeLatticeOnFloor(3, 2, 2, 0.3, 0.5, 0.0);
  const int last = CommSize(kMpiCommWorld) - 1;
  const std::string rank_text = "rank " + std::to_string(last);
  Solver solver(
      NewtonOptions(RhoRule::kSplitExactDelassus, Formulation::kAlartCurnier));
  for (int bad : {0, 1}) {
    LocalMatrixEntries local = Share(problem.M, Partition::kRows);
    if (CommRank(kMpiCommWorld) == last) {
      if (bad == 0) {
        local.rows.push_back(problem.n());  // outside 0..n-1
        local.cols.push_back(0);
        local.values.push_back(1.0);
      } else {
        local.values.back() = std::nan("");
      }
    }
    Solution x;
    const SolverSummary s = solver.Solve(WithoutM(problem), local, nullptr, &x);
    EXPECT_EQ(s.status, SolverStatus::kInvalidInput);
    EXPECT_NE(s.message.find(rank_text), std::string::npos) << s.message;
    EXPECT_TRUE(Everywhere(Bits(s.message))) << s.message;
  }
  // The solver is usable again after the failures.
  Solution x;
  const SolverSummary ok = solver.Solve(
      WithoutM(problem), Share(problem.M, Partition::kRows), nullptr, &x);
  EXPECT_EQ(ok.status, SolverStatus::kConverged) << ok.message;
}

TEST(DistributedSolveTest, ReplicatedDataThatDifferFailEveryRank) {
  if (CommSize(kMpiCommWorld) < 2) GTEST_SKIP() << "needs 2 processes";
  GlobalProblem problem = testing::MakeLatticeOnFloor(3, 2, 2, 0.3, 0.5, 0.0);
  const LocalMatrixEntries local = Share(problem.M, Partition::kRows);
  problem.f[0] += CommRank(kMpiCommWorld);  // f differs on rank 1
  Solver solver(
      NewtonOptions(RhoRule::kSplitExactDelassus, Formulation::kAlartCurnier));
  Solution x;
  const SolverSummary s = solver.Solve(WithoutM(problem), local, nullptr, &x);
  EXPECT_EQ(s.status, SolverStatus::kInvalidInput);
  EXPECT_NE(s.message.find("differ between ranks"), std::string::npos)
      << s.message;
  EXPECT_TRUE(Everywhere(Bits(s.message)));
}

TEST(DistributedSolveTest, RefusesWhatItDoesNotSupport) {
  const GlobalProblem problem =
      testing::MakeLatticeOnFloor(3, 2, 2, 0.3, 0.5, 0.0);
  const LocalMatrixEntries local = Share(problem.M, Partition::kRows);
  Solution x;
  for (SolverType type : {SolverType::kNsgs, SolverType::kHybrid}) {
    SolverOptions options;
    options.solver = type;
    Solver solver(options);
    const SolverSummary s = solver.Solve(WithoutM(problem), local, nullptr, &x);
    EXPECT_EQ(s.status, SolverStatus::kInvalidInput);
    EXPECT_NE(s.message.find("newton"), std::string::npos) << s.message;
  }
  Solver solver(
      NewtonOptions(RhoRule::kSplitExactDelassus, Formulation::kAlartCurnier));
  GlobalProblem upper = WithoutM(problem);
  upper.m_upper_triangle = true;
  EXPECT_EQ(solver.Solve(upper, local, nullptr, &x).status,
            SolverStatus::kInvalidInput);
  // problem.M with entries: refused, never summed with the local ones.
  EXPECT_EQ(solver.Solve(problem, local, nullptr, &x).status,
            SolverStatus::kInvalidInput);
}

TEST(DistributedSolveTest, MixedPrecisionIsSolvedInDouble) {
  const GlobalProblem problem =
      testing::MakeLatticeOnFloor(4, 3, 2, 0.3, 1.5, 0.01);
  SolverOptions options =
      NewtonOptions(RhoRule::kSplitExactDelassus, Formulation::kAlartCurnier);
  options.linear_solver.precision = FactorizationPrecision::kMixed;
  Solver solver(options);
  Solution x;
  const SolverSummary s = solver.Solve(
      WithoutM(problem), Share(problem.M, Partition::kRows), nullptr, &x);
  ASSERT_EQ(s.status, SolverStatus::kConverged) << s.message;
  EXPECT_EQ(s.refinement_steps, 0);  // d-MUMPS: no single-precision solve
}

}  // namespace
}  // namespace fcsn
