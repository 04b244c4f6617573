// sanity_checks.cc: shared/docs/masonry_wall.md §7 checks.
#include "sanity_checks.h"

#include <Eigen/SparseCholesky>
#include <algorithm>
#include <cmath>
#include <sstream>

namespace fcsn::masonry {

namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

CheckResult Result(bool passed, double value, const std::string& message) {
  CheckResult result;
  result.passed = passed;
  result.value = value;
  result.message = message;
  return result;
}

double MaxAbs(const SparseMatrix& A) {
  return A.nonZeros() == 0 ? 0.0 : A.coeffs().cwiseAbs().maxCoeff();
}

// A rigid velocity field v(x) = t + omega x (x - centre).
struct RigidMotion {
  Vector3d t = Vector3d::Zero();
  Vector3d omega = Vector3d::Zero();
  Vector3d centre = Vector3d::Zero();
  Vector3d At(const Vector3d& x) const { return t + omega.cross(x - centre); }
};

void SetBlockMotion(const MasonryWall& wall,
                    const Block& block,
                    const RigidMotion& motion,
                    Eigen::VectorXd* v) {
  for (int k = 0; k <= block.nz; ++k) {
    for (int j = 0; j <= block.ny; ++j) {
      for (int i = 0; i <= block.nx; ++i) {
        const int node = block.Node(i, j, k);
        v->segment<3>(3 * node) = motion.At(wall.nodes()[node]);
      }
    }
  }
}

std::vector<RigidMotion> SixRigidModes(const Vector3d& centre) {
  std::vector<RigidMotion> modes;
  for (int d = 0; d < 3; ++d) {
    RigidMotion translation;
    translation.t = Vector3d::Unit(d);
    modes.push_back(translation);
    RigidMotion rotation;
    rotation.omega = Vector3d::Unit(d);
    rotation.centre = centre;
    modes.push_back(rotation);
  }
  return modes;
}

// The largest |H^T v - R^T (v_A - v_B)| met so far over contacts and rigid
// motions (NaN counts as the largest), and where.
struct FrameMismatch {
  double worst = 0.0;
  int contact = -1;
  std::string motion;
};

// One rigid motion (blocks: block_motion; top support: support_motion; the
// bottom support at rest) as v: compares H^T v with R^T (v_A - v_B) at every
// contact.
void CompareWithFrames(const MasonryWall& wall,
                       const SparseMatrix& H,
                       const Eigen::VectorXd& v,
                       const std::vector<RigidMotion>& block_motion,
                       const RigidMotion& support_motion,
                       const std::string& name,
                       FrameMismatch* m) {
  const std::vector<ContactPoint>& contacts = wall.contacts();
  const Eigen::VectorXd u = H.transpose() * v;
  for (int a = 0; a < wall.nc(); ++a) {
    const ContactPoint& c = contacts[a];
    const Vector3d va = block_motion[c.block_a].At(c.x_a);
    const Vector3d vb = c.block_b >= 0 ? block_motion[c.block_b].At(c.x_b)
                                       : (c.group == ContactGroup::kTopSupport
                                              ? support_motion.At(c.x_b)
                                              : Vector3d::Zero());
    const Vector3d expected = c.frame.transpose() * (va - vb);
    const double error = (u.segment<3>(3 * a) - expected).cwiseAbs().maxCoeff();
    if (!(error <= m->worst)) {
      m->worst = error;
      m->contact = a;
      m->motion = name;
    }
  }
}

// The six rigid modes of each block, one block at a time.
void CompareBlockModes(const MasonryWall& wall,
                       const SparseMatrix& H,
                       FrameMismatch* m) {
  const int num_blocks = static_cast<int>(wall.blocks().size());
  const RigidMotion none;
  for (int b = 0; b < num_blocks; ++b) {
    const Block& block = wall.blocks()[b];
    for (const RigidMotion& mode :
         SixRigidModes(0.5 * (block.lower + block.upper))) {
      std::vector<RigidMotion> motion(num_blocks);
      motion[b] = mode;
      Eigen::VectorXd v = Eigen::VectorXd::Zero(wall.n());
      SetBlockMotion(wall, block, mode, &v);
      CompareWithFrames(
          wall, H, v, motion, none, "block " + std::to_string(b), m);
    }
  }
}

// Free top-support dofs (v_y, v_z, omega_x, omega_y, omega_z); v_x is
// prescribed.
void CompareTopSupportModes(const MasonryWall& wall,
                            const SparseMatrix& H,
                            FrameMismatch* m) {
  const std::vector<RigidMotion> at_rest(wall.blocks().size());
  for (int d = 0; d < 5; ++d) {
    RigidMotion motion;
    motion.centre = wall.top_support().centre;
    if (d < 2) {
      motion.t = Vector3d::Unit(d + 1);
    } else {
      motion.omega = Vector3d::Unit(d - 2);
    }
    Eigen::VectorXd v = Eigen::VectorXd::Zero(wall.n());
    v[wall.top_support_dof() + d] = 1.0;
    CompareWithFrames(
        wall, H, v, at_rest, motion, "top support dof " + std::to_string(d), m);
  }
}

}  // namespace

ExpectedSizes ComputeExpectedSizes(const WallOptions& o) {
  // 3 courses of 4 blocks: 9 full (nx) and 3 half (nx / 2) blocks, no shared
  // nodes.
  const int nx = o.elements_x;
  const int hx = o.elements_x / 2;
  const int ny = o.elements_y;
  const int nz = o.elements_z;
  ExpectedSizes sizes;
  const int nodes =
      9 * (nx + 1) * (ny + 1) * (nz + 1) + 3 * (hx + 1) * (ny + 1) * (nz + 1);
  sizes.n = 3 * nodes + 5;
  // Per support course: 3 full and 1 half face; per bed joint likewise (upper
  // course); 3 head joints per course with ny x nz face elements.
  sizes.support_contacts = 2 * (3 * (nx + 1) * (ny + 1) + (hx + 1) * (ny + 1));
  const int bed = 2 * (3 * nx * ny + hx * ny);
  const int head = 9 * ny * nz;
  sizes.nc = sizes.support_contacts + bed + head;
  sizes.m = 3 * sizes.nc;
  return sizes;
}

CheckResult CheckSizes(const WallOptions& options, const GlobalProblem& p) {
  const ExpectedSizes e = ComputeExpectedSizes(options);
  std::ostringstream out;
  out << "n = " << p.n() << " (expected " << e.n << "), nc = " << p.nc()
      << " (expected " << e.nc << "), m = " << p.m() << " (expected " << e.m
      << ")";
  bool ok = p.n() == e.n && p.nc() == e.nc && p.m() == e.m &&
            p.M.cols() == e.n && p.H.rows() == e.n && p.f.size() == e.n &&
            p.w.size() == e.m;
  const int support =
      static_cast<int>((p.mu.array() == options.mu_block_support).count());
  if (options.mu_block_support != options.mu_block_block) {
    out << ", " << support << " contacts with mu_block_support (expected "
        << e.support_contacts << ")";
    ok = ok && support == e.support_contacts;
  }
  if (!ok) out << ": MISMATCH";
  return Result(ok, p.n(), out.str());
}

CheckResult CheckSymmetricPositiveDefinite(const SparseMatrix& M,
                                           double symmetry_tolerance,
                                           int max_cholesky_rows) {
  if (M.rows() != M.cols() || M.rows() == 0) {
    return Result(false, 0.0, "M is empty or not square");
  }
  const SparseMatrix Mt = M.transpose();
  const SparseMatrix diff = M - Mt;
  const double asymmetry = MaxAbs(diff) / std::max(MaxAbs(M), 1e-300);
  std::ostringstream out;
  out << "||M - M^T||_max / ||M||_max = " << asymmetry;
  if (!(asymmetry <= symmetry_tolerance)) {
    out << " > " << symmetry_tolerance << ": not symmetric";
    return Result(false, asymmetry, out.str());
  }
  if (M.rows() > max_cholesky_rows) {
    out << "; Cholesky skipped (n > " << max_cholesky_rows << ")";
    return Result(true, asymmetry, out.str());
  }
  Eigen::SimplicialLLT<SparseMatrix, Eigen::Lower> llt(M);
  if (llt.info() != Eigen::Success) {
    out << "; Cholesky failed: not positive definite";
    return Result(false, asymmetry, out.str());
  }
  out << "; Cholesky succeeded";
  return Result(true, asymmetry, out.str());
}

CheckResult CheckFramesOrthonormal(const std::vector<ContactPoint>& contacts,
                                   double tolerance) {
  double worst = 0.0;
  int worst_contact = -1;
  for (int a = 0; a < static_cast<int>(contacts.size()); ++a) {
    const Matrix3d& R = contacts[a].frame;
    const double error = std::max(
        (R.transpose() * R - Matrix3d::Identity()).cwiseAbs().maxCoeff(),
        std::abs(R.determinant() - 1.0));
    if (worst_contact < 0 || !(error <= worst)) {  // NaN counts as the worst
      worst = error;
      worst_contact = a;
    }
  }
  std::ostringstream out;
  out << "max ||R^T R - I||, |det R - 1| = " << worst << " (contact "
      << worst_contact << ")";
  const bool ok = worst <= tolerance;
  if (!ok) out << " > " << tolerance;
  return Result(ok, worst, out.str());
}

CheckResult CheckHConsistentWithFrames(const MasonryWall& wall,
                                       const SparseMatrix& H,
                                       double tolerance) {
  if (H.rows() != wall.n() || H.cols() != wall.m()) {
    return Result(false, 0.0, "H has the wrong size");
  }
  FrameMismatch m;
  CompareBlockModes(wall, H, &m);
  CompareTopSupportModes(wall, H, &m);
  std::ostringstream out;
  out << "max |H^T v - R^T (v_A - v_B)| over rigid motions = " << m.worst;
  const bool ok = m.worst <= tolerance;
  if (!ok)
    out << " > " << tolerance << " (contact " << m.contact << ", " << m.motion
        << ")";
  return Result(ok, m.worst, out.str());
}

CheckResult CheckRigidBodyModes(const MasonryWall& wall,
                                const SparseMatrix& K,
                                double tolerance) {
  if (K.rows() != wall.num_block_dofs() || K.cols() != wall.num_block_dofs()) {
    return Result(false, 0.0, "K has the wrong size");
  }
  const double k_max = std::max(MaxAbs(K), 1e-300);
  double worst = 0.0;
  for (const Block& block : wall.blocks()) {
    for (const RigidMotion& mode :
         SixRigidModes(0.5 * (block.lower + block.upper))) {
      Eigen::VectorXd phi = Eigen::VectorXd::Zero(wall.num_block_dofs());
      SetBlockMotion(wall, block, mode, &phi);
      const double ratio = (K * phi).norm() / (k_max * phi.norm());
      worst = std::max(worst, ratio);
    }
  }
  std::ostringstream out;
  out << "max ||K phi|| / (max|K| ||phi||) over 6 rigid modes per block = "
      << worst;
  const bool ok = worst <= tolerance;
  if (!ok) out << " > " << tolerance;
  return Result(ok, worst, out.str());
}

CheckResult CheckTotalMass(const MasonryWall& wall,
                           const Eigen::VectorXd& mass_diagonal,
                           double relative_tolerance) {
  const int nb = wall.num_block_dofs();
  if (mass_diagonal.size() < nb)
    return Result(false, 0.0, "mass vector too short");
  double volume = 0.0;
  for (const Block& block : wall.blocks())
    volume += (block.upper - block.lower).prod();
  const double expected = wall.options().density * volume;
  double worst = 0.0;
  std::ostringstream out;
  for (int d = 0; d < 3; ++d) {
    double sum = 0.0;
    for (int i = d; i < nb; i += 3) sum += mass_diagonal[i];
    worst = std::max(worst, std::abs(sum - expected) / expected);
    if (d == 0)
      out << "lumped block mass " << sum << " kg, density x volume " << expected
          << " kg";
  }
  const bool ok = worst <= relative_tolerance;
  out << ", relative difference " << worst;
  if (!ok) out << " > " << relative_tolerance;
  return Result(ok, worst, out.str());
}

CheckResult CheckVerticalImpulseBalance(const MasonryWall& wall,
                                        const Solution& solution,
                                        double gravity,
                                        double relative_tolerance) {
  if (solution.r.size() != wall.m())
    return Result(false, 0.0, "r has the wrong size");
  const StepDiagnostics diag = wall.Diagnose(solution);
  const double h = wall.options().h;
  const double g = std::abs(gravity);
  const double top = h * g * wall.top_support().mass;
  // Load carried by each horizontal interface: the top support plus every
  // course above it.
  const double expected[4] = {
      top,
      top + h * g * wall.CourseMass(2),
      top + h * g * (wall.CourseMass(2) + wall.CourseMass(1)),
      top + h * g * wall.BlockMass()};
  const ContactGroup groups[4] = {ContactGroup::kTopSupport,
                                  ContactGroup::kBedJoint23,
                                  ContactGroup::kBedJoint12,
                                  ContactGroup::kBottomSupport};
  double worst = 0.0;
  std::ostringstream out;
  out << "sum r_N (N s) vs expected:";
  for (int i = 0; i < 4; ++i) {
    const double sum = diag.group(groups[i]).sum_r_n;
    const double deviation =
        std::abs(sum - expected[i]) / std::max(expected[i], 1e-300);
    worst = std::max(worst, deviation);
    out << " " << ToString(groups[i]) << " " << sum << "/" << expected[i];
  }
  out << "; max relative deviation " << worst;
  const bool ok = worst <= relative_tolerance;
  if (!ok) out << " > " << relative_tolerance;
  return Result(ok, worst, out.str());
}

CheckResult CheckNoPenetration(const MasonryWall& wall, double tolerance) {
  const Eigen::VectorXd gaps = wall.Gaps();
  const double min_gap = gaps.size() > 0 ? gaps.minCoeff() : 0.0;
  std::ostringstream out;
  out << "min gap " << min_gap << " m";
  const bool ok = min_gap >= -tolerance;
  if (!ok) out << " < -" << tolerance;
  return Result(ok, min_gap, out.str());
}

std::vector<CheckResult> RunStaticChecks(const MasonryWall& wall) {
  GlobalProblem problem;
  wall.BuildStepProblem(&problem);
  return {CheckSizes(wall.options(), problem),
          CheckSymmetricPositiveDefinite(problem.M),
          CheckFramesOrthonormal(wall.contacts()),
          CheckHConsistentWithFrames(wall, problem.H),
          CheckRigidBodyModes(wall, wall.stiffness()),
          CheckTotalMass(wall, wall.mass_diagonal())};
}

}  // namespace fcsn::masonry
