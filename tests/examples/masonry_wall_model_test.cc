// Tests of the masonry low-wall generator (examples/masonry_wall,
// masonry_wall.md §6-§7): sizes against the spec, the §7 sanity checks (and
// that each of them can fail), the loading protocol, the contact kinematics and
// the theta-method step problem.
#include "masonry_wall_model.h"

#include <gtest/gtest.h>

#include <Eigen/SparseCholesky>
#include <cmath>
#include <memory>
#include <string>

#include "sanity_checks.h"

namespace fcsn::masonry {
namespace {

using Eigen::Vector3d;

std::unique_ptr<MasonryWall> Build(const WallOptions& options) {
  std::string error;
  std::unique_ptr<MasonryWall> wall = MasonryWall::Create(options, &error);
  EXPECT_NE(wall, nullptr) << error;
  return wall;
}

// The default mesh is built once: it is the spec's reference discretization.
class DefaultWallTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { wall_ = Build(WallOptions()).release(); }
  static void TearDownTestSuite() {
    delete wall_;
    wall_ = nullptr;
  }
  static MasonryWall* wall_;
};
MasonryWall* DefaultWallTest::wall_ = nullptr;

TEST_F(DefaultWallTest, SizesMatchTheSpec) {
  // §6.2, §6.6, §7: 1344 H8 elements, 2400 nodes, n = 7200 + 5, nc = 688, m =
  // 2064.
  EXPECT_EQ(wall_->num_elements(), 1344);
  EXPECT_EQ(wall_->nodes().size(), 2400u);
  EXPECT_EQ(wall_->n(), 7205);
  EXPECT_EQ(wall_->nc(), 688);
  EXPECT_EQ(wall_->m(), 2064);
  EXPECT_EQ((wall_->mu().array() == 0.83).count(), 320);
  EXPECT_EQ((wall_->mu().array() == 0.53).count(), 368);
  int per_group[kNumContactGroups] = {};
  for (const ContactPoint& c : wall_->contacts())
    ++per_group[static_cast<int>(c.group)];
  EXPECT_EQ(per_group[static_cast<int>(ContactGroup::kBottomSupport)], 160);
  EXPECT_EQ(per_group[static_cast<int>(ContactGroup::kTopSupport)], 160);
  EXPECT_EQ(per_group[static_cast<int>(ContactGroup::kBedJoint12)], 112);
  EXPECT_EQ(per_group[static_cast<int>(ContactGroup::kBedJoint23)], 112);
  EXPECT_EQ(per_group[static_cast<int>(ContactGroup::kHeadJoint)], 144);
  // §7 reference figure: nnz(H) = 10,998 with structural zeros dropped.
  EXPECT_EQ(wall_->H().nonZeros(), 10998);
}

TEST_F(DefaultWallTest, StructuralPatternOfTheIterationMatrix) {
  // §7: a block has (3nx+1)(3ny+1)(3nz+1) 9 entries; 401,544 for the blocks
  // plus the 5 diagonal entries of the top support, when no cancelled coupling
  // is dropped.
  WallOptions options;
  options.stiffness_drop_tolerance = 0.0;
  std::unique_ptr<MasonryWall> wall = Build(options);
  EXPECT_EQ(wall->iteration_matrix().nonZeros(), 401544 + 5);
  // Dropping round-off residues removes the couplings that cancel exactly on a
  // uniform mesh.
  // §7 reference figure: 286,493 once residues below 1e-12 max|K| are dropped.
  EXPECT_EQ(wall_->iteration_matrix().nonZeros(), 286493);
}

TEST_F(DefaultWallTest, StaticChecksPass) {
  for (const CheckResult& check : RunStaticChecks(*wall_)) {
    EXPECT_TRUE(check.passed) << check.message;
  }
}

TEST_F(DefaultWallTest, MassesAndSupport) {
  // Wall 1.05 x 0.1 x 0.3 m at 2000 kg/m^3 = 63 kg, 21 kg per course.
  EXPECT_NEAR(wall_->BlockMass(), 63.0, 1e-12);
  EXPECT_NEAR(wall_->CourseMass(2), 21.0, 1e-12);
  // §6.1: m_s = 3058.1 kg, inertia diag(8.82, 401.3, 403.9), c_s = (0.525,
  // 0.05, 0.355).
  const TopSupport& s = wall_->top_support();
  EXPECT_NEAR(s.mass, 3058.1, 0.05);
  EXPECT_NEAR(s.inertia.x(), 8.82, 0.005);
  EXPECT_NEAR(s.inertia.y(), 401.3, 0.05);
  EXPECT_NEAR(s.inertia.z(), 403.9, 0.05);
  EXPECT_LT((s.centre - Vector3d(0.525, 0.05, 0.355)).norm(), 1e-15);
  // §7: nodal masses 0.006 - 0.047 kg.
  const Eigen::VectorXd block_masses =
      wall_->mass_diagonal().head(wall_->num_block_dofs());
  EXPECT_NEAR(block_masses.minCoeff(), 0.0469 / 8.0, 1e-4);
  EXPECT_NEAR(block_masses.maxCoeff(), 0.046875, 1e-9);
}

TEST(MasonryWallTest, CoarseMeshSizes) {
  std::unique_ptr<MasonryWall> wall = Build(WallOptions::Coarse());
  const ExpectedSizes expected = ComputeExpectedSizes(WallOptions::Coarse());
  // 9 * 45 + 3 * 27 = 486 nodes; contacts 2 * 54 + 2 * 28 + 36.
  EXPECT_EQ(wall->n(), 3 * 486 + 5);
  EXPECT_EQ(wall->nc(), 200);
  EXPECT_EQ(expected.n, wall->n());
  EXPECT_EQ(expected.nc, wall->nc());
  for (const CheckResult& check : RunStaticChecks(*wall)) {
    EXPECT_TRUE(check.passed) << check.message;
  }
}

TEST(MasonryWallTest, RefinedMeshSizes) {
  const WallOptions options = WallOptions::Refined(2);
  EXPECT_EQ(options.elements_x, 16);
  const ExpectedSizes expected = ComputeExpectedSizes(options);
  // Full block 17 * 9 * 9 nodes, half block 9 * 9 * 9.
  EXPECT_EQ(expected.n, 3 * (9 * 17 * 9 * 9 + 3 * 9 * 9 * 9) + 5);
  EXPECT_EQ(expected.nc,
            2 * (3 * 17 * 9 + 9 * 9) + 2 * (3 * 128 + 64) + 9 * 64);
}

TEST(MasonryWallTest, InvalidOptionsAreRejected) {
  std::string error;
  WallOptions odd = WallOptions::Coarse();
  odd.elements_x = 3;
  EXPECT_EQ(MasonryWall::Create(odd, &error), nullptr);
  EXPECT_NE(error.find("elements_x"), std::string::npos) << error;
  WallOptions bad_nu;
  bad_nu.poisson_ratio = 0.5;
  EXPECT_EQ(MasonryWall::Create(bad_nu, &error), nullptr);
  EXPECT_NE(error.find("poisson_ratio"), std::string::npos) << error;
  WallOptions bad_h;
  bad_h.h = -1.0;
  EXPECT_NE(bad_h.Validate().find("h must be positive"), std::string::npos);
}

TEST(MasonryWallTest, SwapFrictionSwapsTheCoefficients) {
  WallOptions options = WallOptions::Coarse();
  options.SwapFriction();
  std::unique_ptr<MasonryWall> wall = Build(options);
  for (const ContactPoint& c : wall->contacts()) {
    const bool support = c.group == ContactGroup::kBottomSupport ||
                         c.group == ContactGroup::kTopSupport;
    EXPECT_EQ(c.mu, support ? 0.53 : 0.83);
  }
}

TEST(MasonryWallTest, FramesFollowTheSpec) {
  std::unique_ptr<MasonryWall> wall = Build(WallOptions::Coarse());
  for (const ContactPoint& c : wall->contacts()) {
    Vector3d n;
    Vector3d t1;
    switch (c.group) {
      case ContactGroup::kBottomSupport:
      case ContactGroup::kBedJoint12:
      case ContactGroup::kBedJoint23:
        n = Vector3d::UnitZ();
        t1 = Vector3d::UnitX();
        break;
      case ContactGroup::kTopSupport:
        n = -Vector3d::UnitZ();
        t1 = Vector3d::UnitX();
        break;
      case ContactGroup::kHeadJoint:
        n = -Vector3d::UnitX();
        t1 = Vector3d::UnitY();
        break;
    }
    EXPECT_EQ(c.frame.col(0), n);
    EXPECT_EQ(c.frame.col(1), t1);
    EXPECT_EQ(c.frame.col(2), n.cross(t1));
    // Zero joint thickness: the antagonist point coincides with the candidate.
    EXPECT_LT((c.x_a - c.x_b).norm(), 1e-15);
  }
}

TEST(MasonryWallTest, LoadingProtocol) {
  std::unique_ptr<MasonryWall> wall = Build(WallOptions::Coarse());
  EXPECT_EQ(wall->GravityAtStep(1), 0.0);
  EXPECT_DOUBLE_EQ(wall->GravityAtStep(10), -9.81 * 9.0 / 18.0);
  EXPECT_DOUBLE_EQ(wall->GravityAtStep(19), -9.81);
  EXPECT_DOUBLE_EQ(wall->GravityAtStep(400), -9.81);
  EXPECT_EQ(wall->ShearVelocityAt(0.021), 0.0);
  EXPECT_DOUBLE_EQ(wall->ShearVelocityAt(0.0305), -0.5e-3);
  EXPECT_DOUBLE_EQ(wall->ShearVelocityAt(0.3), -1e-3);
}

// The checks must be able to fail: each one is fed a corrupted input.
TEST(MasonryWallTest, ChecksDetectCorruptedData) {
  std::unique_ptr<MasonryWall> wall = Build(WallOptions::Coarse());

  std::vector<ContactPoint> contacts = wall->contacts();
  contacts[17].frame.col(2) *= -1.0;  // left-handed frame
  EXPECT_FALSE(CheckFramesOrthonormal(contacts).passed);
  contacts = wall->contacts();
  contacts[3].frame(0, 1) += 1e-6;
  EXPECT_FALSE(CheckFramesOrthonormal(contacts).passed);

  SparseMatrix asymmetric = wall->iteration_matrix();
  asymmetric.coeffRef(0, 1) += 1.0;
  EXPECT_FALSE(CheckSymmetricPositiveDefinite(asymmetric).passed);
  SparseMatrix indefinite = wall->iteration_matrix();
  indefinite.coeffRef(5, 5) = -1.0;
  EXPECT_FALSE(CheckSymmetricPositiveDefinite(indefinite).passed);
  // Above max_cholesky_rows only the symmetry is checked (and the skip said).
  const CheckResult skipped = CheckSymmetricPositiveDefinite(
      indefinite, 1e-14, static_cast<int>(indefinite.rows()) - 1);
  EXPECT_TRUE(skipped.passed);
  EXPECT_NE(skipped.message.find("Cholesky skipped"), std::string::npos);
  EXPECT_FALSE(CheckSymmetricPositiveDefinite(asymmetric, 1e-14, 0).passed);

  SparseMatrix H = wall->H();
  const int head = wall->nc() - 1;  // a head-joint contact
  for (SparseMatrix::InnerIterator it(H, 3 * head + 1); it; ++it)
    it.valueRef() *= -1.0;
  EXPECT_FALSE(CheckHConsistentWithFrames(*wall, H).passed);
  SparseMatrix H_top = wall->H();
  const int top = 60;  // a top-support contact: its support rotation rows
  ASSERT_EQ(wall->contacts()[top].group, ContactGroup::kTopSupport);
  H_top.coeffRef(wall->top_support_dof() + 4, 3 * top) += 0.01;
  EXPECT_FALSE(CheckHConsistentWithFrames(*wall, H_top).passed);

  SparseMatrix K = wall->stiffness();
  K.coeffRef(10, 10) *= 1.001;
  EXPECT_FALSE(CheckRigidBodyModes(*wall, K).passed);

  Eigen::VectorXd mass = wall->mass_diagonal();
  mass[0] *= 1.5;
  EXPECT_FALSE(CheckTotalMass(*wall, mass).passed);

  GlobalProblem problem;
  wall->BuildStepProblem(&problem);
  EXPECT_TRUE(CheckSizes(wall->options(), problem).passed);
  EXPECT_FALSE(CheckSizes(WallOptions(), problem).passed);
}

TEST(MasonryWallTest, FirstStepAtRestIsHomogeneous) {
  std::unique_ptr<MasonryWall> wall = Build(WallOptions::Coarse());
  GlobalProblem problem;
  wall->BuildStepProblem(&problem);
  // Step 1: g = 0, V_x = 0, at rest: f = 0 and w = 0.
  EXPECT_EQ(problem.f.norm(), 0.0);
  EXPECT_EQ(problem.w.norm(), 0.0);
  EXPECT_EQ(problem.G.cols(), 0);
}

TEST(MasonryWallTest, GravityLoadOfAStep) {
  std::unique_ptr<MasonryWall> wall = Build(WallOptions::Coarse());
  Solution rest;
  rest.v = Eigen::VectorXd::Zero(wall->n());
  rest.r = Eigen::VectorXd::Zero(wall->m());
  std::string error;
  for (int k = 1; k <= 9; ++k)
    ASSERT_TRUE(wall->Advance(rest, &error)) << error;
  GlobalProblem problem;
  wall->BuildStepProblem(&problem);  // step 10
  const double h = wall->options().h;
  const double g = wall->GravityAtStep(10);
  double fz = 0.0;
  for (int i = 2; i < wall->num_block_dofs(); i += 3) fz += problem.f[i];
  EXPECT_NEAR(fz, h * g * 63.0, 1e-12);
  EXPECT_NEAR(problem.f[wall->top_support_dof() + 1],
              h * g * wall->top_support().mass,
              1e-9);
}

// A rigid lift of the whole wall and the top support at 1 m/s opens only the
// bottom contacts: after one step the bottom gaps are theta h and the predicted
// gap / h of the next step is 1.
TEST(MasonryWallTest, RigidLiftOpensTheBottomContacts) {
  std::unique_ptr<MasonryWall> wall = Build(WallOptions::Coarse());
  Solution lift;
  lift.v = Eigen::VectorXd::Zero(wall->n());
  for (int i = 2; i < wall->num_block_dofs(); i += 3) lift.v[i] = 1.0;
  lift.v[wall->top_support_dof() + 1] = 1.0;
  lift.r = Eigen::VectorXd::Zero(wall->m());
  std::string error;
  ASSERT_TRUE(wall->Advance(lift, &error)) << error;
  const double h = wall->options().h;
  const double theta = wall->options().theta;
  const Eigen::VectorXd gaps = wall->Gaps();
  GlobalProblem problem;
  wall->BuildStepProblem(&problem);
  for (int a = 0; a < wall->nc(); ++a) {
    const bool bottom =
        wall->contacts()[a].group == ContactGroup::kBottomSupport;
    EXPECT_NEAR(gaps[a], bottom ? theta * h : 0.0, 1e-15) << a;
    EXPECT_NEAR(problem.w[3 * a], bottom ? 1.0 : 0.0, 1e-12) << a;
    // u = H^T v + w: the lifted contacts separate at 1 m/s, the others do not
    // move.
    const double u_n = problem.H.col(3 * a).dot(lift.v);
    EXPECT_NEAR(u_n, bottom ? 1.0 : 0.0, 1e-12) << a;
  }
}

// The prescribed top-support velocity appears in w_T of the top contacts only:
// w_T1 = -V_x.
TEST(MasonryWallTest, PrescribedShearVelocityEntersW) {
  WallOptions options = WallOptions::Coarse();
  options.shear_start_time = 0.0;
  options.shear_ramp_end_time = 1e-4;
  std::unique_ptr<MasonryWall> wall = Build(options);
  GlobalProblem problem;
  wall->BuildStepProblem(&problem);
  for (int a = 0; a < wall->nc(); ++a) {
    const bool top = wall->contacts()[a].group == ContactGroup::kTopSupport;
    EXPECT_EQ(problem.w[3 * a], 0.0);
    EXPECT_DOUBLE_EQ(problem.w[3 * a + 1], top ? -options.shear_velocity : 0.0);
    EXPECT_EQ(problem.w[3 * a + 2], 0.0);
  }
}

// Without contact impulses, the step solution v = M^-1 f must satisfy the
// theta-method
//   M (v_k - v_{k-1}) = h [theta F_k + (1-theta) F_{k-1}],  F = F_ext - K q -
//   beta K v,
// with q_k = q_{k-1} + h (theta v_k + (1-theta) v_{k-1}), on the block dofs.
TEST(MasonryWallTest, StepProblemIsTheThetaMethod) {
  std::unique_ptr<MasonryWall> wall = Build(WallOptions::Coarse());
  const int nb = wall->num_block_dofs();
  Solution x;
  x.r = Eigen::VectorXd::Zero(wall->m());
  x.v = Eigen::VectorXd::LinSpaced(wall->n(), -1e-3, 2e-3);
  std::string error;
  for (int k = 0; k < 12; ++k) ASSERT_TRUE(wall->Advance(x, &error)) << error;
  const Eigen::VectorXd q_prev = wall->displacement();
  const Eigen::VectorXd v_prev = wall->velocity();
  GlobalProblem problem;
  wall->BuildStepProblem(&problem);
  const double g = wall->GravityAtStep(wall->step() + 1);
  Eigen::SimplicialLDLT<SparseMatrix> ldlt(problem.M);
  ASSERT_EQ(ldlt.info(), Eigen::Success);
  x.v = ldlt.solve(problem.f);
  ASSERT_TRUE(wall->Advance(x, &error)) << error;
  const Eigen::VectorXd& q = wall->displacement();
  const Eigen::VectorXd& v = wall->velocity();

  const WallOptions& o = wall->options();
  const SparseMatrix& K = wall->stiffness();
  Eigen::VectorXd f_ext = Eigen::VectorXd::Zero(nb);
  for (int i = 2; i < nb; i += 3) f_ext[i] = g * wall->mass_diagonal()[i];
  const Eigen::VectorXd F_now =
      f_ext - K * (q.head(nb) + o.rayleigh_beta * v.head(nb));
  const Eigen::VectorXd F_prev =
      f_ext - K * (q_prev.head(nb) + o.rayleigh_beta * v_prev.head(nb));
  const Eigen::VectorXd lhs =
      wall->mass_diagonal().head(nb).cwiseProduct(v.head(nb) - v_prev.head(nb));
  const Eigen::VectorXd rhs =
      o.h * (o.theta * F_now + (1.0 - o.theta) * F_prev);
  EXPECT_LT((lhs - rhs).norm(), 1e-10 * rhs.norm())
      << (lhs - rhs).norm() << " " << rhs.norm();
  // Top support: free flight under gravity.
  const int s = wall->top_support_dof();
  EXPECT_NEAR(v[s + 1] - v_prev[s + 1], o.h * g, 1e-15);
}

TEST(MasonryWallTest, AdvanceRejectsWrongSizes) {
  std::unique_ptr<MasonryWall> wall = Build(WallOptions::Coarse());
  Solution bad;
  bad.v = Eigen::VectorXd::Zero(3);
  bad.r = Eigen::VectorXd::Zero(wall->m());
  std::string error;
  EXPECT_FALSE(wall->Advance(bad, &error));
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(wall->step(), 0);
}

TEST(MasonryWallTest, FclibNames) {
  const std::array<int, 50>& counters = FclibCollectionCounters();
  EXPECT_EQ(counters.front(), 1);
  EXPECT_EQ(counters.back(), 498);
  EXPECT_TRUE(std::is_sorted(counters.begin(), counters.end()));
  EXPECT_EQ(FclibFileName(14, 624, 1), "LowWall_FEM-i00014-624-00001.hdf5");
}

}  // namespace
}  // namespace fcsn::masonry
