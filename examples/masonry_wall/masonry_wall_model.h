// masonry_wall_model.h: the masonry low wall ("la murette") of
// shared/docs/masonry_wall.md §6, in FCLib global form, time-stepped by the
// linear Moreau-Jean theta-method.
//
// Model (SI units, x along the wall, y through the thickness, z up):
//   12 elastic blocks in 3 courses of running bond, trilinear H8 elements,
//   small strain, isotropic (E, nu, rho), lumped mass M, Rayleigh damping C =
//   beta K; two rigid supports: the bottom one fixed, the top one (mass m_s,
//   box inertia I) with v_x prescribed and (v_y, v_z, omega) free. Dofs: 3 per
//   block node (blocks do not share nodes), then the 5 free top-support dofs
//   (v_y, v_z, omega_x, omega_y, omega_z) at its centre of mass: n = 3 #nodes
//   + 5.
//
// Contacts (fixed set, frozen reference kinematics, §6.3): nodes of the faces
// on the supports, face-element centres in the bed and head joints. Frame R =
// [n t1 t2], n from the antagonist to the candidate, t1 = e_x if |n.e_x| < 0.5
// else e_y, t2 = n x t1, and
//   u_a = R_a^T (v_A(x_a) - v_B(x'_a)),   H_a = sum_a w_a E_a^T R_a - sum_b w_b
//   E_b^T R_a,
// rigid antagonist rows -[R_a ; [x'_a - c_s]_x R_a] on its free dofs.
//
// Step k (t_k = k h): the theta-method of fcsn::MoreauJean
// (fcsn/time_stepping.h) with M = diag(lumped block masses, m_s, m_s, I_xx,
// I_yy, I_zz), K the block stiffness (zero on the top-support dofs), Rayleigh
// C = beta K and the external impulse p_k = h F_ext(g_k) (gravity g_k of step
// k on the blocks and on the top support's v_z):
//   M^ = M + (h theta beta + h^2 theta^2) K,
//   f_k = M v + p_k - K (h q + (h^2 theta (1-theta) + h (1-theta) beta) v),
//   w_a = (g_a / h) e_N - R_a^T v_B^presc(x'_a),  g_a = [H^T d]_N,
//   d = q + (1-theta) h v  (MoreauJean::PredictedDisplacement),
//   M^ v_k = H r_k + f_k,  u_k = H^T v_k + w_k,  Coulomb at every contact,
//   q_k = q + h (theta v_k + (1-theta) v)  (MoreauJean::Advance),
// with (q, v) the state after step k-1; the top support's prescribed x
// displacement follows the same rule. The problem of a step is a
// fcsn::GlobalProblem.
//
// Usage:
//   fcsn::masonry::WallOptions options;   // the deck's values; Coarse() for tests
//   std::string error;
//   auto wall = fcsn::masonry::MasonryWall::Create(options, &error);
//   fcsn::GlobalProblem problem;
//   fcsn::Solution x;
//   for (int k = 1; k <= options.num_steps; ++k) {
//     wall->BuildStepProblem(&problem);
//     solver.Solve(problem, &x, &x);
//     wall->Advance(x, &error);
//   }
#ifndef FCSN_EXAMPLES_MASONRY_WALL_MASONRY_WALL_MODEL_H_
#define FCSN_EXAMPLES_MASONRY_WALL_MASONRY_WALL_MODEL_H_

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <Eigen/SparseCore>
#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fcsn/problem.h"
#include "fcsn/time_stepping.h"
#include "h8_elasticity.h"

namespace fcsn::masonry {

// Normal free term w_N = g / h (LMGC90's GAP_SGR_CLB, [S]) or the
// theta-consistent g / (theta h)
// ([A]).
enum class GapScaling {
  kOverH,       // "h"
  kOverThetaH,  // "theta-h"
};
const char* ToString(GapScaling x);

// The five contact groups of §6.3, in the order their contacts are numbered.
enum class ContactGroup {
  kBottomSupport,  // "bottom": nodes of the bottom faces of course 1 on the
                   // bottom support
  kTopSupport,     // "top": nodes of the top faces of course 3 under the top
                   // support
  kBedJoint12,  // "bed12": face centres of course 2's bottom faces on course 1
  kBedJoint23,  // "bed23": face centres of course 3's bottom faces on course 2
  kHeadJoint,   // "head": face centres of +x faces on the -x face of the right
                // neighbour
};
// Courses of the wall and blocks per course (§5.1; one of them a half block).
inline constexpr int kCourses = 3;
inline constexpr int kBlocksPerCourse = 4;

inline constexpr int kNumContactGroups = 5;
inline constexpr std::array<ContactGroup, kNumContactGroups> kAllContactGroups =
    {ContactGroup::kBottomSupport,
     ContactGroup::kTopSupport,
     ContactGroup::kBedJoint12,
     ContactGroup::kBedJoint23,
     ContactGroup::kHeadJoint};
const char* ToString(ContactGroup x);

// Generator parameters (§6.7). Provenance: [S] sourced, [D] derived, [A]
// assumed.
struct WallOptions {
  // Full block L x t x H in m [A, except L = 3 H: D]; a half block is L/2 long.
  double block_length = 0.30;
  double block_thickness = 0.10;
  double block_height = 0.10;
  // H8 elements of a full block along x, y, z [S/D]; a half block has
  // elements_x / 2 along x. elements_x must be even so that the running-bond
  // joints conform.
  int elements_x = 8;
  int elements_y = 4;
  int elements_z = 4;
  // Material STONE [S]: Pa, -, kg/m^3.
  double youngs_modulus = 2.2e9;
  double poisson_ratio = 0.2;
  double density = 2000.0;
  // Rayleigh damping C = alpha M + beta K with alpha = 0 [S]; s.
  double rayleigh_beta = 0.05;
  // Time step (s), theta and number of steps [S].
  double h = 1e-3;
  double theta = 0.5;
  int num_steps = 500;
  // Coulomb coefficients [S: deck TACT_BEHAV.DAT]; SwapFriction() selects the
  // draft's reading.
  double mu_block_block = 0.53;
  double mu_block_support = 0.83;
  // Rigid support boxes L x W x H in m [A], centred on the wall in x and y.
  double support_length = 1.25;
  double support_width = 0.15;
  double support_height = 0.11;
  // Top-support mass in kg [D]: its weight is the 30 kN compression, 30000
  // / 9.81.
  double top_support_mass = 30000.0 / 9.81;
  // Gravity (m/s^2) and its ramp [S]: g_1 = 0, g_k = -gravity (k-1)/(last-1)
  // for 2 <= k <= last, -gravity afterwards.
  double gravity = 9.81;
  int gravity_ramp_last_step = 19;
  // Top-support V_x(t) [S: Vx.dat]: 0 for t <= start, linear to shear_velocity
  // (m/s) at ramp_end, constant afterwards.
  double shear_start_time = 0.021;
  double shear_ramp_end_time = 0.040;
  double shear_velocity = -1e-3;
  GapScaling gap_scaling = GapScaling::kOverH;
  // Entries of K (made exactly symmetric) with |K_ij| <= tol max|K| are
  // dropped: on a uniform mesh many couplings cancel to round-off. 0 keeps the
  // full structural pattern. [A]
  double stiffness_drop_tolerance = 1e-12;

  // The default mesh with every element count multiplied by factor (>= 1).
  static WallOptions Refined(int factor);
  // Full blocks 4 x 2 x 2 elements (half blocks 2 x 2 x 2): n = 1463, nc = 200;
  // for fast tests.
  static WallOptions Coarse();
  // Exchanges mu_block_block and mu_block_support (the draft paper's reading,
  // §2).
  void SwapFriction();
  // "" if every field is in range, otherwise one sentence naming the field.
  std::string Validate() const;
};

// One elastic block: a box meshed by nx x ny x nz H8 elements with its own
// nodes (lower, upper, nx, ny, nz, first_node, Node(i, j, k), NumNodes() of
// fem::HexGrid).
struct Block : fem::HexGrid {
  int course = 0;  // 0, 1, 2 from the bottom
};

// A node of a contact point's interpolation and its weight.
struct NodeWeight {
  int node = 0;
  double weight = 0.0;
};

struct ContactPoint {
  ContactGroup group = ContactGroup::kBottomSupport;
  int block_a = -1;       // candidate block
  int block_b = -1;       // antagonist block, -1 for a rigid support
  Eigen::Vector3d x_a;    // candidate point (reference configuration)
  Eigen::Vector3d x_b;    // antagonist point (equal to x_a: zero initial gap)
  Eigen::Matrix3d frame;  // columns n, t1, t2
  double mu = 0.0;
  std::vector<NodeWeight> nodes_a;  // v_A(x_a) = sum w v_node
  std::vector<NodeWeight> nodes_b;  // empty for a rigid antagonist
};

// The rigid top support: mass, principal inertia about its centre of mass c_s.
struct TopSupport {
  double mass = 0.0;
  Eigen::Vector3d inertia;  // I_xx, I_yy, I_zz (box)
  Eigen::Vector3d centre;   // c_s, reference configuration
};

// Sums over the contacts of one group (impulses in N s, global axes: the
// impulse on the candidate is R r).
struct GroupDiagnostics {
  int contacts = 0;
  int open = 0;   // r_N <= open_tolerance max_a r_N,a
  int stick = 0;  // closed, ||r_T|| < (1 - slip_tolerance) mu r_N
  int slip = 0;   // closed, on the boundary of the cone
  double sum_r_n = 0.0;
  Eigen::Vector3d sum_impulse = Eigen::Vector3d::Zero();
};

struct StepDiagnostics {
  std::array<GroupDiagnostics, kNumContactGroups> groups;
  GroupDiagnostics& group(ContactGroup g) {
    return groups[static_cast<int>(g)];
  }
  const GroupDiagnostics& group(ContactGroup g) const {
    return groups[static_cast<int>(g)];
  }
};

class MasonryWall {
 public:
  // Builds the mesh, K, M, the contacts, H and M^ for options; nullptr and
  // *error set (one sentence) if the options are invalid.
  static std::unique_ptr<MasonryWall> Create(const WallOptions& options,
                                             std::string* error);

  const WallOptions& options() const { return options_; }
  const std::vector<Block>& blocks() const { return blocks_; }
  // Reference coordinates of every block node.
  const std::vector<Eigen::Vector3d>& nodes() const { return nodes_; }
  int num_elements() const { return num_elements_; }
  int num_block_dofs() const { return 3 * static_cast<int>(nodes_.size()); }
  // Index of the first free top-support dof (v_y); then v_z, omega_x, omega_y,
  // omega_z.
  int top_support_dof() const { return num_block_dofs(); }
  int n() const { return num_block_dofs() + kTopSupportFreeDofs; }
  int nc() const { return static_cast<int>(contacts_.size()); }
  int m() const { return 3 * nc(); }
  const std::vector<ContactPoint>& contacts() const { return contacts_; }
  const TopSupport& top_support() const { return top_support_; }
  // Stiffness K on the block dofs (num_block_dofs square, exactly symmetric).
  const SparseMatrix& stiffness() const { return K_; }
  // Diagonal of M over all n dofs (lumped block masses; m_s, m_s, I for the top
  // support).
  const Eigen::VectorXd& mass_diagonal() const { return mass_; }
  // The theta-method of the steps (h, theta, beta of the options); M^ =
  // iteration_matrix().
  const MoreauJean& time_stepper() const { return stepper_; }
  const SparseMatrix& iteration_matrix() const {
    return stepper_.iteration_matrix();
  }
  const SparseMatrix& H() const { return H_; }
  const Eigen::VectorXd& mu() const { return mu_; }
  // Mass of the blocks of one course (kg), and of all blocks.
  double CourseMass(int course) const;
  double BlockMass() const;

  // Loading protocol (§6.5): g_k (m/s^2, negative: downwards) and V_x(t) of the
  // top support.
  double GravityAtStep(int k) const;
  double ShearVelocityAt(double t) const;

  // State after step(): displacements q and velocities v of the n free dofs
  // (rotations of the top support as small angles), top-support x displacement,
  // the last accepted (v, u, r).
  int step() const { return step_; }
  double time() const { return step_ * options_.h; }
  const Eigen::VectorXd& displacement() const { return q_; }
  const Eigen::VectorXd& velocity() const { return v_; }
  double top_support_x_displacement() const { return support_x_; }
  const Solution& last_solution() const { return last_; }

  // The FCLib global problem of step step() + 1 (M and H are copied; f, w, mu
  // recomputed).
  void BuildStepProblem(GlobalProblem* problem) const;
  // Accepts the solution of the step built by BuildStepProblem: updates q, v,
  // the support position, step(), last_solution(). False (state unchanged) if
  // the sizes are wrong or v is not finite.
  bool Advance(const Solution& solution, std::string* error);
  // Back to the reference configuration at rest, step 0.
  void Reset();

  // Normal gap of every contact in the current configuration, [H^T q]_N (m;
  // zero initial gaps).
  Eigen::VectorXd Gaps() const;
  // Contact counts by status and impulse sums per group for a solution of the
  // current step. Open: r_N <= open_tolerance max r_N. Slip: ||r_T|| >= (1 -
  // slip_tolerance) mu r_N. An r of the wrong size gives all-zero diagnostics.
  // Default tolerances [A]: relative round-off margins for a 1e-10 solve.
  StepDiagnostics Diagnose(const Solution& solution,
                           double open_tolerance = 1e-9,
                           double slip_tolerance = 1e-6) const;

 private:
  static constexpr int kTopSupportFreeDofs = 5;

  explicit MasonryWall(const WallOptions& options);
  void BuildMesh();
  void AssembleStiffnessAndMass();
  void BuildContacts();
  // The contacts of one family, appended to contacts_: the nodes of a course's
  // bottom or top face on a support; the face centres of the bed joint under
  // upper_course; the face centres of the head joints.
  void AddSupportContacts(int course, bool top_face, ContactGroup group);
  void AddBedJointContacts(int upper_course, ContactGroup group);
  void AddHeadJointContacts();
  void AssembleH();
  // Sets up stepper_ (M^); "" or the reason it failed.
  std::string SetUpTimeStepper();
  // Global-frame velocity of the prescribed top-support motion (V e_x) seen in
  // contact a's frame.
  Eigen::Vector3d PrescribedRelative(int a, double support_value) const;

  WallOptions options_;
  std::vector<Block> blocks_;
  std::vector<Eigen::Vector3d> nodes_;
  int num_elements_ = 0;
  std::vector<ContactPoint> contacts_;
  TopSupport top_support_;
  SparseMatrix K_;
  Eigen::VectorXd mass_;
  Eigen::VectorXd
      gravity_load_;  // F_ext for g = -1 m/s^2 (consistent nodal loads, z up)
  MoreauJean stepper_;
  SparseMatrix H_;
  Eigen::VectorXd mu_;

  int step_ = 0;
  Eigen::VectorXd q_;
  Eigen::VectorXd v_;
  double support_x_ = 0.0;
  Solution last_;
};

// The 50 counters of the FCLib LowWall_FEM collection (§3.2); step = counter
// + 1.
const std::array<int, 50>& FclibCollectionCounters();
// "LowWall_FEM-i{iterations:05d}-{nc}-{counter:05d}.hdf5" (§6.6).
std::string FclibFileName(int iterations, int nc, int counter);

}  // namespace fcsn::masonry

#endif  // FCSN_EXAMPLES_MASONRY_WALL_MASONRY_WALL_MODEL_H_
