// linalg/linear_solver.h: the sparse direct solver behind every Newton step.
//
// Computes x = J^-1 b for a square, unsymmetric, sparse J (n x n) whose
// sparsity pattern is fixed for the whole solve while its values change at
// every Newton iteration (formulations.md §4.4):
//
//   Analyze(pattern)  once per pattern: validation, fill-reducing ordering,
//                     symbolic analysis;
//   Factorize(values) once per iteration: numeric LU of the current values;
//   Solve(&rhs)       any number of times: rhs := J^-1 rhs with the last
//                     factors.
//
// Contract:
//   * The pattern is CSC, 0-based, row indices strictly increasing within
//     each column (sorted, no duplicates). Structural zeros are kept: an
//     entry whose value is 0 in some iteration stays in the pattern (dropping
//     them is Siconos' pitfall, formulations.md §10.1).
//   * `values` passed to Factorize has pattern.nnz() entries in the pattern's
//     CSC order.
//   * A failed Factorize invalidates the previous factors: Solve then returns
//     kNotReady.
//   * A numerically singular J gives kSingular; no backend ever "fixes" null
//     pivots silently. With MUMPS in mixed precision, a J that only the
//     double-precision refactorization (after a failed refinement) finds
//     singular gives kSingular from Solve() instead of Factorize().
//   * `message` may be nullptr; when given, it receives a readable sentence on
//     failure and is cleared on success. Nothing is printed and no exception
//     escapes.
//   * Counters and timings in stats() count the calls that passed the
//     argument checks (and so reached the backend, or the n = 0 shortcut),
//     failed or not. Each second is counted in one phase only: a
//     refactorization inside Solve() (mixed-precision fallback) counts in
//     factorization_seconds.
//   * Solve() never returns kSuccess with non-finite entries (kSingular).
//   * n = 0 is an ordinary input: every phase succeeds without reaching the
//     backend, and stats().ordering_used is "none".
//   * Objects are not thread-safe; use one per thread.
//
// Usage:
//   std::string message;
//   std::unique_ptr<LinearSolver> solver =
//       LinearSolver::Create(options, &message);
//   if (!solver) { /* options invalid or backend unavailable: see message */ }
//   solver->Analyze(pattern, &message);  // once per pattern
//   for (/* each Newton iteration */) {
//     solver->Factorize(values.data(), &message);  // kSingular: regularize
//     solver->Solve(&rhs, &message);               // rhs := J^-1 rhs
//   }
//
// Backends: MUMPS, sequential or MPI (mumps_solver.h), Eigen SparseLU
// (eigen_sparse_solver.h), dense LU (dense_solver.h). All pass the same
// conformance suite (tests/linalg/linear_solver_test.cc); the checks below
// are tested once per backend in tests/linalg/linear_solver_base_test.cc.
#ifndef FCSN_LINALG_LINEAR_SOLVER_H_
#define FCSN_LINALG_LINEAR_SOLVER_H_

#include <Eigen/Core>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "fcsn/linear_solver_options.h"

namespace fcsn::internal {

// Square n x n pattern in CSC, 0-based, row indices sorted within each column,
// no duplicates. col_ptr has n + 1 entries with col_ptr[0] = 0; row_index has
// col_ptr[n] entries.
//
// block_starts (optional, a hint for the METIS ordering of large patterns,
// linalg/ordering.h): the variables form consecutive blocks that belong
// together, e.g. the 3 velocity dofs of a finite-element node or the 3
// unknowns of a contact; block k is [block_starts[k], block_starts[k + 1])
// (the last one ends at n). Empty: no blocks known. Otherwise strictly
// increasing, block_starts[0] = 0, every entry < n. The block ordering is
// cheap but gives more flops per factorization (J: 3 % on the refine-2 wall,
// 14 % on the elastic bar; bench/results/refine2_speed.md): MUMPS uses the
// blocks only with LinearSolverOptions::adaptive_block_ordering, and orders
// such a pattern again without them once the factorizations of the analysis
// have cost enough (the adaptive rule of linalg/ordering.h).
//
// blocks_first: the caller asks MUMPS for the block ordering (with the
// adaptive rule) of this pattern whatever adaptive_block_ordering says: the
// Solver does when J's first factorization waits for this analysis
// (newton/early_factorization.h), where the ordering's time is on the
// critical path. Ignored without block_starts.
//
// symmetric_first: the first factorization of this analysis will be
// FactorizeSymmetric() (the early factorization again): MUMPS then orders the
// pattern and analyses only the LDL^T, at that factorization, and postpones
// the LU's symbolic phase to the first Factorize(), which a solve that
// converges on the LDL^T's factors never calls. Only with an ordering of
// fcsn's own (METIS or a given one), which both then share; the other backends
// ignore it.
struct SparsityPattern {
  int n = 0;
  std::vector<int> col_ptr;
  std::vector<int> row_index;
  std::vector<int> block_starts;
  bool blocks_first = false;
  bool symmetric_first = false;
  int nnz() const { return col_ptr.empty() ? 0 : col_ptr.back(); }
};

// "" if `pattern` satisfies the contract above, otherwise a sentence naming the
// first violation (sizes, col_ptr monotonicity, index range, ordering,
// duplicates).
std::string CheckPattern(const SparsityPattern& pattern);

// Outcome of each phase. Names (ToString) in quotes.
// A caller's test on a residual r = b - J x (LinearSolver::Solve).
using ResidualTest = std::function<bool(const Eigen::VectorXd& residual)>;

enum class LinearSolverStatus {
  // "success"
  kSuccess,
  // "singular": J is numerically singular; there are no usable factors.
  kSingular,
  // "out-of-memory": an allocation failed, or the workspace retries ran out.
  kOutOfMemory,
  // "invalid-input": bad pattern, non-finite values, bad right-hand side.
  kInvalidInput,
  // "not-ready": Factorize before Analyze, or Solve without valid factors.
  kNotReady,
  // "unavailable": the backend was not compiled in.
  kUnavailable,
  // "failure": any other backend error; the message carries its code.
  kFailure,
};
const char* ToString(LinearSolverStatus status);

// Counters and timings since construction. Times are wall-clock seconds,
// summed over calls.
struct LinearSolverStats {
  int analyses = 0, factorizations = 0, solves = 0;
  double analysis_seconds = 0, factorization_seconds = 0, solve_seconds = 0;
  // Floating-point operations of the last successful factorization (MUMPS
  // RINFOG(3); an estimate for the other backends, 0 if unknown).
  double last_factorization_flops = 0;
  // Entries stored in the L and U factors after the last successful
  // factorization (MUMPS INFOG(29)).
  long long factor_entries = 0;
  // Ordering the backend actually used, as reported by it after analysis:
  // "metis" (METIS_NodeND given through PERM_IN and confirmed by INFOG(7) = 1),
  // "metis-blocks" (the same on the quotient by SparsityPattern::block_starts,
  // until the adaptive rule of linalg/ordering.h orders the variables again),
  // "amd", "amf", "scotch", "pord", "qamd", "user" (a caller-given ordering),
  // "ptscotch", "parmetis" (MPI MUMPS' parallel analysis), "colamd" (Eigen),
  // "none" (dense), "unknown".
  std::string ordering_used;
  // Workspace retries (ICNTL(14) doublings) spent so far.
  int workspace_retries = 0;
  // Analysis-time estimates for the current pattern (MUMPS INFOG(20),
  // RINFOG(1); 0 if unknown).
  long long estimated_factor_entries = 0;
  double estimated_flops = 0;
  // Seconds spent computing the METIS ordering, included in analysis_seconds.
  double ordering_seconds = 0;
  // Analyses a backend did inside Factorize() on the same pattern (the
  // adaptive block ordering's re-ordering, linalg/ordering.h), also counted
  // in analyses; and the seconds of analysis work done inside Factorize():
  // theirs and those of a symbolic phase postponed by
  // SparsityPattern::symmetric_first, also counted in analysis_seconds (not
  // in factorization_seconds).
  int reanalyses = 0;
  double reanalysis_seconds = 0;
  // The adaptive block ordering's estimate R of that re-analysis, in flops of
  // factorization, while the current analysis is by blocks (ordering.h),
  // else 0.
  double reanalysis_estimate_flops = 0;
  // FactorizationPrecision::kMixed only: single-precision solves spent in the
  // refinement, and factorizations redone in double precision (see
  // LinearSolverOptions::precision).
  int refinement_steps = 0;
  int precision_fallbacks = 0;
  // MUMPS only (0 for the other backends), read from the instance that
  // factorizes (MUMPS 5.5 user guide, INFOG/RINFOG); memory in MB (10^6
  // bytes), summed over the MPI processes or, for "_max_rank", the largest
  // process's share.
  //   estimated_memory_mb: analysis estimate of all MUMPS data for the numeric
  //     phases, for the mode in use: INFOG(17) full-rank in-core, INFOG(27)
  //     full-rank out-of-core, INFOG(37) BLR in-core, INFOG(39) BLR
  //     out-of-core (max over processes: INFOG(16), (26), (36), (38)).
  //   factorization_memory_mb: memory effectively used by the last successful
  //     factorization, INFOG(22) (max over processes: INFOG(21)).
  //   compressed_factor_entries: entries of the last factors after BLR
  //     compression, INFOG(35) (= factor_entries, INFOG(29), without BLR).
  //   last_factorization_effective_flops: flops of the last factorization
  //     with BLR, RINFOG(14) (= last_factorization_flops, RINFOG(3), the
  //     full-rank count, without BLR).
  //   out_of_core_disk_mb: disk space of the out-of-core factor files of the
  //     last factorization, RINFOG(16).
  double estimated_memory_mb = 0;
  double estimated_memory_mb_max_rank = 0;
  double factorization_memory_mb = 0;
  double factorization_memory_mb_max_rank = 0;
  long long compressed_factor_entries = 0;
  double last_factorization_effective_flops = 0;
  double out_of_core_disk_mb = 0;
};

// Template method (the checks are done once, here; backends hold only their
// own work): the public, non-virtual Analyze / Factorize / Solve
//   * check the call (pattern contract, phase order, finite values and
//     right-hand side of the right size) and answer kInvalidInput or kNotReady
//     without reaching the backend;
//   * keep the state (analysed, factorized), the pattern and the counters and
//     timings of stats();
//   * answer n = 0 themselves (an empty system is solved by doing nothing);
//   * call the private hooks DoAnalyze / DoFactorize / DoSolve, which see only
//     checked arguments and n > 0, and return kSingular when a "successful"
//     solve produced non-finite entries.
// A backend fills the stats fields only it knows (ordering_used,
// factor_entries, flops, estimates, workspace retries, refinement counters)
// through mutable_stats().
class LinearSolver {
 public:
  virtual ~LinearSolver();
  LinearSolver(const LinearSolver&) = delete;
  LinearSolver& operator=(const LinearSolver&) = delete;

  // The backend selected by options.type; nullptr and a message if the options
  // are invalid or the backend is unavailable.
  static std::unique_ptr<LinearSolver> Create(
      const LinearSolverOptions& options, std::string* message);

  // Symbolic phase, once per pattern. Discards any previous analysis and the
  // factors.
  LinearSolverStatus Analyze(const SparsityPattern& pattern,
                             std::string* message);
  // Numeric LU of `values`: pattern.nnz() entries in the CSC order of the
  // analysed pattern.
  LinearSolverStatus Factorize(const double* values, std::string* message);
  // Numeric LDL^T of `values` (same layout as Factorize()), the entries of a
  // symmetric matrix on the analysed pattern: half the flops of the LU.
  // kInvalidInput when the values are not exactly symmetric; kUnavailable
  // from a backend without it (MUMPS has it: mumps_solver.h), the caller
  // then uses Factorize(). Solve() and SolveUnrefined() use the last
  // successful factorization of either kind. Counted as a factorization.
  LinearSolverStatus FactorizeSymmetric(const double* values,
                                        std::string* message);
  // rhs := J^-1 rhs with the last successful factorization; size n.
  // `sufficient` (optional) is the caller's accuracy need: under
  // FactorizationPrecision::kMixed the refinement also stops at the first
  // residual r = b - J x with sufficient(r) true (a Newton direction needs no
  // linear residual below the order of the tolerance). Without it, or where
  // it is never true, the refinement's own backward-error target decides: a
  // solution as accurate as a double-precision solve. Backends that do not
  // refine ignore it.
  LinearSolverStatus Solve(Eigen::VectorXd* rhs_in_solution_out,
                           std::string* message,
                           const ResidualTest& sufficient = {});
  // rhs := (L U)^-1 rhs with the stored factors as they are: the same as
  // Solve() except under FactorizationPrecision::kMixed, where the
  // single-precision factors are applied once without the refinement in double
  // (relative error ~ cond(J) eps_single, no fallback): a preconditioner, e.g.
  // for a Krylov solve of a nearby matrix, not a solution. Counted in solves.
  LinearSolverStatus SolveUnrefined(Eigen::VectorXd* rhs_in_solution_out,
                                    std::string* message);
  const LinearSolverStats& stats() const { return stats_; }

 protected:
  LinearSolver() = default;

  // The pattern of the last Analyze() that passed CheckPattern().
  const SparsityPattern& pattern() const { return pattern_; }
  LinearSolverStats& mutable_stats() { return stats_; }
  // For DoSolve: the factors were lost (a refactorization inside the solve
  // failed); Solve() answers kNotReady until the next successful Factorize().
  void DiscardFactorization() { factorized_ = false; }
  // For DoSolve: the current Solve()'s `sufficient`, nullptr when it has
  // none (and in SolveUnrefined()).
  const ResidualTest* sufficient() const { return sufficient_; }
  // For DoSolve: `seconds` of the current solve refactorized the matrix (e.g.
  // a fallback to double precision); they are counted once, in
  // factorization_seconds, and not in solve_seconds.
  void CountRefactorizationSeconds(double seconds) {
    refactorization_seconds_ += seconds;
  }
  // For DoFactorize: `seconds` of the current factorization analysed the
  // pattern again (a new ordering); they count as one more analysis, in
  // analysis_seconds and reanalysis_seconds, not in factorization_seconds.
  void CountReanalysis(double seconds) {
    ++stats_.analyses;
    ++stats_.reanalyses;
    CountAnalysisSeconds(seconds);
  }
  // For DoFactorize: `seconds` of the current factorization completed the
  // analysis of the pattern (a symbolic phase postponed by
  // SparsityPattern::symmetric_first): analysis_seconds and
  // reanalysis_seconds, not factorization_seconds; no analysis more.
  void CountAnalysisSeconds(double seconds) {
    stats_.analysis_seconds += seconds;
    stats_.reanalysis_seconds += seconds;
    reanalysis_seconds_ += seconds;
  }

 private:
  // `pattern` satisfies CheckPattern() and has n > 0; the per-analysis stats
  // (estimates, ordering_seconds) are already reset to 0.
  virtual LinearSolverStatus DoAnalyze(const SparsityPattern& pattern,
                                       std::string* message) = 0;
  // After a successful DoAnalyze; `values` holds pattern().nnz() finite
  // entries.
  virtual LinearSolverStatus DoFactorize(const double* values,
                                         std::string* message) = 0;
  // As DoFactorize for FactorizeSymmetric(); kUnavailable unless overridden.
  virtual LinearSolverStatus DoFactorizeSymmetric(const double* values,
                                                  std::string* message);
  // Factorize() and FactorizeSymmetric(): the checks, counters and timings.
  LinearSolverStatus CheckedFactorize(bool symmetric,
                                      const double* values,
                                      std::string* message);
  // After a successful DoFactorize; *rhs has n finite entries.
  virtual LinearSolverStatus DoSolve(Eigen::VectorXd* rhs,
                                     std::string* message) = 0;
  // As DoSolve, without refinement; DoSolve unless the backend refines.
  virtual LinearSolverStatus DoSolveUnrefined(Eigen::VectorXd* rhs,
                                              std::string* message);
  // Solve() and SolveUnrefined(): the checks, counters and timings.
  LinearSolverStatus CheckedSolve(bool unrefined,
                                  Eigen::VectorXd* rhs,
                                  const ResidualTest* sufficient,
                                  std::string* message);

  SparsityPattern pattern_;
  bool analyzed_ = false;
  bool factorized_ = false;
  double refactorization_seconds_ = 0;        // of the current Solve() call
  const ResidualTest* sufficient_ = nullptr;  // of the current Solve() call
  double reanalysis_seconds_ = 0;             // of the current Factorize() call
  LinearSolverStats stats_;
};

namespace linalg_detail {

// Writes `text` to *message when message is not null and returns `status`.
LinearSolverStatus Report(LinearSolverStatus status,
                          const std::string& text,
                          std::string* message);

}  // namespace linalg_detail

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_LINEAR_SOLVER_H_
