// fcsn/linear_solver_options.h: settings of the sparse linear solver that
// computes every Newton step, J d = -G, on the fixed sparsity pattern of J
// (formulations.md §4.4).
//
// The pattern is analysed once (symbolic factorization, fill-reducing
// ordering); each Newton iteration then runs one numeric factorization and one
// or more solves. These options choose the backend, the ordering, the
// arithmetic of the factorization (double, or single refined in double), how
// MUMPS handles workspace shortage and null pivots, and the memory savers of
// large systems: block low-rank compression and out-of-core factors.
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
#include <cstddef>
#include <string>

#include "fcsn/types.h"

namespace fcsn {

// LinearSolverOptions::mpi_communicator value standing for MPI_COMM_WORLD
// (MUMPS' own convention for its COMM_FORTRAN field).
inline constexpr int kMpiCommWorld = -987654;

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
  //   kPtScotch: MPI flavour: PT-SCOTCH computed in parallel by MUMPS on every
  //            rank (parallel analysis, ICNTL(28) = 2, ICNTL(29) = 1); on one
  //            process, and in the seq flavour, MUMPS analyses sequentially
  //            with SCOTCH (ICNTL(7) = 3).
  // Eigen SparseLU always uses COLAMD (and reports "colamd"); the dense
  // backend ignores this field.
  Ordering ordering = Ordering::kMetis;

  // true, with kMetis on a Newton matrix of n + m >= 20,000 unknowns (MUMPS
  // only): METIS first orders the quotient graph of J's blocks (3 velocity
  // dofs of a node, each contact unknown alone), ~4x faster than its dof
  // graph for 4-15 % more flops per factorization, and the analysis is redone
  // on the dof graph in the factorization where the factorizations so far
  // would have paid for it (an adaptive rule on counted flops,
  // linalg/ordering.h: the same factorization switches in every run).
  // Refine-2 wall, 1 BLAS thread: cold gravity steps (2 factorizations) 12 %
  // faster, cold shear steps (19-30) up to 5 % slower, warm time stepping
  // ~0.4 s slower once (bench/results/j_ordering.md). false (the default):
  // the dof graph from the start, one analysis per pattern, except for the
  // analysis that J's early factorization waits for (a bonded cold start on
  // two setup threads, SolverOptions::setup_threads), which is by blocks with
  // the adaptive rule: there the ordering's time is on the critical path
  // (refine-2 gravity steps 2.12 -> 1.77 s, bench/results/early_factorization.md).
  bool adaptive_block_ordering = false;

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

  // Arithmetic of the MUMPS factorization (ignored by the other backends).
  //   kDouble: double-precision LU; each solve is one MUMPS solve.
  //   kMixed : single-precision LU (MUMPS' s-arithmetic: half the memory
  //            traffic and twice the SIMD width of the dense kernels; 1.65x
  //            less time on 10 wall problems, bench/results/precision.md),
  //            and each solve refined in double precision (the scheme of
  //            LAPACK's DSGESV):
  //              x = 0, r = b;  repeat  x += LU_single^-1 r,  r = b - J x
  //            with r computed from the double values, until the normwise
  //            backward error ||r||_inf / (||J||_inf ||x||_inf + ||b||_inf) is
  //            <= refinement_tolerance. When the refinement stalls (a step
  //            does not halve ||r||), runs out of steps, or the single
  //            factorization fails or cannot represent the values, the same
  //            values are factorized in double precision instead
  //            (LinearSolverStats::precision_fallbacks); after two
  //            consecutive successful fallbacks the solver stays in double
  //            precision until the next Analyze(). Either way Solve() returns
  //            a solution as accurate as a double-precision solve. Null
  //            pivots are detected by whichever arithmetic factorizes: a J
  //            singular only at double-precision round-off may be reported
  //            as kSingular by Solve() (after the fallback) instead of by
  //            Factorize().
  //   kAuto  : kMixed when the analysis estimates at least 1e7 flops per
  //            factorization, else kDouble (on small systems the
  //            factorization is bookkeeping, not dense kernels, and the
  //            refinement's extra solves cost more than single precision
  //            saves).
  FactorizationPrecision precision = FactorizationPrecision::kAuto;

  // kMixed (and kAuto when mixed): target normwise backward error of the
  // refined solution. 1e-14 is of the order of what a double-precision LU with
  // threshold pivoting attains (tens of eps = 2.2e-16), so the refined solution
  // is as good as a double solve. The Newton solver's directions stop refining
  // earlier, once their residual in merit units is below SolverOptions::
  // tolerance (more accuracy cannot make the iterate more converged).
  // Range [1e-16, 1e-6].
  double refinement_tolerance = 1e-14;

  // kMixed (and kAuto when mixed): refinement steps (single-precision solves)
  // per Solve() before the fallback to double precision. A step divides the
  // residual by ~1 / (cond(J) * eps_single); 3 steps suffice on the wall
  // problems. Range [1, 100].
  int max_refinement_steps = 10;

  // MPI flavour only (fcsn/config.h: FCSN_WITH_MPI = 1; ignored by the
  // sequential build): the communicator MUMPS runs on, as a Fortran handle
  // (MPI_Comm_c2f(comm) in C and C++, comm.py2f() in mpi4py), so that this
  // header needs no mpi.h. The default kMpiCommWorld means MPI_COMM_WORLD.
  // Every rank of the communicator must make the same solver calls on the same
  // data; rank 0 is MUMPS' host. MPI_Init must precede the solver's creation.
  int mpi_communicator = kMpiCommWorld;

  // MUMPS block low-rank (BLR) factorization (ignored by the other backends).
  // 0 (the default) keeps the exact full-rank LU. A value > 0 turns BLR on
  // (ICNTL(35) = 2, set before the analysis: the factors are computed with
  // low-rank updates and stored compressed, and the solves use them) with
  // CNTL(7) = low_rank_tolerance: each off-diagonal block of a large front is
  // replaced by a truncated rank-revealing QR dropping the part below the
  // tolerance. CNTL(7) is absolute; fcsn lets MUMPS scale J (ICNTL(8) = 77),
  // so it acts as a tolerance relative to the unit-sized scaled entries, and
  // the backward error of a solve is expected of the order of the tolerance
  // (MUMPS 5.5 user guide, CNTL(7) and §BLR). Only fronts large enough for
  // MUMPS' BLR blocking are compressed, so small systems are unaffected:
  // none of the 688-contact wall's (n = 7205) at any tolerance, while a 32^3
  // grid Laplacian (METIS) stores 15 % fewer factor entries with 29 % fewer
  // flops at 1e-6. The front variables are clustered in elimination order
  // (linalg/mumps_memory_options.h says why).
  //
  // Accuracy of the Newton direction: with precision = kDouble (or kAuto
  // choosing double) the direction solves a perturbation of J of relative size
  // ~tolerance, unrefined. With kMixed (or kAuto choosing mixed, the case of
  // large systems) the single-precision factors are BLR-compressed too, and
  // the refinement (mixed_precision.h) computes its residuals with the exact
  // double J, so while it contracts it refines the BLR solve to
  // refinement_tolerance; when it stalls, the fallback factorizes in double
  // precision, also compressed, and that solve is not refined. Either way an
  // inexact direction can only cost Newton iterations, never a wrong answer:
  // convergence is decided by the error measures recomputed at the returned
  // point (formulations.md §9.1), never by the linear solves.
  //
  // Nominal values: 0 (default); 1e-10 to 1e-6, the usual BLR range, saving
  // more memory and flops the larger it is (compare the iteration counts:
  // bench/scale_walls.sh). Range [0, 1).
  double low_rank_tolerance = 0.0;

  // MUMPS out-of-core factorization (ICNTL(22) = 1; ignored by the other
  // backends): the factors are written to files and read back by the solves,
  // so that the memory holds the active fronts only (MUMPS' estimate: INFOG(27)
  // instead of INFOG(17)). With BLR the low-rank factors stay in memory (MUMPS
  // writes only full-rank factors to disk). Each MUMPS instance writes into a
  // private directory "fcsn-ooc-XXXXXX" created under out_of_core_directory
  // (OOC_TMPDIR; OOC_PREFIX "fcsn"), removed with its files when the
  // instance ends (after JOB = -2), also after a failed phase. Only an
  // abnormal end of the process (a crash, SIGKILL) leaves it behind.
  bool out_of_core = false;

  // Parent directory of the out-of-core files; "" (the default) is the
  // system temporary directory (std::filesystem::temp_directory_path():
  // $TMPDIR, else /tmp). It must exist and be writable when the solver is
  // created. At most kMaxOutOfCoreDirectoryLength characters: MUMPS' OOC_TMPDIR
  // holds 255, and fcsn appends its private subdirectory.
  std::string out_of_core_directory;
  static constexpr std::size_t kMaxOutOfCoreDirectoryLength = 200;

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
    if (!(std::isfinite(refinement_tolerance) &&
          refinement_tolerance >= 1e-16 && refinement_tolerance <= 1e-6)) {
      return "LinearSolverOptions::refinement_tolerance = " +
             std::to_string(refinement_tolerance) +
             " must lie in [1e-16, 1e-6].";
    }
    if (max_refinement_steps < 1 || max_refinement_steps > 100) {
      return "LinearSolverOptions::max_refinement_steps = " +
             std::to_string(max_refinement_steps) + " must lie in [1, 100].";
    }
    if (!(std::isfinite(low_rank_tolerance) && low_rank_tolerance >= 0.0 &&
          low_rank_tolerance < 1.0)) {
      return "LinearSolverOptions::low_rank_tolerance = " +
             std::to_string(low_rank_tolerance) + " must lie in [0, 1).";
    }
    if (out_of_core_directory.size() > kMaxOutOfCoreDirectoryLength ||
        out_of_core_directory.find('\0') != std::string::npos) {
      return "LinearSolverOptions::out_of_core_directory must be a path of at "
             "most " +
             std::to_string(kMaxOutOfCoreDirectoryLength) +
             " characters without NUL.";
    }
    return "";
  }
};

}  // namespace fcsn

#endif  // FCSN_LINEAR_SOLVER_OPTIONS_H_
