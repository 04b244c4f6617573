#include "newton/newton_direction.h"

#include <algorithm>

namespace fcsn::internal {

LinearSolverStatus NewtonDirection::Compute(const SolverOptions& options,
                                            const NewtonSystem& system,
                                            LinearSolver* linear,
                                            const SolveRun& run,
                                            const Eigen::VectorXd& DG,
                                            double merit,
                                            std::string* message) {
  const bool may_regularize = options.singular_regularization > 0.0;
  regularized_ = false;
  LinearSolverStatus status =
      Factorize(may_regularize, system, linear, run, message);
  previous_singular_ = status == LinearSolverStatus::kSingular;
  if (status == LinearSolverStatus::kSingular && may_regularize) {
    status = FactorizeRegularized(options, system, linear, run, merit, message);
  }
  if (status == LinearSolverStatus::kSuccess)
    status = Solve(linear, run, DG, message);
  // Mixed precision can find J singular only in Solve(), when its
  // double-precision refactorization sees what the single one did not.
  if (status == LinearSolverStatus::kSingular && may_regularize &&
      !regularized_) {
    previous_singular_ = true;
    status = FactorizeRegularized(options, system, linear, run, merit, message);
    if (status == LinearSolverStatus::kSuccess)
      status = Solve(linear, run, DG, message);
  }
  if (status != LinearSolverStatus::kSuccess) return status;
  // Slope of the merit along d: exact direction -> -||DG||^2; regularized ->
  // (DG)^T D J d.
  slope_ = -merit * merit;
  if (regularized_) {
    system.Multiply(d_, &Jd_);
    DJd_.resize(Jd_.size());
    Weigh(run, Jd_, &DJd_);
    slope_ = DG.dot(DJd_);
  }
  return status;
}

LinearSolverStatus NewtonDirection::Factorize(bool may_regularize,
                                              const NewtonSystem& system,
                                              LinearSolver* linear,
                                              const SolveRun& run,
                                              std::string* message) {
  SolverSummary& summary = *run.summary;
  ScopedTimer timer(&summary.timings.factorization);
  system.ScaledValues(run.weight_eq,
                      run.weight_contact,
                      run.column_v,
                      run.column_r,
                      &scaled_values_);
  // A J found singular at the previous iteration almost always is again (the
  // sticking set changes slowly): go straight to the regularized matrix and
  // save a failed factorization.
  if (may_regularize && previous_singular_)
    return LinearSolverStatus::kSingular;
  ++summary.factorizations;
  return linear->Factorize(scaled_values_.data(), message);
}

LinearSolverStatus NewtonDirection::FactorizeRegularized(
    const SolverOptions& options,
    const NewtonSystem& system,
    LinearSolver* linear,
    const SolveRun& run,
    double merit,
    std::string* message) {
  SolverSummary& summary = *run.summary;
  ScopedTimer timer(&summary.timings.factorization);
  // delta is floored where MUMPS' null-pivot test would still fire on
  // round-off (B is O(1)), and grown by 100 while J + delta E stays singular.
  constexpr double kMinDelta = 1e-12;
  constexpr int kMaxTries = 3;
  constexpr double kGrowth = 100.0;
  double delta = std::max(
      kMinDelta, options.singular_regularization * std::min(1.0, merit));
  LinearSolverStatus status = LinearSolverStatus::kSingular;
  for (int attempt = 0;
       attempt < kMaxTries && status == LinearSolverStatus::kSingular;
       ++attempt, delta *= kGrowth) {
    regularized_values_ = scaled_values_;
    for (int slot : system.contact_diagonal_slots())
      regularized_values_[slot] += delta;
    status = linear->Factorize(regularized_values_.data(), message);
    ++summary.factorizations;
    ++summary.regularized_factorizations;
    regularized_ = true;
  }
  return status;
}

LinearSolverStatus NewtonDirection::Solve(LinearSolver* linear,
                                          const SolveRun& run,
                                          const Eigen::VectorXd& DG,
                                          std::string* message) {
  SolverSummary& summary = *run.summary;
  ScopedTimer timer(&summary.timings.linear_solve);
  const int n = run.problem->n();
  const int m = run.problem->m();
  d_ = -DG;
  LinearSolverStatus status = linear->Solve(&d_, message);
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
