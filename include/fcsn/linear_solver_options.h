// fcsn/linear_solver_options.h: settings of the sparse linear solver that
// computes every Newton step, J d = -G, on the fixed sparsity pattern of J
// (formulations.md §4.4).
//
// The pattern is analysed once (symbolic factorization, fill-reducing
// ordering); each Newton iteration then runs one numeric factorization and one
// or more solves. These options choose the backend, the ordering and how MUMPS
// handles workspace shortage and null pivots.
//
// Usage:
//   fcsn::LinearSolverOptions options;  // MUMPS + METIS by default
//   options.ordering = fcsn::Ordering::kScotch;
//   if (std::string why = options.Validate(); !why.empty()) {
//     /* report why */
//   }
//
// Validate() returns "" when every field is in range, otherwise one readable
// sentence naming the offending field. It is inline so that any target
// including this header can call it.
#ifndef FCSN_LINEAR_SOLVER_OPTIONS_H_
#define FCSN_LINEAR_SOLVER_OPTIONS_H_

#include <cmath>
#include <string>

#include "fcsn/types.h"

namespace fcsn {

struct LinearSolverOptions {
  // Backend. kMumps (sequential MUMPS LU) is the production choice; kEigenLU
  // (Eigen SparseLU) is the always-available fallback and test oracle; kDense
  // (dense LU) is for small test systems.
  LinearSolverType type = LinearSolverType::kMumps;

  // Fill-reducing ordering, computed once per pattern.
  //   kMetis : METIS_NodeND on the pattern of J + J^T, computed by fcsn and
  //            given to MUMPS through PERM_IN (ICNTL(7) = 1); Debian's MUMPS
  //            has no METIS of its own.
  //   kScotch: MUMPS' built-in SCOTCH (ICNTL(7) = 3).
  //   kAmd   : approximate minimum degree (ICNTL(7) = 0).
  //   kAuto  : MUMPS' automatic choice (ICNTL(7) = 7).
  // Eigen SparseLU always uses COLAMD (and reports "colamd"); the dense
  // backend ignores this field.
  Ordering ordering = Ordering::kMetis;

  // MUMPS ICNTL(14): percentage by which the working space estimated by the
  // analysis is enlarged before the numeric factorization (delayed pivots make
  // the real need exceed the estimate). Range [0, 10000]. MUMPS' own default is
  // 20; 30 leaves room for the delayed pivots caused by the zero diagonal
  // entries of stick contacts.
  int workspace_relaxation_percent = 30;

  // MUMPS: when a factorization or solve fails for lack of workspace
  // (INFO(1) = -8, -9, -11, -14, -15, -17 or -20), double the relaxation and
  // try again, at most this many times. The enlarged relaxation is kept for
  // later factorizations. Range [0, 20].
  int max_workspace_retries = 4;

  // MUMPS null-pivot detection (ICNTL(24) = 1). A factorization that meets null
  // pivots (INFOG(28) > 0) is reported as LinearSolverStatus::kSingular; the
  // "fixed" factors MUMPS computes in that case are never used. (Siconos
  // instead solves with them, which silently zeroes solution components;
  // formulations.md §10.4.) When false, MUMPS only reports exactly zero pivots
  // (INFO(1) = -10), also as kSingular.
  bool detect_null_pivots = true;

  // Relative threshold of the null-pivot test, used when detect_null_pivots is
  // true: a pivot row is null when its infinity norm is
  //   <= null_pivot_threshold * ||A_pre||_inf
  // (MUMPS CNTL(3) > 0; A_pre is the scaled, permuted matrix). 0 keeps MUMPS'
  // default, eps * 1e-5 * ||A_pre||, which only catches exact or near-exact
  // rank deficiency. Nominal values: 0 (default) or 1e-13 to 1e-10
  // to also flag pivots lost to round-off. Range [0, 1).
  double null_pivot_threshold = 0.0;

  // "" if valid, otherwise a sentence naming the first invalid field.
  std::string Validate() const {
    if (workspace_relaxation_percent < 0 ||
        workspace_relaxation_percent > 10000) {
      return "LinearSolverOptions::workspace_relaxation_percent = " +
             std::to_string(workspace_relaxation_percent) +
             " must lie in [0, 10000].";
    }
    if (max_workspace_retries < 0 || max_workspace_retries > 20) {
      return "LinearSolverOptions::max_workspace_retries = " +
             std::to_string(max_workspace_retries) + " must lie in [0, 20].";
    }
    if (!(std::isfinite(null_pivot_threshold) && null_pivot_threshold >= 0.0 &&
          null_pivot_threshold < 1.0)) {
      return "LinearSolverOptions::null_pivot_threshold = " +
             std::to_string(null_pivot_threshold) + " must lie in [0, 1).";
    }
    return "";
  }
};

}  // namespace fcsn

#endif  // FCSN_LINEAR_SOLVER_OPTIONS_H_
