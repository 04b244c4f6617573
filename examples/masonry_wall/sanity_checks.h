// sanity_checks.h: the checks of shared/docs/masonry_wall.md §7 on a generated
// wall and on the solutions of its steps. Each returns a CheckResult: passed,
// the measured value the verdict was based on, and one line saying what was
// measured (and what failed).
#ifndef FCSN_EXAMPLES_MASONRY_WALL_SANITY_CHECKS_H_
#define FCSN_EXAMPLES_MASONRY_WALL_SANITY_CHECKS_H_

#include <string>
#include <vector>

#include "fcsn/problem.h"
#include "masonry_wall_model.h"

namespace fcsn::masonry {

struct CheckResult {
  bool passed = false;
  double value = 0.0;
  std::string message;
};

// Sizes expected from the mesh counts alone (independently of the assembled
// objects).
struct ExpectedSizes {
  int n = 0;   // 3 #nodes + 5 free top-support dofs
  int nc = 0;  // nodes on both supports + face elements of both bed joints and
               // 9 head joints
  int m = 0;   // 3 nc
  int support_contacts = 0;
};
ExpectedSizes ComputeExpectedSizes(const WallOptions& options);

// Sizes of problem (n, m, nc, |f|, |w|, H rows) against ComputeExpectedSizes,
// and the number of contacts with mu = mu_block_support.
CheckResult CheckSizes(const WallOptions& options,
                       const GlobalProblem& problem);

// ||M - M^T||_max / ||M||_max <= symmetry_tolerance and a sparse Cholesky
// (LL^T) succeeds; the Cholesky is skipped (and reported so) when M has more
// than max_cholesky_rows rows. value: the relative asymmetry.
// Why 150,000 by default: Eigen's simplicial LL^T of the wall's 3-D mesh
// costs ~n^2 flops on one core, about 2 min at refine 3 (n = 133,853) and
// well over 20 min at refine 4 (n ~ 3.2e5), longer than the solves it guards.
inline constexpr int kDefaultMaxCholeskyRows = 150000;
CheckResult CheckSymmetricPositiveDefinite(
    const SparseMatrix& M,
    double symmetry_tolerance = 1e-14,
    int max_cholesky_rows = kDefaultMaxCholeskyRows);

// max over contacts of ||R^T R - I||_max and |det R - 1|, against tolerance.
CheckResult CheckFramesOrthonormal(const std::vector<ContactPoint>& contacts,
                                   double tolerance = 1e-14);

// For each contact a and each rigid motion of its bodies (translation e_x, e_y,
// e_z of the candidate block, of the antagonist block, and the free v_y, v_z,
// omega of the top support), H^T v restricted to contact a must equal R_a^T
// (v_A(x_a) - v_B(x'_a)) computed from the frames and the geometry. value: the
// largest absolute mismatch.
CheckResult CheckHConsistentWithFrames(const MasonryWall& wall,
                                       const SparseMatrix& H,
                                       double tolerance = 1e-12);

// For every block, ||K phi|| / (max|K| ||phi||) over its 6 rigid modes (3
// translations and 3 small rotations about its centre, phi zero outside the
// block). value: the largest ratio.
CheckResult CheckRigidBodyModes(const MasonryWall& wall,
                                const SparseMatrix& K,
                                double tolerance = 1e-9);

// Sum of the lumped nodal masses (per direction) against density x volume of
// the 12 blocks.
CheckResult CheckTotalMass(const MasonryWall& wall,
                           const Eigen::VectorXd& mass_diagonal,
                           double relative_tolerance = 1e-12);

// Quasi-static vertical balance of the step just solved, in impulses (h m_s |g|
// through the top support, plus h |g| times the courses above each bed joint
// and the bottom). value: the largest relative deviation over the four
// horizontal interfaces.
CheckResult CheckVerticalImpulseBalance(const MasonryWall& wall,
                                        const Solution& solution,
                                        double gravity,
                                        double relative_tolerance);

// min over contacts of the current gap (wall.Gaps()) >= -tolerance (m).
CheckResult CheckNoPenetration(const MasonryWall& wall,
                               double tolerance = 1e-8);

// All static checks above on a freshly built wall and its first step problem.
std::vector<CheckResult> RunStaticChecks(const MasonryWall& wall);

}  // namespace fcsn::masonry

#endif  // FCSN_EXAMPLES_MASONRY_WALL_SANITY_CHECKS_H_
