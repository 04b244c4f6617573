// linalg/mixed_precision.h: a single-precision LU refined to double-precision
// accuracy, falling back to a double-precision LU when the refinement fails
// (LinearSolverOptions::precision = kMixed; the scheme of LAPACK's DSGESV).
//
// MixedPrecisionFactorization decorates two numeric factorizations of the
// same analysed pattern: `low` (single precision: half the memory traffic of
// the dense kernels) and `high` (double precision). It knows neither MUMPS nor
// any other backend; it only needs NumericFactorization. With J the double
// values given to Factorize():
//
//   Factorize(J): LU_low of J, unless J does not fit in float (FitsInFloat) or
//                 LU_low fails: then LU_high of J (a "fallback").
//   Solve(b):     with LU_low,  x = 0, r = b, repeat
//                   x += LU_low^-1 r,   r = b - J x   (r in double)
//                 until the normwise backward error
//                   ||r||_inf / (||J||_inf ||x||_inf + ||b||_inf)
//                 is <= refinement_tolerance, or the caller's test of r
//                 (LinearSolver::Solve's `sufficient`) is true. When a step
//                 does not halve
//                 ||r||_inf, a correction overflows float, or
//                 max_refinement_steps are spent, J is refactorized with
//                 LU_high (a fallback) and b solved with it.
//
// After kFallbacksBeforeStayingDouble consecutive successful fallbacks every
// Factorize() goes straight to LU_high until Reset() (the next analysis).
// Singular in single precision does not mean singular in double precision:
// only LU_high decides kSingular (out of memory and invalid input of LU_low
// are reported as they are). refactorization_seconds() measures the
// fallbacks done inside Solve(), for the caller's factorization timer.
#ifndef FCSN_LINALG_MIXED_PRECISION_H_
#define FCSN_LINALG_MIXED_PRECISION_H_

#include <Eigen/Core>
#include <string>
#include <vector>

#include "linalg/linear_solver.h"

namespace fcsn::internal {

// The numeric phase of one factorization of an analysed n x n pattern, in
// the arithmetic of the implementation; values and right-hand sides are
// always given in double precision.
class NumericFactorization {
 public:
  virtual ~NumericFactorization() = default;
  // Factors of `values` (pattern.nnz() entries, CSC order, finite).
  virtual LinearSolverStatus Factorize(const double* values,
                                       std::string* message) = 0;
  // rhs := J^-1 rhs with the last factors; rhs has n finite entries.
  virtual LinearSolverStatus Solve(Eigen::VectorXd* rhs,
                                   std::string* message) = 0;
  // True while the last factors are usable.
  virtual bool factorized() const = 0;
};

// True when casting `values` to float loses only relative precision at the
// level of single-precision rounding: no entry overflows, and an entry below
// the smallest normal float (flushed towards zero by the cast) is at most
// FLT_EPSILON times the largest one, a normwise perturbation no larger than
// the cast's own rounding, which the refinement in double removes. (LMGC90
// files carry 1e-38-level round-off entries in H.)
bool FitsInFloat(const std::vector<double>& values);

class MixedPrecisionFactorization final : public NumericFactorization {
 public:
  // Consecutive successful fallbacks after which Factorize() uses `high`
  // directly until Reset(): the matrices of one pattern change slowly along a
  // Newton run, so a third single-precision try would most likely fail too.
  static constexpr int kFallbacksBeforeStayingDouble = 2;

  // Uses options.refinement_tolerance and options.max_refinement_steps.
  // `low` and `high` are not owned and must outlive this object.
  MixedPrecisionFactorization(const LinearSolverOptions& options,
                              NumericFactorization* low,
                              NumericFactorization* high);

  // A new analysis of `pattern` (kept by pointer, for the residuals): starts
  // in single precision again.
  void Reset(const SparsityPattern* pattern);

  LinearSolverStatus Factorize(const double* values,
                               std::string* message) override;
  LinearSolverStatus Solve(Eigen::VectorXd* rhs, std::string* message) override;
  // Solve() whose refinement also stops at the first residual r with
  // (*sufficient)(r) true (LinearSolver::Solve; nullptr: the backward-error
  // target alone).
  LinearSolverStatus Solve(Eigen::VectorXd* rhs,
                           const ResidualTest* sufficient,
                           std::string* message);
  // rhs := LU^-1 rhs with the current factors once, without refinement or
  // fallback (LinearSolver::SolveUnrefined).
  LinearSolverStatus SolveUnrefined(Eigen::VectorXd* rhs, std::string* message);
  bool factorized() const override;

  // True when the current factors are the single-precision ones.
  bool uses_low() const { return use_low_; }
  // Since construction: single-precision solves spent refining, fallbacks to
  // double precision, and seconds of the refactorizations done in Solve().
  int refinement_steps() const { return refinement_steps_; }
  int precision_fallbacks() const { return precision_fallbacks_; }
  double refactorization_seconds() const { return refactorization_seconds_; }

 private:
  // Factorize() without the bookkeeping of factorized_.
  LinearSolverStatus FactorizeLowOrHigh(const double* values,
                                        std::string* message);
  LinearSolverStatus FactorizeHigh(std::string* message);
  // True and *rhs = x when the refinement reaches the tolerance; false (rhs
  // unchanged) otherwise.
  bool Refine(Eigen::VectorXd* rhs,
              const ResidualTest* sufficient,
              std::string* message);
  // Normwise backward error of x for J x = b, with *residual = b - J x.
  double BackwardError(const Eigen::VectorXd& x,
                       const Eigen::VectorXd& b,
                       Eigen::VectorXd* residual) const;
  // ||J||_inf of values_.
  double NormInf();

  double refinement_tolerance_;
  int max_refinement_steps_;
  NumericFactorization* low_;
  NumericFactorization* high_;
  const SparsityPattern* pattern_ = nullptr;
  bool use_low_ = false;
  bool factorized_ = false;  // the last Factorize() succeeded
  int consecutive_fallbacks_ = 0;
  int refinement_steps_ = 0;
  int precision_fallbacks_ = 0;
  double refactorization_seconds_ = 0;
  // J in double precision (pattern order) and ||J||_inf.
  std::vector<double> values_;
  double norm_inf_ = 0;
  // Workspaces of the refinement.
  Eigen::VectorXd b_, x_, residual_, correction_, row_sums_;
};

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_MIXED_PRECISION_H_
