// fcsn/types.h: every user-visible choice of fcsn as an enum class, each with
// ToString and FromString (for the CLI, logs, JSON and bindings).
//
// Rule: switches over these enums are exhaustive and have no `default`, so that
// -Wswitch flags a missing case (the Siconos NATURALMAP null-pointer bug is the
// anti-model, formulations.md §10.5).
#ifndef FCSN_TYPES_H_
#define FCSN_TYPES_H_

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace fcsn {

// Per-contact residual F(u, r) driven to zero by the Newton method
// (formulations.md §3).
enum class Formulation {
  kAlartCurnier,       // "ac": AC, disk radius mu (r_N - rho_N u_N)_+
  kJeanMoreau,         // "jm": JM / Christensen-Pang, disk radius mu (r_N)_+
  kNaturalMap,         // "nm": r - P_K(r - rho (u + mu ||u_T|| e_N))
  kFischerBurmeister,  // "fb": SOC Fischer-Burmeister in Jordan-algebra form
};
inline constexpr std::array<Formulation, 4> kAllFormulations = {
    Formulation::kAlartCurnier,
    Formulation::kJeanMoreau,
    Formulation::kNaturalMap,
    Formulation::kFischerBurmeister};

// Globalization of the Newton step on the merit 1/2 ||G||^2 (formulations.md
// §6).
enum class LineSearchType {
  kNone,         // "none": full steps (the paper's "NLS" variants)
  kArmijo,       // "armijo": backtracking with sufficient decrease
  kGoldstein,    // "goldstein": Goldstein bracket with extrapolation
  kNonMonotone,  // "non-monotone": Armijo against the max of the last k merits
};
inline constexpr std::array<LineSearchType, 4> kAllLineSearchTypes = {
    LineSearchType::kNone,
    LineSearchType::kArmijo,
    LineSearchType::kGoldstein,
    LineSearchType::kNonMonotone};

// Backend of the sparse linear solver (linalg/).
enum class LinearSolverType {
  kMumps,    // "mumps": MUMPS sequential LU, analysis reused across
             // factorizations
  kEigenLU,  // "eigen": Eigen SparseLU, fallback and oracle
  kDense,    // "dense": dense partial-pivoting LU, for tests on small systems
};
inline constexpr std::array<LinearSolverType, 3> kAllLinearSolverTypes = {
    LinearSolverType::kMumps,
    LinearSolverType::kEigenLU,
    LinearSolverType::kDense};

// Arithmetic of the MUMPS factorization (LinearSolverOptions::precision).
enum class FactorizationPrecision {
  kDouble,  // "double": double-precision LU and solves
  kMixed,   // "mixed": single-precision LU, solves refined in double precision
            // (falls back to double when the refinement does not converge)
  kAuto,    // "auto": mixed when the analysis estimates >= 1e7 flops per
            // factorization, double below
};
inline constexpr std::array<FactorizationPrecision, 3>
    kAllFactorizationPrecisions = {FactorizationPrecision::kDouble,
                                   FactorizationPrecision::kMixed,
                                   FactorizationPrecision::kAuto};

// Fill-reducing ordering used by the sparse factorization.
enum class Ordering {
  kMetis,   // "metis": METIS_NodeND computed by fcsn, given to MUMPS as PERM_IN
            // (ICNTL(7)=1)
  kScotch,  // "scotch": MUMPS' built-in SCOTCH (ICNTL(7)=3)
  kAmd,     // "amd": approximate minimum degree (ICNTL(7)=0; COLAMD for Eigen)
  kAuto,    // "auto": the backend's automatic choice (ICNTL(7)=7)
  kPtScotch,  // "ptscotch": MPI MUMPS' parallel PT-SCOTCH (ICNTL(28)=2,
              // ICNTL(29)=1); SCOTCH (ICNTL(7)=3) on one process
};
inline constexpr std::array<Ordering, 5> kAllOrderings = {Ordering::kMetis,
                                                          Ordering::kScotch,
                                                          Ordering::kAmd,
                                                          Ordering::kAuto,
                                                          Ordering::kPtScotch};

// Which M to use when a file stores only the upper triangle of a symmetric
// matrix.
enum class MStorage {
  kAuto,  // "auto": symmetrize U + U^T - diag(U) when M is stored as an upper
          // triangle
  kAsStored,     // "as-stored": use M exactly as stored (what Siconos does)
  kSymmetrized,  // "symmetrized": always use U + U^T - diag(U) when M is upper
                 // triangular
};
inline constexpr std::array<MStorage, 3> kAllMStorages = {
    MStorage::kAuto, MStorage::kAsStored, MStorage::kSymmetrized};

// Top-level algorithm.
enum class SolverType {
  kNewton,  // "nsn": global semismooth Newton in (v, r)
  kNsgs,    // "nsgs": nonsmooth Gauss-Seidel on the Delassus (reduced) problem
  kHybrid,  // "hybrid": NSGS warm start, Newton, NSGS fallback when Newton
            // stalls
};
inline constexpr std::array<SolverType, 3> kAllSolverTypes = {
    SolverType::kNewton, SolverType::kNsgs, SolverType::kHybrid};

// One-contact solver used inside NSGS sweeps (formulations.md §7.3).
enum class LocalSolverType {
  kAlartCurnierNewton,  // "ac": one-contact semismooth Newton on Alart-Curnier
  kFixedPointViUpk,     // "fp-vi-upk": natural-map fixed point, self-adaptive
  // rho, NsgsOptions::fp_projections projections per sweep
};
inline constexpr std::array<LocalSolverType, 2> kAllLocalSolverTypes = {
    LocalSolverType::kAlartCurnierNewton, LocalSolverType::kFixedPointViUpk};

// Per-contact scaling rho (formulations.md §5).
enum class RhoRule {
  kConstant,          // "constant": rho = RhoOptions::value for every component
  kDiagonalEstimate,  // "diagonal": W_aa ~ H_a^T diag(M)^-1 H_a, rho_a =
                      // 1/lambda_max
  kExactDelassus,  // "exact": W_aa = H_a^T M^-1 H_a from a factorization of M
  kSplitExactDelassus,  // "split-exact": rho_N = 1/W_NN, rho_T =
                        // 1/lambda_max(W_TT)
};
inline constexpr std::array<RhoRule, 4> kAllRhoRules = {
    RhoRule::kConstant,
    RhoRule::kDiagonalEstimate,
    RhoRule::kExactDelassus,
    RhoRule::kSplitExactDelassus};

// Outcome of a solve.
enum class SolverStatus {
  kConverged,           // "converged": max(e_cone, e_dual, e_comp, e_eq) <= tol
                        // (fcsn/error_measures.h)
  kMaxIterations,       // "max-iterations": iteration budget spent
  kTimeLimit,           // "time-limit": wall-clock budget spent
  kLineSearchFailed,    // "line-search-failed": no acceptable step (policies
                        // stop and fallback; LineSearchFailurePolicy)
  kLinearSolverFailed,  // "linear-solver-failed": factorization or solve failed
                        // (e.g. singular J)
  kInvalidInput,  // "invalid-input": problem or options rejected; message says
                  // why
  kNumericalIssue,  // "numerical-issue": NaN/Inf appeared in an iterate or
                    // residual
  kStalled,         // "stalled": no progress of the merit over the stall window
  kRoundOffLimit,   // "round-off-limit": Newton's full steps within one set
                    // of contact statuses stopped reducing the measures, which
                    // are then at the level round-off allows, above tol (the
                    // message gives the achieved values)
  kAborted,         // "aborted": the iteration callback returned kAbort
};
inline constexpr std::array<SolverStatus, 10> kAllSolverStatuses = {
    SolverStatus::kConverged,
    SolverStatus::kMaxIterations,
    SolverStatus::kTimeLimit,
    SolverStatus::kLineSearchFailed,
    SolverStatus::kLinearSolverFailed,
    SolverStatus::kInvalidInput,
    SolverStatus::kNumericalIssue,
    SolverStatus::kStalled,
    SolverStatus::kRoundOffLimit,
    SolverStatus::kAborted};

// What produced an IterationRecord (fcsn/summary.h).
enum class IterationPhase {
  kNewton,  // "newton": one Newton iteration
  kNsgs,    // "nsgs": one NSGS (or projected Jacobi) error check
};
inline constexpr std::array<IterationPhase, 2> kAllIterationPhases = {
    IterationPhase::kNewton, IterationPhase::kNsgs};

// Outcome of Solver::Setup() (fcsn/solver.h): whether the solver is ready to
// solve problems with the given patterns, not a solve's outcome.
enum class SetupStatus {
  kReady,         // "ready": options and problem valid, analysis done (none
                  // needed for pure NSGS)
  kInvalidInput,  // "invalid-input": problem or options rejected, or the
                  // linear solver could not be created; message says why
  kLinearSolverFailed,  // "linear-solver-failed": the symbolic analysis of J
                        // failed
  kInternalError,       // "internal-error": an exception inside fcsn (e.g.
                        // an allocation failure)
};
inline constexpr std::array<SetupStatus, 4> kAllSetupStatuses = {
    SetupStatus::kReady,
    SetupStatus::kInvalidInput,
    SetupStatus::kLinearSolverFailed,
    SetupStatus::kInternalError};

inline const char* ToString(IterationPhase x) {
  switch (x) {
    case IterationPhase::kNewton:
      return "newton";
    case IterationPhase::kNsgs:
      return "nsgs";
  }
  return "?";
}
inline const char* ToString(SetupStatus x) {
  switch (x) {
    case SetupStatus::kReady:
      return "ready";
    case SetupStatus::kInvalidInput:
      return "invalid-input";
    case SetupStatus::kLinearSolverFailed:
      return "linear-solver-failed";
    case SetupStatus::kInternalError:
      return "internal-error";
  }
  return "?";
}
inline const char* ToString(Formulation x) {
  switch (x) {
    case Formulation::kAlartCurnier:
      return "ac";
    case Formulation::kJeanMoreau:
      return "jm";
    case Formulation::kNaturalMap:
      return "nm";
    case Formulation::kFischerBurmeister:
      return "fb";
  }
  return "?";
}
inline const char* ToString(LineSearchType x) {
  switch (x) {
    case LineSearchType::kNone:
      return "none";
    case LineSearchType::kArmijo:
      return "armijo";
    case LineSearchType::kGoldstein:
      return "goldstein";
    case LineSearchType::kNonMonotone:
      return "non-monotone";
  }
  return "?";
}
inline const char* ToString(LinearSolverType x) {
  switch (x) {
    case LinearSolverType::kMumps:
      return "mumps";
    case LinearSolverType::kEigenLU:
      return "eigen";
    case LinearSolverType::kDense:
      return "dense";
  }
  return "?";
}
inline const char* ToString(FactorizationPrecision x) {
  switch (x) {
    case FactorizationPrecision::kDouble:
      return "double";
    case FactorizationPrecision::kMixed:
      return "mixed";
    case FactorizationPrecision::kAuto:
      return "auto";
  }
  return "?";
}
inline const char* ToString(Ordering x) {
  switch (x) {
    case Ordering::kMetis:
      return "metis";
    case Ordering::kScotch:
      return "scotch";
    case Ordering::kAmd:
      return "amd";
    case Ordering::kAuto:
      return "auto";
    case Ordering::kPtScotch:
      return "ptscotch";
  }
  return "?";
}
inline const char* ToString(MStorage x) {
  switch (x) {
    case MStorage::kAuto:
      return "auto";
    case MStorage::kAsStored:
      return "as-stored";
    case MStorage::kSymmetrized:
      return "symmetrized";
  }
  return "?";
}
inline const char* ToString(SolverType x) {
  switch (x) {
    case SolverType::kNewton:
      return "nsn";
    case SolverType::kNsgs:
      return "nsgs";
    case SolverType::kHybrid:
      return "hybrid";
  }
  return "?";
}
inline const char* ToString(LocalSolverType x) {
  switch (x) {
    case LocalSolverType::kAlartCurnierNewton:
      return "ac";
    case LocalSolverType::kFixedPointViUpk:
      return "fp-vi-upk";
  }
  return "?";
}
inline const char* ToString(RhoRule x) {
  switch (x) {
    case RhoRule::kConstant:
      return "constant";
    case RhoRule::kDiagonalEstimate:
      return "diagonal";
    case RhoRule::kExactDelassus:
      return "exact";
    case RhoRule::kSplitExactDelassus:
      return "split-exact";
  }
  return "?";
}
inline const char* ToString(SolverStatus x) {
  switch (x) {
    case SolverStatus::kConverged:
      return "converged";
    case SolverStatus::kMaxIterations:
      return "max-iterations";
    case SolverStatus::kTimeLimit:
      return "time-limit";
    case SolverStatus::kLineSearchFailed:
      return "line-search-failed";
    case SolverStatus::kLinearSolverFailed:
      return "linear-solver-failed";
    case SolverStatus::kInvalidInput:
      return "invalid-input";
    case SolverStatus::kNumericalIssue:
      return "numerical-issue";
    case SolverStatus::kStalled:
      return "stalled";
    case SolverStatus::kRoundOffLimit:
      return "round-off-limit";
    case SolverStatus::kAborted:
      return "aborted";
  }
  return "?";
}

// FromString<E>("ac") -> Formulation::kAlartCurnier; std::nullopt for an
// unknown name.
template <typename Enum, std::size_t N>
std::optional<Enum> FromStringIn(const std::array<Enum, N>& all,
                                 std::string_view name) {
  for (Enum e : all) {
    if (name == ToString(e)) return e;
  }
  return std::nullopt;
}
inline std::optional<Formulation> FormulationFromString(std::string_view s) {
  return FromStringIn(kAllFormulations, s);
}
inline std::optional<LineSearchType> LineSearchTypeFromString(
    std::string_view s) {
  return FromStringIn(kAllLineSearchTypes, s);
}
inline std::optional<LinearSolverType> LinearSolverTypeFromString(
    std::string_view s) {
  return FromStringIn(kAllLinearSolverTypes, s);
}
inline std::optional<FactorizationPrecision> FactorizationPrecisionFromString(
    std::string_view s) {
  return FromStringIn(kAllFactorizationPrecisions, s);
}
inline std::optional<Ordering> OrderingFromString(std::string_view s) {
  return FromStringIn(kAllOrderings, s);
}
inline std::optional<MStorage> MStorageFromString(std::string_view s) {
  return FromStringIn(kAllMStorages, s);
}
inline std::optional<SolverType> SolverTypeFromString(std::string_view s) {
  return FromStringIn(kAllSolverTypes, s);
}
inline std::optional<LocalSolverType> LocalSolverTypeFromString(
    std::string_view s) {
  return FromStringIn(kAllLocalSolverTypes, s);
}
inline std::optional<RhoRule> RhoRuleFromString(std::string_view s) {
  return FromStringIn(kAllRhoRules, s);
}
inline std::optional<SolverStatus> SolverStatusFromString(std::string_view s) {
  return FromStringIn(kAllSolverStatuses, s);
}
inline std::optional<IterationPhase> IterationPhaseFromString(
    std::string_view s) {
  return FromStringIn(kAllIterationPhases, s);
}
inline std::optional<SetupStatus> SetupStatusFromString(std::string_view s) {
  return FromStringIn(kAllSetupStatuses, s);
}

// Comma-separated list of the names of all values, for CLI help and error
// messages.
template <typename Enum, std::size_t N>
std::string NamesOf(const std::array<Enum, N>& all) {
  std::string out;
  for (Enum e : all) {
    if (!out.empty()) out += ", ";
    out += ToString(e);
  }
  return out;
}

}  // namespace fcsn

#endif  // FCSN_TYPES_H_
