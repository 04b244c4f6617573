// Mixed-precision refinement and fallback state machine (mixed_precision.h).
#include "linalg/mixed_precision.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "linalg/stopwatch.h"

namespace fcsn::internal {
namespace {

// A refinement step must at least halve the residual, else the refinement is
// declared stalled (cond(J) * eps_single is then >~ 0.5 and the
// single-precision factors are useless as a preconditioner).
constexpr double kRefinementContraction = 0.5;

}  // namespace

bool FitsInFloat(const std::vector<double>& values) {
  double largest = 0.0;
  for (double x : values) {
    const double a = std::abs(x);
    if (!(a <= std::numeric_limits<float>::max())) return false;
    largest = std::max(largest, a);
  }
  const double negligible = std::numeric_limits<float>::epsilon() * largest;
  for (double x : values) {
    const double a = std::abs(x);
    if (a != 0.0 && a < std::numeric_limits<float>::min() && a > negligible)
      return false;
  }
  return true;
}

MixedPrecisionFactorization::MixedPrecisionFactorization(
    const LinearSolverOptions& options,
    NumericFactorization* low,
    NumericFactorization* high)
    : refinement_tolerance_(options.refinement_tolerance),
      max_refinement_steps_(options.max_refinement_steps),
      low_(low),
      high_(high) {}

void MixedPrecisionFactorization::Reset(const SparsityPattern* pattern) {
  pattern_ = pattern;
  use_low_ = false;
  factorized_ = false;
  consecutive_fallbacks_ = 0;
}

bool MixedPrecisionFactorization::factorized() const {
  return factorized_ && (use_low_ ? low_->factorized() : high_->factorized());
}

LinearSolverStatus MixedPrecisionFactorization::FactorizeHigh(
    std::string* message) {
  use_low_ = false;
  return high_->Factorize(values_.data(), message);
}

LinearSolverStatus MixedPrecisionFactorization::Factorize(
    const double* values, std::string* message) {
  const LinearSolverStatus status = FactorizeLowOrHigh(values, message);
  factorized_ = status == LinearSolverStatus::kSuccess;
  return status;
}

LinearSolverStatus MixedPrecisionFactorization::FactorizeLowOrHigh(
    const double* values, std::string* message) {
  values_.assign(values, values + pattern_->nnz());
  // Staying in double precision after repeated fallbacks is not a new
  // fallback.
  if (consecutive_fallbacks_ >= kFallbacksBeforeStayingDouble) {
    return FactorizeHigh(message);
  }
  if (FitsInFloat(values_)) {
    const LinearSolverStatus status = low_->Factorize(values_.data(), message);
    if (status == LinearSolverStatus::kSuccess) {
      use_low_ = true;
      norm_inf_ = NormInf();
      return status;
    }
    // Out of memory or invalid input would fail in double too: report them.
    // Singular (or any other failure) in single precision does not mean
    // singular in double precision: let the double factorization decide.
    if (status == LinearSolverStatus::kOutOfMemory ||
        status == LinearSolverStatus::kInvalidInput) {
      return status;
    }
  }
  // Only a fallback that succeeds shows a precision problem; a matrix singular
  // in both arithmetics is the caller's business (e.g. regularization).
  ++precision_fallbacks_;
  const LinearSolverStatus status = FactorizeHigh(message);
  if (status == LinearSolverStatus::kSuccess) ++consecutive_fallbacks_;
  return status;
}

LinearSolverStatus MixedPrecisionFactorization::Solve(Eigen::VectorXd* rhs,
                                                      std::string* message) {
  return Solve(rhs, nullptr, message);
}

LinearSolverStatus MixedPrecisionFactorization::Solve(
    Eigen::VectorXd* rhs,
    const ResidualTest* sufficient,
    std::string* message) {
  if (!use_low_) return high_->Solve(rhs, message);
  if (Refine(rhs, sufficient, message)) {
    consecutive_fallbacks_ = 0;
    return linalg_detail::Report(LinearSolverStatus::kSuccess, "", message);
  }
  // The refinement did not converge: factorize the same values in double
  // precision, and solve with those factors from now on. A kSingular here
  // means J is singular at double-precision round-off although the single
  // factorization did not see it.
  ++precision_fallbacks_;
  const SteadyClock::time_point start = SteadyClock::now();
  const LinearSolverStatus status = FactorizeHigh(message);
  refactorization_seconds_ += SecondsSince(start);
  if (status != LinearSolverStatus::kSuccess) return status;
  ++consecutive_fallbacks_;
  return high_->Solve(rhs, message);
}

LinearSolverStatus MixedPrecisionFactorization::SolveUnrefined(
    Eigen::VectorXd* rhs, std::string* message) {
  return use_low_ ? low_->Solve(rhs, message) : high_->Solve(rhs, message);
}

bool MixedPrecisionFactorization::Refine(Eigen::VectorXd* rhs,
                                         const ResidualTest* sufficient,
                                         std::string* message) {
  b_ = *rhs;
  x_.setZero(pattern_->n);
  residual_ = b_;
  double previous = std::numeric_limits<double>::infinity();
  if (b_.lpNorm<Eigen::Infinity>() == 0.0) {
    rhs->setZero();
    return true;
  }
  for (int step = 0; step < max_refinement_steps_; ++step) {
    if (!residual_.cast<float>().allFinite()) return false;
    correction_ = residual_;
    ++refinement_steps_;
    if (low_->Solve(&correction_, message) != LinearSolverStatus::kSuccess) {
      return false;
    }
    x_ += correction_;
    if (!x_.allFinite()) return false;
    const double error = BackwardError(x_, b_, &residual_);
    if (error <= refinement_tolerance_ ||
        (sufficient != nullptr && (*sufficient)(residual_))) {
      *rhs = x_;
      return true;
    }
    const double norm = residual_.lpNorm<Eigen::Infinity>();
    if (!(norm <= kRefinementContraction * previous) && step > 0) return false;
    previous = norm;
  }
  return false;
}

double MixedPrecisionFactorization::BackwardError(
    const Eigen::VectorXd& x,
    const Eigen::VectorXd& b,
    Eigen::VectorXd* residual) const {
  const SparsityPattern& p = *pattern_;
  *residual = b;
  for (int j = 0; j < p.n; ++j) {
    const double xj = x[j];
    for (int q = p.col_ptr[j]; q < p.col_ptr[j + 1]; ++q) {
      (*residual)[p.row_index[q]] -= values_[q] * xj;
    }
  }
  const double denominator =
      norm_inf_ * x.lpNorm<Eigen::Infinity>() + b.lpNorm<Eigen::Infinity>();
  const double rn = residual->lpNorm<Eigen::Infinity>();
  return denominator > 0 ? rn / denominator : rn;
}

double MixedPrecisionFactorization::NormInf() {
  row_sums_.setZero(pattern_->n);
  for (int q = 0; q < pattern_->nnz(); ++q) {
    row_sums_[pattern_->row_index[q]] += std::abs(values_[q]);
  }
  return row_sums_.maxCoeff();
}

}  // namespace fcsn::internal
