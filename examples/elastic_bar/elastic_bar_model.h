// elastic_bar_model.h: a stiff linear-elastic bar sliding on a rigid plane, in
// FCLib global form, time-stepped by the linear Moreau-Jean theta-method. A
// generator of large FEM contact problems (>= 2000 contacts by default) and the
// example FEM loop of examples/elastic_bar/README.md.
//
// Model (SI units, x along the bar, z up):
//   a box [0, L] x [0, W] x [0, T] meshed by nx x ny x nz trilinear H8 elements
//   (fem::HexGrid, small strain, isotropic E, nu, rho), mass M lumped
//   (diagonal, by default) or consistent (BarOptions::consistent_mass; same
//   row sums, so the same momentum), optional Rayleigh damping C = beta K;
//   n = 3 #nodes, no boundary conditions. It lies on the rigid plane z = 0
//   with zero gap, at rest vertically, with the velocity v0 e_x everywhere at
//   t = 0; gravity -g e_z from step 1.
//
// Contacts: one per bottom node (k = 0), contact a = node a (bottom nodes are
// numbered first). Frame R = [n t1 t2] = [e_z e_x e_y] (local order N, T1, T2),
// the plane is fixed, so u_a = R^T v_node(a) + w_a: H maps node a's velocity
// to its frame, H(3 a + d, 3 a + j) = R(d, j), i.e. H(3a+2, 3a) = H(3a, 3a+1)
// = H(3a+1, 3a+2) = 1 and every other entry 0 (n x m, m nonzeros); mu_a = mu.
//
// Step k (t_k = k h): the theta-method of fcsn::MoreauJean
// (fcsn/time_stepping.h) with M (lumped or consistent), K, C = beta K and the
// external impulse p = -h g Fz (Fz the nodal loads of a unit body force along
// z):
//   M^ = M + (h theta beta + h^2 theta^2) K,
//   f_k = M v + p - K (h q + (h^2 theta (1-theta) + h (1-theta) beta) v),
//   w_a = (g_a / h) e_N,  g_a = [H^T d]_N = d_z(node a),  d = q + (1-theta) h v
//   (MoreauJean::GapFreeTerm),
//   (plus h P_k Fp with the push P_k and the unit end-face load Fp when
//   push_factor > 0),
//   M^ v_k = H r_k + f_k,  u_k = H^T v_k + w_k,  Coulomb at every contact,
//   q_k = q + h (theta v_k + (1-theta) v)  (MoreauJean::Advance).
// w_N = gap / h is the masonry example's scaling (LMGC90 GAP_SGR_CLB). With
// theta = 1 the gap after the step is g_a + h v_z = h u_N,a >= 0: no
// penetration beyond the solver's tolerance.
//
// Usage:
//   fcsn::elastic_bar::BarOptions options;     // 100 x 20 x 2: 2121 contacts
//   std::string error;
//   auto bar = fcsn::elastic_bar::ElasticBar::Create(options, &error);
//   fcsn::Solver solver(solver_options);
//   fcsn::GlobalProblem problem;
//   fcsn::Solution x;                          // empty: no guess at step 1
//   for (int k = 1; k <= steps; ++k) {
//     bar->BuildStepProblem(&problem);
//     solver.Solve(problem, &x, &x);           // warm start from step k - 1
//     bar->Advance(x, &error);
//   }
#ifndef FCSN_EXAMPLES_ELASTIC_BAR_ELASTIC_BAR_MODEL_H_
#define FCSN_EXAMPLES_ELASTIC_BAR_ELASTIC_BAR_MODEL_H_

#include <Eigen/Core>
#include <memory>
#include <string>

#include "fcsn/problem.h"
#include "fcsn/time_stepping.h"
#include "h8_elasticity.h"

namespace fcsn::elastic_bar {

// Generator parameters, SI units.
struct BarOptions {
  // Bar size L x W x T (m) and H8 elements along x, y, z: 1 cm cubes by
  // default, (nx + 1)(ny + 1) = 2121 bottom nodes, i.e. contacts.
  double length = 1.0;
  double width = 0.2;
  double thickness = 0.02;
  int nx = 100;
  int ny = 20;
  int nz = 2;
  // Steel: Pa, -, kg/m^3.
  double youngs_modulus = 2e11;
  double poisson_ratio = 0.3;
  double density = 7800.0;
  // Mass matrix: false, lumped (diagonal, rho V / 8 per element node and dof);
  // true, the consistent mass of the trilinear H8 (fem::AssembleConsistentMass;
  // sparse, the pattern of K's same-direction couplings, same row sums).
  bool consistent_mass = false;
  // Rayleigh stiffness damping C = beta K (s); 0: no damping besides theta's.
  double rayleigh_beta = 0.0;
  // Time step (s) and theta in (0, 1]. theta = 1 by default: h = 1e-3 s does
  // not resolve the elastic waves of a 1 cm steel mesh (omega h up to ~1e3),
  // which theta = 1/2 would carry undamped from step to step (amplification
  // -1, seen as alternating contact impulses); theta = 1 damps them in one
  // step and the bar moves as the stiff body it is. theta = 0.5 is the
  // energy-conserving choice of the masonry example.
  double h = 1e-3;
  double theta = 1.0;
  // Coulomb coefficient bar-plane, gravity (m/s^2, along -z).
  double mu = 0.3;
  double gravity = 9.81;
  // Initial velocity along x (m/s): friction stops the bar after v0 / (mu g)
  // = 6.8 ms: the default run slides for 6 steps, stops at step 7 and sticks
  // from then on.
  double initial_velocity = 0.02;
  // A push along +x on the end face x = 0, shared equally by its nodes,
  // ramping linearly over push_ramp_steps steps to push_factor times the
  // sliding force mu m g, then held (>= 0; 0 by default: no push). With
  // initial_velocity = 0 and push_factor > 1 a slip zone opens at the pushed
  // end and its front runs over the contact face (bench/results/fronts.md).
  double push_factor = 0.0;
  int push_ramp_steps = 40;  // >= 1
  // Entries of K with |K_ij| <= tol max|K| dropped (fem::SymmetricMatrix).
  double stiffness_drop_tolerance = 1e-12;

  // 10 x 3 x 1 elements (44 contacts) for fast tests.
  static BarOptions Small();
  // "" if every field is in range, otherwise one sentence naming the field.
  std::string Validate() const;
};

// Contact statuses and sums of one step's impulses r (N s, local axes).
struct StepDiagnostics {
  int open = 0;   // r_N <= open_tolerance max_a r_N,a
  int stick = 0;  // closed, ||r_T|| < (1 - slip_tolerance) mu r_N
  int slip = 0;   // closed, on the boundary of the cone
  Eigen::Vector3d sum_r = Eigen::Vector3d::Zero();  // (N, T1 = x, T2 = y)
  double min_u_n = 0.0;                             // min_a u_N,a (m/s)
};

class ElasticBar {
 public:
  // Builds the mesh, K, M, H and M^; nullptr and *error set (one sentence) if
  // the options are invalid.
  static std::unique_ptr<ElasticBar> Create(const BarOptions& options,
                                            std::string* error);

  const BarOptions& options() const { return options_; }
  const fem::HexGrid& grid() const { return grid_; }
  int n() const { return 3 * grid_.NumNodes(); }
  int nc() const { return (grid_.nx + 1) * (grid_.ny + 1); }
  int m() const { return 3 * nc(); }
  const SparseMatrix& stiffness() const { return K_; }
  // The lumped masses: M's diagonal when lumped, M's row sums either way.
  const Eigen::VectorXd& mass_diagonal() const { return mass_; }
  // M of the time stepper, lumped or consistent (options().consistent_mass).
  const SparseMatrix& mass_matrix() const { return M_; }
  const SparseMatrix& iteration_matrix() const {
    return stepper_.iteration_matrix();
  }
  const SparseMatrix& H() const { return H_; }
  double total_mass() const;
  // Vertical impulse of gravity over one step, m g h (N s).
  double weight_impulse() const;
  // The theta-method of the steps (h, theta, beta of the options).
  const MoreauJean& time_stepper() const { return stepper_; }

  int step() const { return step_; }
  double time() const { return step_ * options_.h; }
  const Eigen::VectorXd& displacement() const { return q_; }
  const Eigen::VectorXd& velocity() const { return v_; }
  // Mass-weighted mean velocity (m/s): the velocity of the centre of mass
  // (exact with either mass: 1^T M v uses M's row sums, the lumped masses).
  Eigen::Vector3d MeanVelocity() const;
  // Height of every bottom node above the plane, [H^T q]_N (m).
  Eigen::VectorXd Gaps() const;

  // The FCLib global problem of step step() + 1 (M, H copied; f, w recomputed).
  void BuildStepProblem(GlobalProblem* problem) const;
  // Accepts the solution of that problem: updates q, v, step(). False (state
  // unchanged) if the sizes are wrong or v is not finite.
  bool Advance(const Solution& solution, std::string* error);
  // Back to t = 0: q = 0, v = v0 e_x.
  void Reset();

  // Statuses and impulse sums of a solution of the current step; all-zero for
  // an r of the wrong size.
  StepDiagnostics Diagnose(const Solution& solution,
                           double open_tolerance = 1e-9,
                           double slip_tolerance = 1e-6) const;

 private:
  explicit ElasticBar(const BarOptions& options);
  // K, M, H, mu and the time stepper; "" or the reason the stepper refused.
  std::string Assemble();
  // M_ from mass_ (lumped) or from the consistent element masses.
  void AssembleMass(const fem::ElasticMaterial& material);

  BarOptions options_;
  fem::HexGrid grid_;
  SparseMatrix K_;
  Eigen::VectorXd mass_;  // lumped masses (M's row sums)
  SparseMatrix M_;
  Eigen::VectorXd z_load_;     // nodal loads of a unit body force along +z
  Eigen::VectorXd push_load_;  // a unit force along +x shared by face x = 0
  MoreauJean stepper_;
  SparseMatrix H_;
  Eigen::VectorXd mu_;

  int step_ = 0;
  Eigen::VectorXd q_;
  Eigen::VectorXd v_;
};

// "ElasticBar-{nx}x{ny}x{nz}-nc{nc}-{step:05d}.hdf5".
std::string FclibFileName(const BarOptions& options, int nc, int step);

}  // namespace fcsn::elastic_bar

#endif  // FCSN_EXAMPLES_ELASTIC_BAR_ELASTIC_BAR_MODEL_H_
