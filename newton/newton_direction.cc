#include "newton/newton_direction.h"

#include <algorithm>
#include <cmath>

#include "newton/early_factorization.h"

namespace fcsn::internal {

int KrylovReuseBudget(int option, int size) {
  if (option != kAutoKrylovReuse) return option;
  // From this size on the reuse was measured to pay: the refine-2 walls
  // (n + m = 51,401; a factorization ~21 inner iterations), where a gravity
  // step factorizes once instead of twice, the elastic bar (25,452; ~13), and,
  // with the gate of FewContactsChanged, the 688-contact walls (9,269; ~14):
  // warm shear steps 153 -> 129 factorizations for the same 153 iterations,
  // 50 cold walls 455 -> 433 (median time per wall -7 % in turns) and an
  // elastic bar of 5,760 8 -> 7. Below, the smallest bars (480: 7 -> 5
  // factorizations for 9 inner iterations, no faster), every FCLib and
  // golden-history problem: they keep the exact Newton iteration
  // (bench/results/krylov_reuse.md).
  constexpr int kAutoMinSize = 5000;
  // The budget of the measurements: a failed attempt costs at most half a
  // factorization at refine 2, and 15 or 20 saved nothing more.
  constexpr int kAutoIterations = 10;
  return size >= kAutoMinSize ? kAutoIterations : 0;
}

int PreviousFactorsBudget(int option) {
  // At every size: the offer's gate already asks for few changed contacts,
  // and a time step at rest then costs a few solves instead of a
  // factorization (688-contact wall, gravity steps: 0.06-0.08 s -> 0.016-0.025
  // s; refine 2: 0.6-0.8 s -> 0.15-0.19 s; bench/results/warm_steps.md).
  constexpr int kAutoIterations = 10;
  return option == kAutoKrylovReuse ? kAutoIterations : option;
}

SystemScales ScalesOf(const SolveRun& run) {
  return SystemScales{
      run.weight_eq, run.weight_contact, run.column_v, run.column_r};
}

int CountChangedContactsUpToRowScales(const NewtonSystem& system,
                                      const SystemScales& scales,
                                      const std::vector<double>& factorized,
                                      double relative,
                                      std::vector<double>* row_scales,
                                      std::vector<double>* workspace) {
  const int n = system.n();
  const int m = system.m();
  const SparsityPattern& pattern = system.pattern();
  const std::vector<double>& values = system.values();
  // (new.old, old.old, new.new) per contact row.
  workspace->assign(3 * m, 0.0);
  for (int j = 0; j < pattern.n; ++j) {
    const double scale =
        scales.weight_contact * (j < n ? scales.column_v : scales.column_r);
    for (int p = pattern.col_ptr[j]; p < pattern.col_ptr[j + 1]; ++p) {
      const int row = pattern.row_index[p] - n;
      if (row < 0) continue;
      const double now = values[p] * scale, then = factorized[p];
      (*workspace)[3 * row] += now * then;
      (*workspace)[3 * row + 1] += then * then;
      (*workspace)[3 * row + 2] += now * now;
    }
  }
  row_scales->assign(m, 1.0);
  int changed = 0;
  for (int a = 0; 3 * a < m; ++a) {
    bool contact_changed = false;
    for (int i = 3 * a; i < 3 * a + 3; ++i) {
      const double cross = (*workspace)[3 * i], then = (*workspace)[3 * i + 1],
                   now = (*workspace)[3 * i + 2];
      // ||now - s then||^2 at the least-squares s = cross / then.
      const double s = then > 0.0 ? cross / then : 0.0;
      const double residual = now - s * cross;
      if (s > 0.0 && residual <= relative * relative * s * s * then) {
        (*row_scales)[i] = s;
      } else if (!(then == 0.0 && now == 0.0)) {
        contact_changed = true;
      }
    }
    changed += contact_changed;
  }
  return changed;
}

bool EquilibriumRowsChanged(const NewtonSystem& system,
                            const SystemScales& scales,
                            const std::vector<double>& factorized,
                            double relative) {
  const int n = system.n();
  const SparsityPattern& pattern = system.pattern();
  const std::vector<double>& values = system.values();
  double change = 0.0, norm = 0.0;
  for (int j = 0; j < pattern.n; ++j) {
    const double scale =
        scales.weight_eq * (j < n ? scales.column_v : scales.column_r);
    for (int p = pattern.col_ptr[j]; p < pattern.col_ptr[j + 1]; ++p) {
      if (pattern.row_index[p] >= n) continue;
      const double difference = values[p] * scale - factorized[p];
      change += difference * difference;
      norm += factorized[p] * factorized[p];
    }
  }
  return !(change <= relative * relative * norm);
}

LinearSolverStatus NewtonDirection::Compute(const SolverOptions& options,
                                            const NewtonSystem& system,
                                            LinearSolver* linear,
                                            const SolveRun& run,
                                            const Eigen::VectorXd& DG,
                                            double merit,
                                            std::string* message) {
  regularized_ = false;
  // The merit of the previous iterate, for MayReuse and the forcing term.
  const double previous_merit = previous_merit_;
  previous_merit_ = merit;
  const Iterate at{options, system, linear, run, DG, merit};
  if (TryEarlyFactors(at, message) || TryReusedFactors(at, previous_merit)) {
    return LinearSolverStatus::kSuccess;
  }
  return FactorizeAndSolve(at, message);
}

bool NewtonDirection::TryEarlyFactors(const Iterate& at, std::string* message) {
  if (!AdoptEarlyFactors(at.system, at.run)) return false;
  if (Solve(at.linear, at.run, at.DG, at.options.tolerance, message) !=
      LinearSolverStatus::kSuccess) {
    transformed_ = false;  // J is factorized instead
    return false;
  }
  reusable_factors_ = true;
  // P0's transform is this solve's: not offered to the next solve.
  factors_generation_ = -1;
  slope_ = -at.merit * at.merit;
  return true;
}

bool NewtonDirection::TryReusedFactors(const Iterate& at,
                                       double previous_merit) {
  const double tolerance = at.options.tolerance;
  const int previous_budget =
      PreviousFactorsBudget(at.options.krylov_reuse_iterations);
  if (MayReusePrevious(previous_budget, at.system, *at.linear, at.run)) {
    return ReuseFactors(
        at.system,
        at.linear,
        at.run,
        at.DG,
        previous_budget,
        ForcingTerm(at.merit, /*previous_merit=*/0.0, tolerance));
  }
  const int budget = KrylovReuseBudget(at.options.krylov_reuse_iterations,
                                       at.system.n() + at.system.m());
  if (!MayReuse(budget, at.run, at.merit, previous_merit) ||
      !FewContactsChanged(at.system, budget)) {
    return false;
  }
  ComposeRowScales(at.system);
  return ReuseFactors(at.system,
                      at.linear,
                      at.run,
                      at.DG,
                      budget,
                      ForcingTerm(at.merit, previous_merit, tolerance));
}

LinearSolverStatus NewtonDirection::FactorizeAndSolve(const Iterate& at,
                                                      std::string* message) {
  const bool may_regularize = at.options.singular_regularization > 0.0;
  const double tolerance = at.options.tolerance;
  LinearSolverStatus status =
      Factorize(may_regularize, at.system, at.linear, at.run, message);
  previous_singular_ = status == LinearSolverStatus::kSingular;
  if (status == LinearSolverStatus::kSingular && may_regularize) {
    status = FactorizeRegularized(at, message);
  }
  if (status == LinearSolverStatus::kSuccess)
    status = Solve(at.linear, at.run, at.DG, tolerance, message);
  // Mixed precision can find J singular only in Solve(), when its
  // double-precision refactorization sees what the single one did not.
  if (status == LinearSolverStatus::kSingular && may_regularize &&
      !regularized_) {
    previous_singular_ = true;
    status = FactorizeRegularized(at, message);
    if (status == LinearSolverStatus::kSuccess)
      status = Solve(at.linear, at.run, at.DG, tolerance, message);
  }
  reusable_factors_ = status == LinearSolverStatus::kSuccess;
  if (status != LinearSolverStatus::kSuccess) return status;
  RecordFactors(*at.linear);
  // Slope of the merit along d: exact direction -> -||DG||^2; regularized ->
  // (DG)^T D J d.
  slope_ = -at.merit * at.merit;
  if (regularized_) {
    at.system.Multiply(d_, &Jd_);
    DJd_.resize(Jd_.size());
    Weigh(at.run, Jd_, &DJd_);
    slope_ = at.DG.dot(DJd_);
  }
  return status;
}

bool NewtonDirection::MayReuse(int budget,
                               const SolveRun& run,
                               double merit,
                               double previous_merit) const {
  // Only while the merit contracts at least this much per iteration: there the
  // iteration is local and an inexact direction keeps its rate; elsewhere
  // inexact directions led the semismooth iteration into a cycle (100
  // iterations instead of 10 on a refine-2 wall shear step,
  // bench/results/krylov_reuse.md).
  constexpr double kContraction = 0.5;
  // M distributed: the products by J are collective and FGMRES' decisions
  // would have to agree over the ranks; not supported (documented at
  // SolverOptions::krylov_reuse_iterations).
  return budget > 0 && reusable_factors_ && !run.m->collective() &&
         merit <= kContraction * previous_merit;
}

bool NewtonDirection::MayReusePrevious(int budget,
                                       const NewtonSystem& system,
                                       const LinearSolver& linear,
                                       const SolveRun& run) {
  if (!offered_) return false;
  offered_ = false;
  // Round-off of the rescaled entries is ~1e-16; this leaves room for a
  // caller that re-assembles the same M and H in another order, and refuses
  // any change of the matrices themselves, which would touch every row.
  constexpr double kSameEquilibriumRows = 1e-8;
  const LinearSolverStats& stats = linear.stats();
  if (budget <= 0 || run.m->collective() ||
      factors_generation_ != stats.analyses + stats.factorizations ||
      scaled_values_.size() != system.values().size() ||
      EquilibriumRowsChanged(
          system, factored_scales_, scaled_values_, kSameEquilibriumRows) ||
      !FewContactsChanged(system, budget)) {
    return false;
  }
  // The factors' D0 and C0 to this solve's D and C, then the row factors.
  const int n = system.n();
  const int m = system.m();
  const SystemScales now = ScalesOf(run);
  transformed_ = true;
  transform_rows_.resize(n + m);
  transform_rows_.head(n).setConstant(now.weight_eq /
                                      factored_scales_.weight_eq);
  transform_rows_.tail(m).setConstant(now.weight_contact /
                                      factored_scales_.weight_contact);
  transform_column_v_ = now.column_v / factored_scales_.column_v;
  transform_column_r_ = now.column_r / factored_scales_.column_r;
  ComposeRowScales(system);
  return true;
}

void NewtonDirection::RecordFactors(const LinearSolver& linear) {
  factors_generation_ = linear.stats().analyses + linear.stats().factorizations;
}

bool NewtonDirection::FewContactsChanged(const NewtonSystem& system,
                                         int budget) {
  if (scaled_values_.size() != system.values().size()) return false;
  // Rows changed by less than this fraction barely matter at eta <= 0.01.
  constexpr double kChangedRow = 1e-2;
  // Inner iterations FGMRES needs per contact changed beyond kChangedRow: up
  // to 3 (its rows), ~2 measured. Probed attempts (bench/results/
  // krylov_reuse.md, K = 10): with at most 5 such contacts FGMRES met eta
  // within K in 33 of 34 (refine-2 cold and warm shear and gravity steps,
  // 688-contact walls); with more, in 2 of 78 on cold refine-2 shear steps
  // (the waste this gate removes), 8 of 19 on warm ones, 5 of 17 on the
  // elastic bar (the wins it gives up).
  constexpr int kIterationsPerContact = 2;
  // Up to a factor per row: rho's boost multiplies a closed contact's normal
  // row and a sticking one's rows (the tail boost within a solve; a warm
  // solve starts under RhoOptions::warm_initial_boost where the previous one
  // ended under the tail boost), which ComposeRowScales() absorbs.
  const int changed = CountChangedContactsUpToRowScales(system,
                                                        factored_scales_,
                                                        scaled_values_,
                                                        kChangedRow,
                                                        &row_scales_,
                                                        &contact_changes_);
  return kIterationsPerContact * changed <= budget;
}

void NewtonDirection::ComposeRowScales(const NewtonSystem& system) {
  const int n = system.n();
  const int m = system.m();
  if (!transformed_) {
    transformed_ = true;
    transform_rows_.setOnes(n + m);
    transform_column_v_ = 1.0;
    transform_column_r_ = 1.0;
  }
  for (int i = 0; i < m; ++i) transform_rows_[n + i] *= row_scales_[i];
}

double NewtonDirection::ForcingTerm(double merit,
                                    double previous_merit,
                                    double tolerance) {
  // Eisenstat-Walker choice 2 with their gamma = 0.9, alpha = 2: eta follows
  // the square of the merit's contraction, so the inexact iteration keeps the
  // rate of the exact one. Their safeguard max(eta_k, gamma eta_{k-1}^2)
  // only acts above 0.1, beyond kMaxForcing, and is left out.
  constexpr double kGamma = 0.9;
  constexpr double kAlpha = 2.0;
  // 0.1 gave 10-13 Newton iterations instead of 7 on the refine-2 warm shear
  // steps, 0.03 up to 12; 0.01 keeps the count (bench/results/krylov_reuse.md).
  constexpr double kMaxForcing = 1e-2;
  // No oversolving: eta_k >= SufficientResidual(tol) / ||D G_k||.
  const double eta = kGamma * std::pow(merit / previous_merit, kAlpha);
  const double floor =
      merit > 0.0 ? SufficientResidual(tolerance) / merit : 0.0;
  return std::min(kMaxForcing, std::max(eta, floor));
}

double NewtonDirection::SufficientResidual(double tolerance) {
  // No oversolving (Kelley, Iterative Methods for Linear and Nonlinear
  // Equations, SIAM 1995, §6.3): a linear residual below the order of the
  // tolerance cannot make the last iterate more converged; the merit is the
  // weighted residual, of the order of the relative measures the tolerance
  // bounds. Kelley takes 0.5 tol; 1 tol took the second iteration of the
  // refine-2 gravity steps from 6-8 FGMRES iterations to 4-6 (0.5: 6) with
  // §9.1 errors <= 2e-10 at tol 1e-8, and changed no count on the refine-2
  // shear steps (bench/results/early_factorization.md).
  constexpr double kOversolving = 1.0;
  return kOversolving * tolerance;
}

void NewtonDirection::MultiplyScaled(const NewtonSystem& system,
                                     const SolveRun& run,
                                     const Eigen::VectorXd& y,
                                     Eigen::VectorXd* DJCy) {
  const int n = run.problem->n();
  const int m = run.problem->m();
  Cy_ = y;
  Cy_.head(n) *= run.column_v;
  Cy_.tail(m) *= run.column_r;
  system.Multiply(Cy_, &Jd_);
  DJCy->resize(Jd_.size());
  Weigh(run, Jd_, DJCy);
}

bool NewtonDirection::ReuseFactors(const NewtonSystem& system,
                                   LinearSolver* linear,
                                   const SolveRun& run,
                                   const Eigen::VectorXd& DG,
                                   int budget,
                                   double eta) {
  SolverSummary& summary = *run.summary;
  ScopedTimer timer(&summary.timings.linear_solve);
  auto multiply = [&](const Eigen::VectorXd& y, Eigen::VectorXd* out) {
    MultiplyScaled(system, run, y, out);
  };
  std::string ignored;  // a failed preconditioner only means: factorize
  auto precondition = [&](Eigen::VectorXd* x) {
    ++summary.linear_solves;
    return SolveFactors(linear, run, /*refined=*/false, 0.0, x, &ignored);
  };
  const Eigen::VectorXd b = -DG;
  const GmresResult result =
      Gmres(multiply,
            precondition,
            b,
            GmresOptions{budget, eta, /*give_up_early=*/true},
            &y_);
  summary.krylov_iterations += result.iterations;
  if (result.status != LinearSolverStatus::kSuccess) {
    reusable_factors_ = false;
    return false;
  }
  if (!result.converged) return false;
  // The true residual: FGMRES' recurrence only estimates it.
  MultiplyScaled(system, run, y_, &DJd_);
  if (!((DJd_ - b).norm() <= eta * b.norm())) return false;
  d_ = y_;
  d_.head(run.problem->n()) *= run.column_v;
  d_.tail(run.problem->m()) *= run.column_r;
  slope_ = DG.dot(DJd_);
  // The factors serve once: from two iterates back they rarely met eta on
  // the walls, and chains of reused directions cycled
  // (bench/results/krylov_reuse.md).
  reusable_factors_ = false;
  ++summary.reused_factor_directions;
  return true;
}

LinearSolverStatus NewtonDirection::Factorize(bool may_regularize,
                                              const NewtonSystem& system,
                                              LinearSolver* linear,
                                              const SolveRun& run,
                                              std::string* message) {
  SolverSummary& summary = *run.summary;
  ScopedTimer timer(&summary.timings.factorization);
  transformed_ = false;
  system.ScaledValues(run.weight_eq,
                      run.weight_contact,
                      run.column_v,
                      run.column_r,
                      &scaled_values_);
  factored_scales_ = ScalesOf(run);
  // A J found singular at the previous iteration almost always is again (the
  // sticking set changes slowly): go straight to the regularized matrix and
  // save a failed factorization.
  if (may_regularize && previous_singular_)
    return LinearSolverStatus::kSingular;
  ++summary.factorizations;
  return linear->Factorize(scaled_values_.data(), message);
}

LinearSolverStatus NewtonDirection::FactorizeRegularized(const Iterate& at,
                                                         std::string* message) {
  SolverSummary& summary = *at.run.summary;
  ScopedTimer timer(&summary.timings.factorization);
  // delta is floored where MUMPS' null-pivot test would still fire on
  // round-off (B is O(1)), and grown by 100 while J + delta E stays singular.
  constexpr double kMinDelta = 1e-12;
  constexpr int kMaxTries = 3;
  constexpr double kGrowth = 100.0;
  double delta = std::max(
      kMinDelta, at.options.singular_regularization * std::min(1.0, at.merit));
  LinearSolverStatus status = LinearSolverStatus::kSingular;
  for (int attempt = 0;
       attempt < kMaxTries && status == LinearSolverStatus::kSingular;
       ++attempt, delta *= kGrowth) {
    transformed_ = false;
    regularized_values_ = scaled_values_;
    for (int slot : at.system.contact_diagonal_slots())
      regularized_values_[slot] += delta;
    status = at.linear->Factorize(regularized_values_.data(), message);
    ++summary.factorizations;
    ++summary.regularized_factorizations;
    regularized_ = true;
  }
  return status;
}

bool NewtonDirection::AdoptEarlyFactors(const NewtonSystem& system,
                                        const SolveRun& run) {
  EarlyFactors* early = run.early_factors;
  if (early == nullptr || !early->ready) return false;
  early->ready = false;  // the factors serve this iterate or none
  system.ScaledValues(run.weight_eq,
                      run.weight_contact,
                      run.column_v,
                      run.column_r,
                      &scaled_values_);
  factored_scales_ = ScalesOf(run);
  // P0 is unscaled (early_factorization.h): R = C.
  transformed_ = DiagonallyEquivalent(system.pattern(),
                                      system.n(),
                                      scaled_values_,
                                      early->values,
                                      run.column_v,
                                      run.column_r,
                                      &transform_rows_);
  transform_column_v_ = run.column_v;
  transform_column_r_ = run.column_r;
  if (transformed_) ++run.summary->early_factorizations_used;
  return transformed_;
}

LinearSolverStatus NewtonDirection::SolveFactors(LinearSolver* linear,
                                                 const SolveRun& run,
                                                 bool refined,
                                                 double sufficient_residual,
                                                 Eigen::VectorXd* x,
                                                 std::string* message) {
  if (transformed_) x->array() /= transform_rows_.array();
  // The residual of the factorized system, in the scaled system's units:
  // P0's residual r0 is L^-1 times the scaled system's.
  auto sufficient = [&](const Eigen::VectorXd& r) {
    const double norm =
        transformed_ ? (r.array() * transform_rows_.array()).matrix().norm()
                     : r.norm();
    return norm <= sufficient_residual;
  };
  const LinearSolverStatus status = refined
                                        ? linear->Solve(x, message, sufficient)
                                        : linear->SolveUnrefined(x, message);
  if (transformed_) {
    x->head(run.problem->n()) /= transform_column_v_;
    x->tail(run.problem->m()) /= transform_column_r_;
  }
  return status;
}

LinearSolverStatus NewtonDirection::Solve(LinearSolver* linear,
                                          const SolveRun& run,
                                          const Eigen::VectorXd& DG,
                                          double tolerance,
                                          std::string* message) {
  SolverSummary& summary = *run.summary;
  ScopedTimer timer(&summary.timings.linear_solve);
  const int n = run.problem->n();
  const int m = run.problem->m();
  d_ = -DG;
  LinearSolverStatus status = SolveFactors(linear,
                                           run,
                                           /*refined=*/true,
                                           SufficientResidual(tolerance),
                                           &d_,
                                           message);
  ++summary.linear_solves;
  d_.head(n) *= run.column_v;
  d_.tail(m) *= run.column_r;
  if (status == LinearSolverStatus::kSuccess && !d_.allFinite()) {
    status = LinearSolverStatus::kFailure;
    *message = "the Newton direction is not finite";
  }
  return status;
}

}  // namespace fcsn::internal
