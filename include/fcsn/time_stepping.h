// fcsn/time_stepping.h: the pieces of a linear Moreau-Jean time loop around
// fcsn::Solver: the theta-method step problem (MoreauJean) and the warm start
// carried by contact identifiers when the contact set changes
// (RemapContactGuess).
//
// Theta-method (impulse-velocity form). Dynamics of a linear structure,
//   M dv = (F_ext(t) - K q - C v) dt + dR,   dq = v dt,
// with M the mass, K the stiffness, C the damping (all n x n, sparse), integrated
// over [t_k, t_k + h] with the theta rule for the smooth forces and the contact
// impulse r over the step kept whole (R = H r):
//   M (v_{k+1} - v_k) = h [theta F_{k+1} + (1-theta) F_k] + H r,
//   q_{k+1}           = q_k + h [theta v_{k+1} + (1-theta) v_k],
//   F_k               = F_ext(t_k) - K q_k - C v_k.
// Substituting q_{k+1} gives one linear system in v_{k+1}:
//   M^ v_{k+1} = H r + f^,
//   M^ = M + theta h C + theta^2 h^2 K,
//   f^ = M v_k + p_k - h K q_k - (theta (1-theta) h^2 K + (1-theta) h C) v_k,
//   p_k = h [(1-theta) F_ext(t_k) + theta F_ext(t_{k+1})]   (external impulse)
// and C = C_given + alpha M + beta K (Rayleigh damping, MoreauJeanOptions).
// M^ and f^ are the M and f of the step's GlobalProblem (fcsn/problem.h). M^
// is formed once: its pattern is the union of those of M, K and C and never
// changes, so fcsn::Solver keeps its analysis over the whole loop.
//
// Local kinematics (the convention of the examples, LMGC90's GAP_SGR_CLB): the
// gap of contact a is evaluated at the predicted configuration
//   q~ = q_k + (1-theta) h v_k,   g_a = g0_a + [H^T q~]_N,a,
// and enters as w_a = (g_a / h) e_N. The gap after the step is then
//   g_a(q_{k+1}) = g_a + theta h [H^T v_{k+1}]_N,a
//                = h u_N,a - (1-theta) h [H^T v_{k+1}]_N,a,
// so u_N,a >= 0 means "no penetration at t_{k+1}" exactly when theta = 1.
// GapFreeTerm() forms that w for a fixed H and fixed obstacles; models with
// moving obstacles use PredictedDisplacement() and add their own terms.
//
// Predictor: for a fixed contact set, the guess of step k+1 extrapolated
// linearly from the solutions x_{k-1} = older and x_k = previous,
//   guess = x_k + (x_k - x_{k-1})   (each of v, u, r),
// anticipates a load that keeps ramping (ExtrapolateGuess()). Measured on the
// masonry wall's shear steps (bench/results/shear_steps.md): median Newton
// iterations 9 -> 7 at refine 2, mean 5.0 -> 4.1 at refine 1 (the gain is in
// r). The extrapolated r may leave the friction cone: it is a starting point
// of Newton, not an admissible reaction.
//
// Warm start by identifiers: the caller numbers its contacts with stable
// integer ids (e.g. node id x obstacle id). RemapContactGuess() carries r and
// u of the previous step to the contacts of the new step with the same id;
// new contacts start at zero (no guess), vanished contacts are dropped.
//
// Usage:
//   fcsn::MoreauJeanOptions time;  time.h = 1e-3;  time.theta = 0.5;
//   fcsn::MoreauJean stepper;
//   std::string error = stepper.Setup(time, M, K);        // "" when valid
//   problem.M = stepper.iteration_matrix();  problem.H = H;  problem.mu = mu;
//   for (each step) {
//     stepper.ExternalImpulse(F_k, F_k1, &p);
//     stepper.FreeTerm(q, v, p, &problem.f);
//     stepper.GapFreeTerm(H, gaps0, q, v, &problem.w);
//     solver.Solve(problem, &x, &x);
//     stepper.Advance(x.v, &q, &v);
//   }
#ifndef FCSN_TIME_STEPPING_H_
#define FCSN_TIME_STEPPING_H_

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "fcsn/problem.h"

namespace fcsn {

struct MoreauJeanOptions {
  // Time step h (s), > 0. There is no universal value: set it for your model.
  double h = 1e-3;
  // theta in (0, 1]: 1/2 conserves the energy of the linear part (trapezoidal
  // rule), 1 is implicit Euler (dissipates the modes with omega h >> 1).
  double theta = 0.5;
  // Rayleigh damping C += alpha M + beta K: alpha in 1/s, beta in s, both >= 0.
  double rayleigh_alpha = 0.0;
  double rayleigh_beta = 0.0;

  // "" if every field is in range, otherwise one sentence naming the field.
  std::string Validate() const;
};

class MoreauJean {
 public:
  // Copies M (n x n) and the optional K and C (n x n, or 0 x 0 when absent)
  // and forms M^. Returns "" on success, otherwise one sentence (options out
  // of range, wrong sizes, non-finite entries) and leaves the stepper empty
  // (n() == 0).
  std::string Setup(const MoreauJeanOptions& options,
                    const SparseMatrix& M,
                    const SparseMatrix& K = SparseMatrix(),
                    const SparseMatrix& C = SparseMatrix());

  const MoreauJeanOptions& options() const { return options_; }
  int n() const { return static_cast<int>(M_.rows()); }
  // M^ = M + theta h C + theta^2 h^2 K (with Rayleigh's C), compressed.
  const SparseMatrix& iteration_matrix() const { return M_hat_; }

  // Every step function below returns false, leaving its outputs untouched,
  // when a vector does not have the size n() (or 3 nc for H, nc for gaps).

  // p = h ((1-theta) force_begin + theta force_end), the impulse of the
  // external forces over the step (forces at t_k and t_{k+1}).
  bool ExternalImpulse(const Eigen::VectorXd& force_begin,
                       const Eigen::VectorXd& force_end,
                       Eigen::VectorXd* impulse) const;
  // f^ of the step from the state (q, v) = (q_k, v_k) and the external impulse
  // p_k (see the header comment).
  bool FreeTerm(const Eigen::VectorXd& q,
                const Eigen::VectorXd& v,
                const Eigen::VectorXd& external_impulse,
                Eigen::VectorXd* f) const;
  // q~ = q + (1-theta) h v: where the gaps of the step are evaluated. The
  // scalar form serves prescribed (driven) coordinates outside the system.
  bool PredictedDisplacement(const Eigen::VectorXd& q,
                             const Eigen::VectorXd& v,
                             Eigen::VectorXd* q_tilde) const;
  double PredictedDisplacement(double q, double v) const;
  // w of the step (size m = H.cols()): w_a = (g_a / h) e_N with g_a = g0_a +
  // [H^T q~]_N,a; initial_gaps g0 has nc = m / 3 entries, or none for zero
  // gaps at q = 0.
  bool GapFreeTerm(const SparseMatrix& H,
                   const Eigen::VectorXd& initial_gaps,
                   const Eigen::VectorXd& q,
                   const Eigen::VectorXd& v,
                   Eigen::VectorXd* w) const;
  // After the solve: q <- q + h ((1-theta) v + theta v_next), v <- v_next. The
  // scalar form returns the new displacement of a prescribed coordinate.
  bool Advance(const Eigen::VectorXd& v_next,
               Eigen::VectorXd* q,
               Eigen::VectorXd* v) const;
  double AdvanceDisplacement(double q, double v, double v_next) const;

 private:
  MoreauJeanOptions options_;
  SparseMatrix M_;  // mass
  SparseMatrix K_;  // stiffness, 0 x 0 when absent
  // Damping given explicitly (without Rayleigh's), 0 x 0 when absent.
  SparseMatrix C_;
  SparseMatrix M_hat_;
};

// Warm start across a change of the contact set. previous_ids (nc_prev
// entries) and ids (nc entries) name the contacts of the previous and of the
// new step; ids are unique within each list, in any order. *guess receives
// previous.v unchanged and, for every new contact b, r_b and u_b of the
// previous contact with the same id, or 0 when there is none (a contact that
// appeared); previous contacts absent from ids are dropped. Returns "" on
// success, otherwise one sentence (sizes of previous.r / previous.u against
// previous_ids, a repeated id) and leaves *guess untouched. previous.u may be
// empty (then guess->u is empty too). guess may alias previous.
std::string RemapContactGuess(const std::vector<std::int64_t>& previous_ids,
                              const Solution& previous,
                              const std::vector<std::int64_t>& ids,
                              Solution* guess);

// *guess = previous + (previous - older), field by field (v, u, r; the
// predictor above). Returns "" on success, otherwise one sentence (a field of
// older whose size differs from previous's: a changed contact set, where
// RemapContactGuess applies instead) and leaves *guess untouched. An empty u
// in both is allowed (then guess->u is empty). guess may alias previous or
// older.
std::string ExtrapolateGuess(const Solution& older,
                             const Solution& previous,
                             Solution* guess);

}  // namespace fcsn

#endif  // FCSN_TIME_STEPPING_H_
