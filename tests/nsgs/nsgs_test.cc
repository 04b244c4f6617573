// Tests of nsgs/nsgs.h: NSGS with both local solvers on every shared FCLib
// problem (judged by the error measures, cross-checked on v and H r), on a
// generated rigid box resting or sliding on a plane (analytic answer), and the
// stopping paths (exact guess, time limit, invalid options).
#include "nsgs/nsgs.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "fcsn/error_measures.h"
#include "fcsn/fclib_io.h"
#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "minverse/delassus.h"
#include "shared_problem.h"
#include "test_util.h"

namespace fcsn::internal {
namespace {

constexpr double kTolerance = 1e-6;
// Wall-clock budget per solve; the largest shared problem needs well under a
// second.
constexpr std::chrono::seconds kBudget(20);

std::chrono::steady_clock::time_point Deadline() {
  return std::chrono::steady_clock::now() + kBudget;
}

using testing::ReadSharedProblem;

// Reference v of reference_solutions.json (Siconos 4.4, checked independently);
// empty if the problem has none (rigid hyperstatic problems).
Eigen::VectorXd ReferenceVelocity(const std::string& file, bool symmetrized) {
  std::ifstream in(testing::SharedProblem("reference_solutions.json"));
  const nlohmann::json all = nlohmann::json::parse(in);
  const std::string key =
      file + (symmetrized ? "|M=symmetrized" : "|M=as_stored");
  if (!all["problems"].contains(key)) return Eigen::VectorXd();
  const std::vector<double> v =
      all["problems"][key]["v"].get<std::vector<double>>();
  return Eigen::Map<const Eigen::VectorXd>(v.data(),
                                           static_cast<int>(v.size()));
}

struct NsgsCase {
  std::string file;
  LocalSolverType local_solver;
};

// Readable parameter in gtest messages.
void PrintTo(const NsgsCase& c, std::ostream* os) {
  *os << c.file << " with " << ToString(c.local_solver);
}

std::string CaseName(const ::testing::TestParamInfo<NsgsCase>& info) {
  return testing::TestNameFromFile(info.param.file) +
         (info.param.local_solver == LocalSolverType::kAlartCurnierNewton
              ? "_AC"
              : "_FPVIUPK");
}

class NsgsSharedProblemTest : public ::testing::TestWithParam<NsgsCase> {};

TEST_P(NsgsSharedProblemTest, ReachesTolerance) {
  const GlobalProblem problem = ReadSharedProblem(GetParam().file);
  const auto start = std::chrono::steady_clock::now();
  Delassus delassus;
  std::string error;
  ASSERT_TRUE(delassus.Compute(problem, &error)) << error;
  NsgsOptions options;
  options.local_solver = GetParam().local_solver;
  Eigen::VectorXd r = Eigen::VectorXd::Zero(problem.m());
  Eigen::VectorXd v;
  int checks = 0;
  const NsgsResult result = RunNsgs(problem,
                                    delassus,
                                    options,
                                    kTolerance,
                                    options.max_sweeps,
                                    Deadline(),
                                    &r,
                                    &v,
                                    [&](int, const ErrorMeasures&) {
                                      ++checks;
                                      return true;
                                    });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::cout << "[ nsgs ] " << GetParam().file << " "
            << ToString(GetParam().local_solver) << ": "
            << ToString(result.status) << ", " << result.sweeps << " sweeps, "
            << result.errors.Describe() << ", " << seconds << " s\n";
  ASSERT_EQ(result.status, SolverStatus::kConverged) << result.message;
  EXPECT_EQ(checks, result.error_checks);

  // The returned (r, v) is judged independently of the solver.
  const ErrorMeasures errors = ComputeErrorMeasures(
      problem, v, r, delassus.m_solve(), delassus.q_free_norm());
  EXPECT_LE(errors.Worst(), kTolerance);
  EXPECT_DOUBLE_EQ(errors.Worst(), result.errors.Worst());

  // Cross-check of v against the reference where one exists (unique v on these
  // FEM problems); at the tolerance v agrees to a few digits: 1e-3, except
  // NSGS-FP-VI-UPK on the badly scaled example, which stops just below the
  // tolerance (e_comp 1.8e-7, AC goes to round-off) with v within 2e-3.
  const Eigen::VectorXd v_reference =
      ReferenceVelocity(GetParam().file, GetParam().file == "CubeH8.hdf5");
  if (v_reference.size() == v.size()) {
    const bool loose =
        GetParam().local_solver == LocalSolverType::kFixedPointViUpk &&
        GetParam().file == "GFC3D_Example00_badly_scaled.hdf5";
    EXPECT_LE(testing::RelativeDistance(v, v_reference), loose ? 1e-2 : 1e-3);
  }
}

std::vector<NsgsCase> AllCases() {
  std::vector<NsgsCase> cases;
  for (const std::string file : testing::kSharedProblemFiles) {
    cases.push_back({file, LocalSolverType::kAlartCurnierNewton});
    cases.push_back({file, LocalSolverType::kFixedPointViUpk});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(SharedProblems,
                         NsgsSharedProblemTest,
                         ::testing::ValuesIn(AllCases()),
                         CaseName);

// Box_Stacks is rigid and hyperstatic: r is not unique, v and H r are. Both
// local solvers, driven to a tight tolerance, agree on them.
TEST(NsgsTest, BoxStacksLocalSolversAgreeOnVelocityAndForces) {
  const GlobalProblem problem = ReadSharedProblem("Box_Stacks-i0122-82-5.hdf5");
  Delassus delassus;
  std::string error;
  ASSERT_TRUE(delassus.Compute(problem, &error)) << error;
  Eigen::VectorXd r_ac = Eigen::VectorXd::Zero(problem.m());
  Eigen::VectorXd r_fp = r_ac;
  Eigen::VectorXd v_ac;
  Eigen::VectorXd v_fp;
  NsgsOptions options;
  options.local_solver = LocalSolverType::kAlartCurnierNewton;
  const NsgsResult ac = RunNsgs(
      problem, delassus, options, 1e-10, 100000, Deadline(), &r_ac, &v_ac);
  options.local_solver = LocalSolverType::kFixedPointViUpk;
  const NsgsResult fp = RunNsgs(
      problem, delassus, options, 1e-10, 100000, Deadline(), &r_fp, &v_fp);
  ASSERT_EQ(ac.status, SolverStatus::kConverged) << ac.message;
  ASSERT_EQ(fp.status, SolverStatus::kConverged) << fp.message;
  EXPECT_LE(testing::RelativeDistance(v_ac, v_fp), 1e-6);
  EXPECT_LE(testing::RelativeDistance(problem.H * r_ac, problem.H * r_fp),
            1e-6);
}

// A rigid box (6 dof: translation, rotation about the center of mass) resting
// on the plane z = 0 on its 4 bottom corners, one time step h of gravity from
// rest, plus a horizontal impulse push * h along x applied at the center of
// mass. Contact frames: N = e_z, T1 = e_x, T2 = e_y; the column of H for a
// world direction d at the corner p (relative to the center) is (d, p x d).
struct Box {
  double mass = 2.0;
  Eigen::Vector3d half = Eigen::Vector3d(0.5, 0.3, 0.2);
  double h = 0.01;
  double gravity = 9.81;
  double mu = 0.3;
};

GlobalProblem BoxOnPlane(const Box& box, double push) {
  const Eigen::Vector3d& e = box.half;
  Eigen::VectorXd mass(6);
  mass << box.mass, box.mass, box.mass,
      box.mass * (e.y() * e.y() + e.z() * e.z()) / 3.0,
      box.mass * (e.x() * e.x() + e.z() * e.z()) / 3.0,
      box.mass * (e.x() * e.x() + e.y() * e.y()) / 3.0;
  GlobalProblem problem;
  problem.M = Eigen::MatrixXd(mass.asDiagonal()).sparseView();
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(6, 12);
  const Eigen::Matrix3d frame = (Eigen::Matrix3d() << Eigen::Vector3d::UnitZ(),
                                 Eigen::Vector3d::UnitX(),
                                 Eigen::Vector3d::UnitY())
                                    .finished();
  int a = 0;
  for (double sx : {-1.0, 1.0}) {
    for (double sy : {-1.0, 1.0}) {
      const Eigen::Vector3d p(sx * e.x(), sy * e.y(), -e.z());
      for (int j = 0; j < 3; ++j) {
        const Eigen::Vector3d d = frame.col(j);
        H.block<3, 1>(0, 3 * a + j) = d;
        H.block<3, 1>(3, 3 * a + j) = p.cross(d);
      }
      ++a;
    }
  }
  problem.H = H.sparseView();
  problem.f = Eigen::VectorXd::Zero(6);
  problem.f[0] = push * box.h;
  problem.f[2] = -box.mass * box.gravity * box.h;
  problem.w = Eigen::VectorXd::Zero(12);
  problem.mu = Eigen::VectorXd::Constant(4, box.mu);
  return problem;
}

struct BoxSolution {
  NsgsResult result;
  Eigen::VectorXd v;
  Eigen::VectorXd r;
};

BoxSolution SolveBox(const GlobalProblem& problem,
                     LocalSolverType local_solver) {
  Delassus delassus;
  std::string error;
  EXPECT_TRUE(delassus.Compute(problem, &error)) << error;
  NsgsOptions options;
  options.local_solver = local_solver;
  BoxSolution out;
  out.r = Eigen::VectorXd::Zero(problem.m());
  out.result = RunNsgs(
      problem, delassus, options, 1e-10, 100000, Deadline(), &out.r, &out.v);
  // At rest the recovered v = M^-1 (H r + f) carries round-off of the order of
  // the criterion's floor: the sweeps may end at their round-off limit, or
  // (FP-VI-UPK, whose steps keep adapting) at the sweep budget; the tests
  // check the physics of the returned point.
  EXPECT_TRUE(out.result.status == SolverStatus::kConverged ||
              out.result.status == SolverStatus::kRoundOffLimit ||
              out.result.status == SolverStatus::kMaxIterations)
      << out.result.message;
  return out;
}

class NsgsRigidBoxTest : public ::testing::TestWithParam<LocalSolverType> {};

TEST_P(NsgsRigidBoxTest, RestingBoxCarriesItsWeight) {
  const Box box;
  const GlobalProblem problem = BoxOnPlane(box, 0.0);
  const BoxSolution s = SolveBox(problem, GetParam());
  const double weight_impulse = box.mass * box.gravity * box.h;
  double normal_sum = 0.0;
  for (int a = 0; a < 4; ++a) normal_sum += s.r[3 * a];
  EXPECT_NEAR(normal_sum, weight_impulse, 1e-8 * weight_impulse);
  EXPECT_LE(s.v.norm(), 1e-8);
  // Equilibrium of the whole box: H r = -f (forces and moments).
  EXPECT_LE((problem.H * s.r + problem.f).norm(), 1e-8 * weight_impulse);
}

TEST_P(NsgsRigidBoxTest, GentlePushSticks) {
  const Box box;
  const double push = 0.5 * box.mu * box.mass * box.gravity;
  const GlobalProblem problem = BoxOnPlane(box, push);
  const BoxSolution s = SolveBox(problem, GetParam());
  double friction_sum = 0.0;
  for (int a = 0; a < 4; ++a) friction_sum += s.r[3 * a + 1];
  EXPECT_NEAR(friction_sum, -push * box.h, 1e-8 * push * box.h);
  EXPECT_LE(s.v.norm(), 1e-8);
}

TEST_P(NsgsRigidBoxTest, HardPushSlides) {
  const Box box;
  const double weight = box.mass * box.gravity;
  const double push = 2.0 * box.mu * weight;
  const GlobalProblem problem = BoxOnPlane(box, push);
  const BoxSolution s = SolveBox(problem, GetParam());
  double normal_sum = 0.0;
  double friction_sum = 0.0;
  for (int a = 0; a < 4; ++a) {
    normal_sum += s.r[3 * a];
    friction_sum += s.r[3 * a + 1];
  }
  EXPECT_NEAR(normal_sum, weight * box.h, 1e-8 * weight * box.h);
  EXPECT_NEAR(friction_sum, -box.mu * weight * box.h, 1e-8 * weight * box.h);
  // Slides along x at (push - mu m g) h / m, without lifting or turning (mu *
  // half height is below the half length, so the box does not tip).
  Eigen::VectorXd v_expected = Eigen::VectorXd::Zero(6);
  v_expected[0] = (push - box.mu * weight) * box.h / box.mass;
  EXPECT_LE((s.v - v_expected).norm(), 1e-8 * v_expected.norm());
}

INSTANTIATE_TEST_SUITE_P(
    BothLocalSolvers,
    NsgsRigidBoxTest,
    ::testing::Values(LocalSolverType::kAlartCurnierNewton,
                      LocalSolverType::kFixedPointViUpk),
    [](const ::testing::TestParamInfo<LocalSolverType>& info) {
      return std::string(info.param == LocalSolverType::kAlartCurnierNewton
                             ? "AlartCurnier"
                             : "FixedPointViUpk");
    });

// CubeH8 with M taken as stored (upper triangle, non-symmetric: sparse LU
// path): the contact slides, as in Siconos' reference solution.
TEST(NsgsTest, CubeH8AsStoredMatchesReference) {
  GlobalProblem problem;
  std::string error;
  ReadOptions read_options;
  read_options.m_storage = MStorage::kAsStored;
  ASSERT_TRUE(ReadGlobalProblem(testing::SharedProblem("CubeH8.hdf5"),
                                read_options,
                                &problem,
                                nullptr,
                                &error))
      << error;
  Delassus delassus;
  ASSERT_TRUE(delassus.Compute(problem, &error)) << error;
  EXPECT_EQ(delassus.factorization_type(), MFactorizationType::kSparseLu);
  for (LocalSolverType local_solver : {LocalSolverType::kAlartCurnierNewton,
                                       LocalSolverType::kFixedPointViUpk}) {
    NsgsOptions options;
    options.local_solver = local_solver;
    Eigen::VectorXd r = Eigen::VectorXd::Zero(problem.m());
    Eigen::VectorXd v;
    const NsgsResult result =
        RunNsgs(problem, delassus, options, 1e-10, 100000, Deadline(), &r, &v);
    ASSERT_EQ(result.status, SolverStatus::kConverged) << result.message;
    const Eigen::VectorXd v_reference = ReferenceVelocity("CubeH8.hdf5", false);
    ASSERT_EQ(v_reference.size(), v.size());
    EXPECT_LE(testing::RelativeDistance(v, v_reference), 1e-8);
  }
}

TEST(NsgsTest, ExactGuessTakesNoSweep) {
  const GlobalProblem problem = ReadSharedProblem("GFC3D_TwoRods1.hdf5");
  Delassus delassus;
  std::string error;
  ASSERT_TRUE(delassus.Compute(problem, &error)) << error;
  NsgsSolver solver(delassus);
  Eigen::VectorXd r = Eigen::VectorXd::Zero(problem.m());
  Eigen::VectorXd v;
  const NsgsOptions options;
  ASSERT_EQ(
      solver.Run(problem, options, 1e-10, 100000, Deadline(), &r, &v).status,
      SolverStatus::kConverged);
  const NsgsResult again =
      solver.Run(problem, options, 1e-9, 100000, Deadline(), &r, &v);
  EXPECT_EQ(again.status, SolverStatus::kConverged);
  EXPECT_EQ(again.sweeps, 0);
}

TEST(NsgsTest, PastDeadlineStopsWithConsistentVelocity) {
  const GlobalProblem problem = ReadSharedProblem("CubeH8.hdf5");
  Delassus delassus;
  std::string error;
  ASSERT_TRUE(delassus.Compute(problem, &error)) << error;
  Eigen::VectorXd r = Eigen::VectorXd::Zero(problem.m());
  Eigen::VectorXd v;
  const NsgsResult result =
      RunNsgs(problem,
              delassus,
              NsgsOptions(),
              1e-10,
              100,
              std::chrono::steady_clock::now() - std::chrono::seconds(1),
              &r,
              &v);
  EXPECT_EQ(result.status, SolverStatus::kTimeLimit);
  EXPECT_EQ(result.sweeps, 0);
  ASSERT_EQ(v.size(), problem.n());
  Eigen::VectorXd v_expected;
  ASSERT_TRUE(delassus.RecoverVelocity(problem, r, &v_expected));
  EXPECT_EQ(v, v_expected);
}

TEST(NsgsTest, SweepBudgetEndsWithMaxIterations) {
  const GlobalProblem problem = ReadSharedProblem("Box_Stacks-i0122-82-5.hdf5");
  Delassus delassus;
  std::string error;
  ASSERT_TRUE(delassus.Compute(problem, &error)) << error;
  Eigen::VectorXd r = Eigen::VectorXd::Zero(problem.m());
  Eigen::VectorXd v;
  const NsgsResult result =
      RunNsgs(problem, delassus, NsgsOptions(), 1e-14, 3, Deadline(), &r, &v);
  EXPECT_EQ(result.status, SolverStatus::kMaxIterations);
  EXPECT_EQ(result.sweeps, 3);
  const ErrorMeasures errors = ComputeErrorMeasures(
      problem, v, r, delassus.m_solve(), delassus.q_free_norm());
  EXPECT_DOUBLE_EQ(errors.Worst(), result.errors.Worst());
}

TEST(NsgsTest, RejectsInvalidOptionsAndMismatchedData) {
  const GlobalProblem problem = ReadSharedProblem("GFC3D_Example0.hdf5");
  Delassus delassus;
  std::string error;
  ASSERT_TRUE(delassus.Compute(problem, &error)) << error;
  Eigen::VectorXd r;
  Eigen::VectorXd v;
  NsgsOptions options;
  options.error_check_frequency = 0;
  EXPECT_EQ(
      RunNsgs(problem, delassus, options, 1e-8, 10, Deadline(), &r, &v).status,
      SolverStatus::kInvalidInput);
  const Delassus empty;
  EXPECT_EQ(RunNsgs(problem, empty, NsgsOptions(), 1e-8, 10, Deadline(), &r, &v)
                .status,
            SolverStatus::kInvalidInput);
}

TEST(NsgsTest, ZeroContactsConvergeAtOnce) {
  GlobalProblem problem;
  problem.M = Eigen::Matrix3d::Identity().sparseView();
  problem.H.resize(3, 0);
  problem.f = Eigen::Vector3d(1.0, 2.0, 3.0);
  problem.w.resize(0);
  problem.mu.resize(0);
  Delassus delassus;
  std::string error;
  ASSERT_TRUE(delassus.Compute(problem, &error)) << error;
  Eigen::VectorXd r;
  Eigen::VectorXd v;
  const NsgsResult result =
      RunNsgs(problem, delassus, NsgsOptions(), 1e-10, 10, Deadline(), &r, &v);
  EXPECT_EQ(result.status, SolverStatus::kConverged);
  EXPECT_EQ(v, problem.f);
}

}  // namespace
}  // namespace fcsn::internal
