// newton/newton_direction.h: the Newton direction of one iteration.
//
// With the row weights D and column scales C of newton/solve_run.h, the
// direction solves the scaled system
//
//   (D J C) y = -D G,   d = C y,
//
// by one numeric factorization of D J C on the analysed pattern and one solve.
// A solve on single-precision factors refined in double precision
// (FactorizationPrecision::kMixed) stops refining once
//
//   ||D G + D J C y|| <= SufficientResidual(tol) = tol
//
// (or at its own backward-error target, whichever comes first): a linear
// residual below the order of the tolerance cannot make the iterate more
// converged, the rule of the forcing term's floor below.
// When D J C is singular (rank-deficient H with sticking contacts) and
// SolverOptions::singular_regularization = delta0 > 0, the proximal matrix
//
//   D J C + delta E,   E the identity on the contact rows/columns (B blocks),
//   delta = max(1e-12, delta0 min(1, ||D G||)), times 100 per retry (3 tries),
//
// is factored instead. A J found singular at the previous iteration goes
// straight to the regularized matrix. Mixed precision can find J singular only
// in the solve (its double-precision refactorization); the regularization is
// then tried once more.
//
// With SolverOptions::krylov_reuse_iterations = K > 0, an iteration k >= 1 of
// a run first tries the factors of the previous iterate's J (possibly
// regularized) as the preconditioner P of FGMRES (linalg/gmres.h) on
// D J C y = -D G, P^-1 one unrefined solve (LinearSolver::SolveUnrefined):
// only contact rows change between iterates, so P^-1 D J C is close to the
// identity. The direction is accepted when the true relative residual
//
//   ||D G + D J C y|| <= eta_k ||D G||
//
// within K inner iterations (an inexact Newton direction; FGMRES gives up
// earlier when its rate predicts K will not do); otherwise J is factorized as
// above. K is KrylovReuseBudget(options, n + m) (kAutoKrylovReuse: 10 from
// n + m = 5,000 on, 0 below). eta_k is the Eisenstat-Walker choice 2 (SIAM J. Sci. Comput. 17,
// 1996), which keeps the local superlinear rate of the exact iteration, with
// Kelley's floor against oversolving near the tolerance tol: eta_k is the
// larger of 0.9 (||D G_k|| / ||D G_{k-1}||)^2 and tol / ||D G_k||, at most
// 0.01.
// Tried only
//   * while the merit contracts: ||D G_k|| <= 0.5 ||D G_{k-1}|| (the local
//     regime of inexact Newton theory);
//   * when few contacts changed their rows of J since the factorization:
//     P^-1 D J_k C = I + P^-1 (D (J_k - J_{k-1}) C), whose second term has
//     rank <= the number of changed rows, and FGMRES needs at most that rank
//     + 1 iterations. At most K/2 contacts may have rows changed by more than
//     1 % up to a factor s_i per row (CountChangedContactsUpToRowScales);
//     otherwise the attempt would most likely fail and its inner iterations
//     be wasted (cold steps). The factors s_i (rho's boost: the tail boost
//     multiplies a sticking contact's rows and a closed one's normal row) are
//     applied with P: D J_k C is about S P, S = diag(1 on v, s_i on r);
//   * once per factorization: the factors are those of iterate k - 1;
//   * when M is not distributed (the products by J are collective there).
// The constants are measured choices, see newton_direction.cc.
//
// The first direction of a run that starts from the caller's guess right
// after a converged Newton run of the previous Solve() (time stepping: one
// Solver, a guess from the previous step) may likewise try the factors of
// that run's last factorized J, when the linear solver still holds them (no
// analysis or factorization since) and
//   * the equilibrium rows [M, -H] are those of the factors (relative
//     Frobenius change <= 1e-8 after the scales: the caller kept M and H);
//   * at most K/2 contacts changed their rows by more than 1 % up to a
//     factor s_i per row (CountChangedContactsUpToRowScales): the new solve
//     starts under RhoOptions::warm_initial_boost where the previous one
//     ended under the tail boost, which multiplies a sticking contact's rows
//     and a closed one's normal row;
// D and C are the new solve's: with D0, C0 the factors', D J C is about
// L P R for P = D0 J0 C0, L = D D0^-1 S (S = diag(1 on v, s_i on r)) and
// R = C0^-1 C (block scalars), so P^-1 is applied as R^-1 P^-1 L^-1, as for
// the early factors below. K is PreviousFactorsBudget (10 at every size by
// default), the forcing term the largest, 0.01 (no previous merit). A
// refusal or a failed FGMRES leaves the iteration as without the offer.
//
// The first direction of a run may use J's early factorization
// (SolveRun::early_factors, newton/early_factorization.h): when D J C is
// L P0 R for the factorized P0, the direction is C R^-1 P0^-1 L^-1 applied
// to -D G, and the next iteration's FGMRES preconditions with R^-1 P0^-1
// L^-1 likewise; it counts as that iteration's factorization (done on the
// setup thread).
//
// The slope of the merit theta = 1/2 ||D G||^2 along d: -||D G||^2 for an
// exact direction, (D G)^T D J d for a regularized or inexact one.
//
// Usage (inside the Newton driver, J evaluated at the iterate):
//   NewtonDirection direction;
//   direction.Reset();                       // at the start of a Newton run
//   std::string message;
//   if (direction.Compute(options, &system, linear, run, DG, merit, &message)
//       != LinearSolverStatus::kSuccess) { ... }
//   use direction.d(), direction.slope()
#ifndef FCSN_NEWTON_NEWTON_DIRECTION_H_
#define FCSN_NEWTON_NEWTON_DIRECTION_H_

#include <Eigen/Core>
#include <string>
#include <vector>

#include "fcsn/options.h"
#include "linalg/gmres.h"
#include "linalg/linear_solver.h"
#include "newton/newton_system.h"
#include "newton/solve_run.h"

namespace fcsn::internal {

// K of SolverOptions::krylov_reuse_iterations = `option` (kAutoKrylovReuse
// resolved) for a Newton system of `size` = n + m unknowns; 0: off.
int KrylovReuseBudget(int option, int size);
// K of the first direction offered the previous solve's factors
// (NewtonDirection::OfferPreviousFactors): `option` with kAutoKrylovReuse
// resolved to 10 at every size; 0: off.
int PreviousFactorsBudget(int option);

// The diagonal scalings D (weight_eq, weight_contact) and C (column_v,
// column_r) of a scaled system D J C (newton/solve_run.h).
struct SystemScales {
  double weight_eq = 1.0;
  double weight_contact = 1.0;
  double column_v = 1.0;
  double column_r = 1.0;
};
SystemScales ScalesOf(const SolveRun& run);

// Number of contacts a whose rows of D J C (the current values of `system`,
// scaled by `scales`, those of `factorized`) changed since `factorized`
// (NewtonSystem::ScaledValues when J was factorized), up to a positive factor
// per row: row i of D J C is compared with s_i times row i of `factorized`,
// s_i = <row_i(D J C), row_i(factorized)> / ||row_i(factorized)||^2 its
// least-squares factor; a contact changed when one of its rows has
//   ||row_i(D J C) - s_i row_i(factorized)||_2 > relative s_i ||row_i(factorized)||_2
// or s_i <= 0 (a row that is zero in both is unchanged). (*row_scales)[i] is
// s_i for the rows that match, 1 for the others (m entries); *workspace holds
// per-row sums (resized; allocation-free when sized).
int CountChangedContactsUpToRowScales(const NewtonSystem& system,
                                      const SystemScales& scales,
                                      const std::vector<double>& factorized,
                                      double relative,
                                      std::vector<double>* row_scales,
                                      std::vector<double>* workspace);

// Whether the equilibrium rows (the first n) of D J C, scaled by `scales`,
// differ from those of `factorized` by more than `relative` in the Frobenius
// norm: ||rows_eq(D J C) - rows_eq(factorized)||_F >
// relative ||rows_eq(factorized)||_F.
bool EquilibriumRowsChanged(const NewtonSystem& system,
                            const SystemScales& scales,
                            const std::vector<double>& factorized,
                            double relative);

class NewtonDirection {
 public:
  // Forgets the previous iteration's singular J (a new Newton run or rho).
  void Reset() {
    previous_singular_ = false;
    reusable_factors_ = false;
    previous_merit_ = 0.0;
    transformed_ = false;
    offered_ = false;
  }

  // After Reset() at the start of a run from the caller's guess that follows
  // a converged run of the previous solve: the first direction may try that
  // run's last factors (the header comment).
  void OfferPreviousFactors() { offered_ = true; }

  // The direction at the iterate whose J the system holds (Evaluate with the
  // Jacobian) and whose weighted residual is DG, merit = ||DG||. Counts
  // factorizations, regularized factorizations and solves into
  // run.summary, times them, and on failure returns the status with
  // *message set.
  LinearSolverStatus Compute(const SolverOptions& options,
                             const NewtonSystem& system,
                             LinearSolver* linear,
                             const SolveRun& run,
                             const Eigen::VectorXd& DG,
                             double merit,
                             std::string* message);

  const Eigen::VectorXd& d() const { return d_; }
  double slope() const { return slope_; }

  // eta_k (the header comment) from the merits ||D G_k|| of the iterate and
  // ||D G_{k-1}|| of the previous one, and the solve's tolerance.
  static double ForcingTerm(double merit,
                            double previous_merit,
                            double tolerance);
  // The linear residual ||D G + D J C y|| below which a direction is solved
  // beyond need at the solve's tolerance (the floor of ForcingTerm).
  static double SufficientResidual(double tolerance);

 private:
  // What one Compute() call works on: the options, the system at the iterate,
  // the linear solver, the run, the iterate's weighted residual DG and its
  // norm (the merit).
  struct Iterate {
    const SolverOptions& options;
    const NewtonSystem& system;
    LinearSolver* linear;
    const SolveRun& run;
    const Eigen::VectorXd& DG;
    double merit;
  };

  // True with d and slope set when the early factors (AdoptEarlyFactors) give
  // the direction.
  bool TryEarlyFactors(const Iterate& at, std::string* message);
  // True with d and slope set when FGMRES on the previous solve's factors
  // (MayReusePrevious) or on the previous iterate's (MayReuse) gives the
  // direction.
  bool TryReusedFactors(const Iterate& at, double previous_merit);
  // D J C factored (regularized when singular) and the direction solved.
  LinearSolverStatus FactorizeAndSolve(const Iterate& at, std::string* message);
  // D J C factored unless the last J was singular and may be regularized.
  LinearSolverStatus Factorize(bool may_regularize,
                               const NewtonSystem& system,
                               LinearSolver* linear,
                               const SolveRun& run,
                               std::string* message);
  // Factors D J C + delta E, growing delta while it stays singular.
  LinearSolverStatus FactorizeRegularized(const Iterate& at,
                                          std::string* message);
  // Whether the iterate of weighted residual norm `merit` tries the last
  // factors (the conditions in the header comment).
  bool MayReuse(int budget,
                const SolveRun& run,
                double merit,
                double previous_merit) const;
  // Whether few enough contacts changed since the factorization, up to a
  // factor per row (row_scales_ set), for FGMRES to be expected within
  // `budget` iterations (the header comment).
  bool FewContactsChanged(const NewtonSystem& system, int budget);
  // Multiplies the transform's contact rows by row_scales_ (from the identity
  // when there is none): the factors then stand for the current rows.
  void ComposeRowScales(const NewtonSystem& system);
  // Whether the first iterate of the run may try the previous solve's factors
  // (OfferPreviousFactors() and the conditions of the header comment); sets
  // the transform L, R when it may.
  bool MayReusePrevious(int budget,
                        const NewtonSystem& system,
                        const LinearSolver& linear,
                        const SolveRun& run);
  // Records the linear solver's count of analyses and factorizations right
  // after D J C = scaled_values_ was factored (factors_generation_).
  void RecordFactors(const LinearSolver& linear);
  // True and d, slope set when FGMRES on the last factors reaches eta within
  // `budget` iterations; false (and the factors not reusable after a
  // preconditioner failure) otherwise.
  bool ReuseFactors(const NewtonSystem& system,
                    LinearSolver* linear,
                    const SolveRun& run,
                    const Eigen::VectorXd& DG,
                    int budget,
                    double eta);
  // *DJCy = D J C y with the current values of J.
  void MultiplyScaled(const NewtonSystem& system,
                      const SolveRun& run,
                      const Eigen::VectorXd& y,
                      Eigen::VectorXd* DJCy);
  // True when run.early_factors holds usable factors of P0 with D J C =
  // L P0 R at this iterate (consumed either way); sets the transform.
  bool AdoptEarlyFactors(const NewtonSystem& system, const SolveRun& run);
  // x := P^-1 x with the linear solver's factors P (unrefined or refined),
  // through L and R when transformed_. A refined solve may stop
  // once its residual, in the units of D J C, has a 2-norm <=
  // sufficient_residual (LinearSolver::Solve).
  LinearSolverStatus SolveFactors(LinearSolver* linear,
                                  const SolveRun& run,
                                  bool refined,
                                  double sufficient_residual,
                                  Eigen::VectorXd* x,
                                  std::string* message);
  // The direction d = C y with (D J C) y = -D G on the current factors, to a
  // residual of at most SufficientResidual(tolerance) or a refined solve's
  // accuracy.
  LinearSolverStatus Solve(LinearSolver* linear,
                           const SolveRun& run,
                           const Eigen::VectorXd& DG,
                           double tolerance,
                           std::string* message);

  // D J C when J was last factorized (before any regularization).
  std::vector<double> scaled_values_, regularized_values_;
  std::vector<double> contact_changes_;  // the row comparisons' workspace
  std::vector<double> row_scales_;       // of the previous solve's factors
  Eigen::VectorXd d_, Jd_, DJd_, Cy_, y_;
  double slope_ = 0.0;
  bool previous_singular_ = false;
  bool regularized_ = false;
  // The linear solver holds the factors of the previous iterate's J (or of
  // its regularized matrix), not yet reused.
  bool reusable_factors_ = false;
  double previous_merit_ = 0.0;  // ||D G|| at the previous Compute()
  // The scales of scaled_values_, and the linear solver's analyses +
  // factorizations right after its factors were made (-1: none).
  SystemScales factored_scales_;
  long long factors_generation_ = -1;
  // OfferPreviousFactors() was called and the run's first Compute() is to come.
  bool offered_ = false;
  // The factors P are applied as R^-1 P^-1 L^-1: D J C = L P R with L =
  // transform_rows_ and R = (transform_column_v_ on v, transform_column_r_ on
  // r); P is the early P0 or the previous solve's D0 J0 C0.
  bool transformed_ = false;
  Eigen::VectorXd transform_rows_;
  double transform_column_v_ = 1.0, transform_column_r_ = 1.0;
};

}  // namespace fcsn::internal

#endif  // FCSN_NEWTON_NEWTON_DIRECTION_H_
