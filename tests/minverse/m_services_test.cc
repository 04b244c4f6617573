// M's services behind one interface (minverse/m_services.h): MChoice picks
// the distributed implementation exactly when local entries are given, and
// the two implementations give the same services on the same M: rho, q_free,
// M^-1 f, x = M^-1 b, M v, the error measures (to round-off: an LDL^T of the
// whole M against MUMPS' LU of the distributed one), and the same view of
// J: the part of M outside J's values is nothing for SharedM and all of M for
// DistributedM. Runs alone and, in the mpi flavour, under mpirun -np 2.
#include "minverse/m_services.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "linalg/mumps_comm.h"
#include "minverse/distributed_m.h"
#include "minverse/shared_m.h"
#include "test_problems.h"
#include "test_util.h"

namespace fcsn::internal {
namespace {

// This rank's share of M's entries: entry k to rank k mod size.
LocalMatrixEntries Share(const SparseMatrix& M) {
  const int rank = CommRank(kMpiCommWorld);
  const int size = CommSize(kMpiCommWorld);
  LocalMatrixEntries local;
  int k = 0;
  for (int j = 0; j < M.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(M, j); it; ++it, ++k) {
      if (k % size != rank) continue;
      local.rows.push_back(static_cast<int>(it.row()));
      local.cols.push_back(j);
      local.values.push_back(it.value());
    }
  }
  return local;
}

using testing::WithoutM;

SolverOptions DistributedOptions() {
  SolverOptions options;
  options.solver = SolverType::kNewton;
  options.linear_solver.type = LinearSolverType::kMumps;
  options.rho.rule = RhoRule::kSplitExactDelassus;
  return options;
}

TEST(MChoiceTest, PicksTheDistributedServicesExactlyForLocalEntries) {
  MChoice choice;
  const LocalMatrixEntries local;
  MServices* shared = choice.Pick(nullptr);
  MServices* distributed = choice.Pick(&local);
  ASSERT_NE(shared, distributed);
  EXPECT_EQ(choice.Pick(nullptr), shared);  // kept across solves
  EXPECT_FALSE(shared->collective());
  EXPECT_TRUE(distributed->collective());
  EXPECT_NE(shared->sweep_factors(), nullptr);
  EXPECT_EQ(distributed->sweep_factors(), nullptr);
  EXPECT_FALSE(distributed->CanOverlapSetup());
}

class MServicesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    problem_ = testing::MakeLatticeOnFloor(3, 2, 2, 0.3, 0.5, 0.0);
    without_ = WithoutM(problem_);
    local_ = Share(problem_.M);
    options_ = DistributedOptions();
    ASSERT_EQ(shared_.Accept(options_, problem_, nullptr, nullptr), "");
    ASSERT_EQ(distributed_.Accept(options_, without_, &local_, nullptr), "");
    shared_.Bind(problem_);
    distributed_.Bind(without_);
    std::string message;
    ASSERT_TRUE(shared_.ComputeScaling(
        problem_, options_, {}, &shared_scaling_, &message))
        << message;
    ASSERT_TRUE(distributed_.ComputeScaling(
        without_, options_, {}, &distributed_scaling_, &message))
        << message;
  }

  GlobalProblem problem_, without_;
  LocalMatrixEntries local_;
  SolverOptions options_;
  SharedM shared_;
  DistributedM distributed_;
  ScalingData shared_scaling_, distributed_scaling_;
};

// Round-off of two factorizations of one well-conditioned M (a lattice of
// blocks on a floor): both solve to ~1e-15 relative.
constexpr double kSameToRoundOff = 1e-10;

TEST_F(MServicesTest, ScalingAndSolvesAgree) {
  EXPECT_LE(
      testing::RelativeDistance(distributed_scaling_.rho, shared_scaling_.rho),
      kSameToRoundOff);
  EXPECT_LE(testing::RelativeDistance(distributed_scaling_.q_free,
                                      shared_scaling_.q_free),
            kSameToRoundOff);
  EXPECT_LE(testing::RelativeDistance(distributed_.free_velocity(),
                                      shared_.free_velocity()),
            kSameToRoundOff);
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(problem_.n(), -1, 2);
  Eigen::VectorXd x_shared, x_distributed;
  const MSolveFunction shared_solve = shared_.MSolve();
  const MSolveFunction distributed_solve = distributed_.MSolve();
  ASSERT_TRUE(shared_solve && distributed_solve);
  ASSERT_TRUE(shared_solve(b, &x_shared));
  ASSERT_TRUE(distributed_solve(b, &x_distributed));
  EXPECT_LE(testing::RelativeDistance(x_distributed, x_shared),
            kSameToRoundOff);
}

TEST_F(MServicesTest, ProductsAndMeasuresAgree) {
  const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(problem_.n(), 1, -3);
  const Eigen::VectorXd r = Eigen::VectorXd::LinSpaced(problem_.m(), 0.5, 2.0);
  Eigen::VectorXd m_shared, m_distributed;
  shared_.Multiply(problem_, v, &m_shared);
  distributed_.Multiply(without_, v, &m_distributed);
  EXPECT_LE(testing::RelativeDistance(m_distributed, m_shared), 1e-14);
  const ErrorMeasures a = shared_.Measure(
      problem_, v, r, shared_.MSolve(), shared_scaling_.q_free_norm, nullptr);
  const ErrorMeasures b = distributed_.Measure(without_,
                                               v,
                                               r,
                                               distributed_.MSolve(),
                                               distributed_scaling_.q_free_norm,
                                               nullptr);
  EXPECT_NEAR(b.Worst(), a.Worst(), kSameToRoundOff * a.Worst());
  EXPECT_NEAR(b.e_dual, a.e_dual, kSameToRoundOff * a.e_dual);
}

// J's values hold all of M with SharedM and none of it with DistributedM:
// what lies outside them is nothing, or this rank's entries (summed over the
// ranks, M x; scaled, one value per local entry).
TEST_F(MServicesTest, ThePartOfMOutsideJ) {
  const int n = problem_.n();
  const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(n + problem_.m(), 2, 1);
  Eigen::VectorXd y_shared = Eigen::VectorXd::Ones(n + problem_.m());
  Eigen::VectorXd y_distributed = y_shared;
  shared_.AddProductOutsideJ(x, &y_shared);
  distributed_.AddProductOutsideJ(x, &y_distributed);
  EXPECT_EQ(y_shared, Eigen::VectorXd::Ones(n + problem_.m()));
  const Eigen::VectorXd mx = problem_.M * x.head(n);
  EXPECT_LE(testing::RelativeDistance(y_distributed.head(n),
                                      (mx.array() + 1.0).matrix()),
            1e-14);
  EXPECT_EQ(y_distributed.tail(problem_.m()),
            Eigen::VectorXd::Ones(problem_.m()));

  std::vector<double> values = {7.0};
  shared_.AppendEntriesOutsideJ(0.5, &values);
  EXPECT_EQ(values, std::vector<double>{7.0});
  distributed_.AppendEntriesOutsideJ(0.5, &values);
  ASSERT_EQ(values.size(), 1 + local_.values.size());
  for (size_t k = 0; k < local_.values.size(); ++k)
    EXPECT_EQ(values[1 + k], 0.5 * local_.values[k]);

  std::string message;
  const auto shared_solver =
      shared_.CreateJacobianSolver(options_.linear_solver, &message);
  const auto distributed_solver =
      distributed_.CreateJacobianSolver(options_.linear_solver, &message);
  ASSERT_TRUE(shared_solver && distributed_solver) << message;
  EXPECT_TRUE(shared_.JacobianSolverFits(shared_solver.get()));
  EXPECT_FALSE(shared_.JacobianSolverFits(distributed_solver.get()));
  EXPECT_FALSE(shared_.JacobianSolverFits(nullptr));
  EXPECT_TRUE(distributed_.JacobianSolverFits(distributed_solver.get()));
  EXPECT_FALSE(distributed_.JacobianSolverFits(shared_solver.get()));
  EXPECT_FALSE(shared_.JacobianBlockChanged(*shared_solver));
}

// A refused input: the same message from the interface as from the checks it
// stands for (options first, then the problem).
TEST(SharedMTest, AcceptNamesTheFirstInvalidInput) {
  SharedM shared;
  const GlobalProblem problem =
      testing::MakeLatticeOnFloor(2, 1, 1, 0.3, 0.5, 0.0);
  SolverOptions options;
  EXPECT_EQ(shared.Accept(options, problem, nullptr, nullptr), "");
  options.tolerance = -1.0;
  EXPECT_EQ(shared.Accept(options, problem, nullptr, nullptr),
            options.Validate());
  GlobalProblem broken = problem;
  broken.f[0] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(shared.Accept(SolverOptions(), broken, nullptr, nullptr),
            broken.Validate());
  EXPECT_NE(broken.Validate(), "");
}

}  // namespace
}  // namespace fcsn::internal
