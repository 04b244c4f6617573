// MUMPS instance wrapper: the job calls, the control parameters (Configure())
// and the one translation of INFO(1) < 0 (MapError()), shared by d-MUMPS and
// s-MUMPS through the Arithmetic<Real> traits.
#include "linalg/mumps_instance.h"

#include <dmumps_c.h>
#include <smumps_c.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

#include "linalg/factor_storage.h"
#include "linalg/mumps_comm.h"
#include "linalg/mumps_memory_options.h"
#include "linalg/ordering.h"

namespace fcsn::internal {
namespace {

static_assert(std::is_same_v<MUMPS_INT, int>,
              "fcsn passes int index arrays to MUMPS");

// MUMPS JOB values.
constexpr int kJobInit = -1;
constexpr int kJobEnd = -2;
constexpr int kJobAnalyze = 1;
constexpr int kJobFactorize = 2;
constexpr int kJobSolve = 3;
// Upper bound on the ICNTL(14) relaxation reached by the workspace retries.
constexpr int kMaxRelaxationPercent = 1000000;
// The MUMPS C structure and entry point of each arithmetic.
template <typename Real>
struct Arithmetic;
template <>
struct Arithmetic<double> {
  using Struc = DMUMPS_STRUC_C;
  static void Run(Struc* id) { dmumps_c(id); }
};
template <>
struct Arithmetic<float> {
  using Struc = SMUMPS_STRUC_C;
  static void Run(Struc* id) { smumps_c(id); }
};

// 1-based accessors, so that the code reads like the user guide.
template <typename Struc>
int& IcntlOf(Struc& id, int i) {
  return id.icntl[i - 1];
}
template <typename Struc>
auto& CntlOf(Struc& id, int i) {
  return id.cntl[i - 1];
}
template <typename Struc>
int InfogOf(const Struc& id, int i) {
  return id.infog[i - 1];
}
template <typename Struc>
double RinfogOf(const Struc& id, int i) {
  return id.rinfog[i - 1];
}

enum class Phase { kInit, kAnalysis, kFactorization, kSolve };
const char* PhaseName(Phase phase) {
  switch (phase) {
    case Phase::kInit:
      return "initialization (JOB=-1)";
    case Phase::kAnalysis:
      return "analysis (JOB=1)";
    case Phase::kFactorization:
      return "factorization (JOB=2)";
    case Phase::kSolve:
      return "solve (JOB=3)";
  }
  return "?";
}

// Codes cured by a larger ICNTL(14) followed by a new factorization.
bool IsWorkspaceError(int info1) {
  switch (info1) {
    case -8:   // integer workarray IS too small for factorization
    case -9:   // real workarray S too small for factorization
    case -11:  // real workarray S too small for solution
    case -14:  // integer workarray IS too small for solution
    case -15:  // integer workarray IS too small for refinement / analysis
    case -17:  // internal send buffer too small
    case -20:  // internal reception buffer too small
      return true;
    default:
      return false;
  }
}

// The one place where MUMPS' INFO(1) < 0 becomes a status and a sentence.
LinearSolverStatus MapError(Phase phase,
                            const char* arithmetic,
                            int info1,
                            int info2,
                            int relaxation_percent,
                            std::string* message) {
  const std::string where = std::string("MUMPS ") + PhaseName(phase) + " (" +
                            arithmetic +
                            ") failed: INFO(1) = " + std::to_string(info1) +
                            ", INFO(2) = " + std::to_string(info2) + ": ";
  auto report = [&](LinearSolverStatus status, const std::string& what) {
    return linalg_detail::Report(status, where + what, message);
  };
  if (IsWorkspaceError(info1)) {
    return report(
        LinearSolverStatus::kOutOfMemory,
        "internal workspace too small even after enlarging ICNTL(14) to " +
            std::to_string(relaxation_percent) + "%");
  }
  switch (info1) {
    case -10:
      return report(LinearSolverStatus::kSingular,
                    "the matrix is numerically singular (" +
                        std::to_string(info2) + " pivots eliminated)");
    case -6:
      return report(LinearSolverStatus::kSingular,
                    "the matrix is structurally singular (structural rank " +
                        std::to_string(info2) + ")");
    case -5:
    case -7:
    case -13:
      return report(LinearSolverStatus::kOutOfMemory,
                    "allocation failed (INFO(2) = requested size, in millions "
                    "if negative)");
    case -19:
      return report(LinearSolverStatus::kOutOfMemory,
                    "ICNTL(23) memory cap too small");
    case -2:
      return report(LinearSolverStatus::kInvalidInput, "NNZ out of range");
    case -16:
      return report(LinearSolverStatus::kInvalidInput, "N out of range");
    case -4:
      return report(LinearSolverStatus::kInvalidInput,
                    "invalid PERM_IN entry at position INFO(2)");
    case -22:
      return report(LinearSolverStatus::kInvalidInput,
                    "an input array pointer is invalid");
    case -3:
      return report(LinearSolverStatus::kNotReady,
                    "phases called out of order");
    default:
      return report(LinearSolverStatus::kFailure,
                    "see the MUMPS user guide, section on errors");
  }
}

// One MUMPS instance of arithmetic Real: JOB = -1 in Init(), JOB = -2 in the
// destructor. This is the implementation, with the MUMPS structure;
// MumpsInstance<Real> (the header's macro-free face) forwards to it. The
// index arrays and PERM_IN belong to the caller (MumpsAnalysisInput) and
// outlive the instance's use of them.
template <typename Real>
class Instance {
 public:
  using Struc = typename Arithmetic<Real>::Struc;
  static constexpr const char* kName =
      std::is_same_v<Real, double> ? "double" : "single";

  Instance() = default;
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;
  ~Instance() {
    if (initialized_) Call(kJobEnd);
  }

  LinearSolverStatus Init(const LinearSolverOptions& options,
                          std::string* message,
                          bool symmetric = false) {
    options_ = options;
    if (std::string why = CheckMpiReady(options.mpi_communicator);
        !why.empty()) {
      return linalg_detail::Report(
          LinearSolverStatus::kUnavailable, why, message);
    }
    // The host takes part in the factorization (with one process it is the
    // only one).
    id_.par = 1;
    // Unsymmetric LU, or LDL^T of a general symmetric matrix.
    id_.sym = symmetric ? 2 : 0;
    id_.comm_fortran = MumpsCommFortran(options.mpi_communicator);
    Call(kJobInit);
    if (InfogOf(id_, 1) < 0) return Error(Phase::kInit, message);
    initialized_ = true;
    Configure();
    ConfigureLowRank(options_, &id_);
    return ConfigureOutOfCore(options_, &id_, &scratch_, message);
  }

  // Analysis (JOB = 1) on the 1-based coordinates irn/jcn; `perm_in` (1-based
  // pivot positions) is used with ICNTL(7) = 1, otherwise ICNTL(7) = icntl7.
  LinearSolverStatus Analyze(MumpsAnalysisInput* input, std::string* message) {
    analyzed_ = false;
    factorized_ = false;
    values_.assign(input->irn.size(), Real(0));
    // Ordering: PERM_IN (fcsn's METIS or the caller's) when given, else
    // MUMPS' own AMD, SCOTCH or automatic choice.
    IcntlOf(id_, 7) = input->perm_in.empty() ? input->icntl7 : 1;
    // Sequential analysis (ICNTL(7) chooses the ordering), or parallel with
    // PT-SCOTCH.
    IcntlOf(id_, 28) = input->parallel_analysis ? 2 : 1;
    IcntlOf(id_, 29) = input->parallel_analysis ? 1 : 0;
    // Column permutation to a zero-free diagonal: structural only (1): there
    // are no values yet, and the value-based variants (2-7) would read A
    // during the analysis. MUMPS ignores it when the ordering is given
    // (ICNTL(7) = 1), and the parallel analysis refuses it (INFO(1) = -39):
    // there (0) threshold pivoting with delayed pivots handles the zero
    // diagonal entries of stick contacts.
    IcntlOf(id_, 6) = input->parallel_analysis ? 0 : 1;
    // Symbolic factorization of a given (or MUMPS-METIS) ordering: on large
    // patterns by column counts (Gilbert, Ng and Peyton), the same factor
    // estimate in less than half the time of MUMPS' default quotient-graph
    // pass (refine-2 wall J's LDL^T: 0.12 -> 0.05 s, on the critical path of
    // a cold setup; bench/results/symbolic_analysis.md). Its elimination tree
    // differs, and so do the factors' last bits: smaller patterns, whose
    // analysis takes milliseconds, keep the default and their bits (the size
    // rule of the block ordering, linalg/ordering.h). Other orderings ignore
    // ICNTL(58).
    IcntlOf(id_, 58) = input->n >= kBlockOrderingMinSize ? 2 : 1;
    id_.n = input->n;
    SetEntries(input);
    id_.perm_in = input->perm_in.empty() ? nullptr : input->perm_in.data();
    Call(kJobAnalyze);
    if (InfogOf(id_, 1) < 0) return Error(Phase::kAnalysis, message);
    analyzed_ = true;
    return linalg_detail::Report(LinearSolverStatus::kSuccess, "", message);
  }

  // Numeric factorization (JOB = 2) of `values` (pattern order), with
  // workspace retries; null pivots (ICNTL(24)) are reported as kSingular and
  // the factors not used.
  LinearSolverStatus Factorize(const Real* values,
                               MumpsWorkspace* workspace,
                               std::string* message) {
    factorized_ = false;
    std::copy(values, values + values_.size(), values_.begin());
    for (int attempt = 0;; ++attempt) {
      // Working-space relaxation in percent; raised by the workspace retries.
      IcntlOf(id_, 14) = workspace->relaxation_percent;
      AttachStorage();
      (distributed_ ? id_.a_loc : id_.a) = values_.data();
      Call(kJobFactorize);
      const int info1 = InfogOf(id_, 1);
      if (info1 >= 0) break;
      if (!EnlargeWorkspace(info1, attempt, workspace)) {
        return Error(Phase::kFactorization, message);
      }
    }
    if (options_.detect_null_pivots && InfogOf(id_, 28) > 0) {
      return linalg_detail::Report(
          LinearSolverStatus::kSingular,
          std::string("MUMPS factorization (JOB=2, ") + kName + ") found " +
              std::to_string(InfogOf(id_, 28)) +
              " null pivot(s) (INFOG(28)): the matrix is numerically singular",
          message);
    }
    factorized_ = true;
    return linalg_detail::Report(LinearSolverStatus::kSuccess, "", message);
  }

  // Solve (JOB = 3) in place on rhs (n entries). A workspace shortage enlarges
  // ICNTL(14), refactorizes the same values and solves again.
  LinearSolverStatus Solve(Real* rhs,
                           MumpsWorkspace* workspace,
                           std::string* message) {
    const int n = id_.n;
    saved_rhs_.assign(rhs, rhs + n);
    // The host's RHS only: MUMPS reads it there, and keeps a pointer given
    // on another rank associated, which a later sparse solve
    // (InverseEntries) is refused for.
    const bool host = CommRank(options_.mpi_communicator) == 0;
    for (int attempt = 0;; ++attempt) {
      id_.nrhs = 1;
      id_.lrhs = n;
      id_.rhs = host ? rhs : nullptr;
      Call(kJobSolve);
      const int info1 = InfogOf(id_, 1);
      if (info1 >= 0) break;
      if (!EnlargeWorkspace(info1, attempt, workspace)) {
        return Error(Phase::kSolve, message);
      }
      const std::vector<Real> values = values_;
      if (LinearSolverStatus status =
              Factorize(values.data(), workspace, message);
          status != LinearSolverStatus::kSuccess) {
        return status;
      }
      std::copy(saved_rhs_.begin(), saved_rhs_.end(), rhs);
    }
    // The solution is on the host (ICNTL(21) = 0); every rank needs it.
    BroadcastFromHost(rhs, n, options_.mpi_communicator);
    return linalg_detail::Report(LinearSolverStatus::kSuccess, "", message);
  }

  // Selected entries of A^-1 (JOB = 3 with ICNTL(30) = 1, NRHS = N): the
  // host's 1-based pattern by columns (irhs_ptr: n + 1, irhs_sparse: nz)
  // asks, MUMPS writes the entries into rhs_sparse (nz) and the pattern
  // back. Then pattern and entries are broadcast. ICNTL(30) is 0 again on
  // return (the ordinary solves), and a workspace shortage is retried as in
  // Solve().
  LinearSolverStatus InverseEntries(int* irhs_ptr,
                                    int* irhs_sparse,
                                    Real* rhs_sparse,
                                    int nz,
                                    MumpsWorkspace* workspace,
                                    std::string* message) {
    const int n = id_.n;
    const std::vector<int> saved_ptr(irhs_ptr, irhs_ptr + n + 1);
    const std::vector<int> saved_rows(irhs_sparse, irhs_sparse + nz);
    LinearSolverStatus status = LinearSolverStatus::kSuccess;
    for (int attempt = 0;; ++attempt) {
      IcntlOf(id_, 30) = 1;
      id_.nrhs = n;
      id_.lrhs = n;
      id_.nz_rhs = nz;
      // The host's arrays only: MUMPS refuses them (and a dense RHS) on the
      // other ranks.
      const bool host = CommRank(options_.mpi_communicator) == 0;
      id_.irhs_ptr = host ? irhs_ptr : nullptr;
      id_.irhs_sparse = host ? irhs_sparse : nullptr;
      id_.rhs_sparse = host ? rhs_sparse : nullptr;
      id_.rhs = nullptr;
      Call(kJobSolve);
      id_.irhs_ptr = nullptr;
      id_.irhs_sparse = nullptr;
      id_.rhs_sparse = nullptr;
      IcntlOf(id_, 30) = 0;
      const int info1 = InfogOf(id_, 1);
      if (info1 >= 0) break;
      if (!EnlargeWorkspace(info1, attempt, workspace))
        return Error(Phase::kSolve, message);
      const std::vector<Real> values = values_;
      status = Factorize(values.data(), workspace, message);
      if (status != LinearSolverStatus::kSuccess) return status;
      std::copy(saved_ptr.begin(), saved_ptr.end(), irhs_ptr);
      std::copy(saved_rows.begin(), saved_rows.end(), irhs_sparse);
    }
    const int comm = options_.mpi_communicator;
    BroadcastFromHost(irhs_ptr, n + 1, comm);
    BroadcastFromHost(irhs_sparse, nz, comm);
    BroadcastFromHost(rhs_sparse, nz, comm);
    return linalg_detail::Report(status, "", message);
  }

  bool analyzed() const { return analyzed_; }
  bool factorized() const { return factorized_; }
  int infog(int i) const { return InfogOf(id_, i); }
  double rinfog(int i) const { return RinfogOf(id_, i); }
  int icntl(int i) const { return id_.icntl[i - 1]; }

 private:
  // The coordinates of `input`: the host's whole matrix (ICNTL(18) = 0: IRN,
  // JCN, A) or this rank's local entries (ICNTL(18) = 3: IRN_loc, JCN_loc,
  // A_loc; MUMPS sums repeated entries).
  void SetEntries(MumpsAnalysisInput* input) {
    distributed_ = input->distributed;
    const int nz = static_cast<int>(input->irn.size());
    IcntlOf(id_, 18) = distributed_ ? 3 : 0;
    if (distributed_) {
      id_.nz_loc = nz;
      id_.nnz_loc = static_cast<int64_t>(nz);
      id_.irn_loc = input->irn.data();
      id_.jcn_loc = input->jcn.data();
      id_.a_loc = values_.data();
    } else {
      id_.nz = nz;
      id_.nnz = static_cast<int64_t>(nz);
      id_.irn = input->irn.data();
      id_.jcn = input->jcn.data();
      id_.a = values_.data();
    }
  }

  // Points MUMPS' S at fcsn's FactorStorage (WK_USER, LWK_USER; see
  // linalg/factor_storage.h) when the factorization is in core, full rank and
  // of centralized input. MUMPS allocates S itself otherwise, or when the
  // buffer cannot be had.
  void AttachStorage() {
    id_.wk_user = nullptr;
    id_.lwk_user = 0;
    if (IcntlOf(id_, 22) != 0 || IcntlOf(id_, 35) != 0 || distributed_) return;
    const std::optional<UserWorkspace> workspace =
        UserWorkspaceFor(id_.info[7], IcntlOf(id_, 14), sizeof(Real));
    if (!workspace || !storage_.Reserve(workspace->bytes)) return;
    id_.wk_user = static_cast<Real*>(storage_.data());
    id_.lwk_user = workspace->lwk_user;
  }

  void Call(int job) {
    id_.job = job;
    Arithmetic<Real>::Run(&id_);
  }

  // After INFO(1) = info1 < 0 at retry `attempt`: true, with the ICNTL(14)
  // relaxation doubled, when a larger workspace may cure the failure and
  // retries are left.
  bool EnlargeWorkspace(int info1,
                        int attempt,
                        MumpsWorkspace* workspace) const {
    if (!IsWorkspaceError(info1) || attempt >= options_.max_workspace_retries) {
      return false;
    }
    workspace->relaxation_percent = std::min(
        std::max(2 * workspace->relaxation_percent, 10), kMaxRelaxationPercent);
    ++workspace->retries;
    return true;
  }

  LinearSolverStatus Error(Phase phase, std::string* message) const {
    return MapError(
        phase, kName, InfogOf(id_, 1), InfogOf(id_, 2), id_.icntl[13], message);
  }

  // Sets every control parameter fcsn relies on (JOB = -1 has just reset them
  // to their defaults). One parameter per line; meanings from the 5.5 guide.
  void Configure() {
    // Output streams for errors, diagnostics, global information: suppressed,
    // and printing level 0. The library never prints.
    IcntlOf(id_, 1) = 0;
    IcntlOf(id_, 2) = 0;
    IcntlOf(id_, 3) = 0;
    IcntlOf(id_, 4) = 0;
    // Matrix input: assembled coordinate format, centralized (IRN/JCN/A)
    // until Analyze() says otherwise (ICNTL(18), SetEntries()).
    IcntlOf(id_, 5) = 0;
    IcntlOf(id_, 18) = 0;
    // ICNTL(6) (maximum transversal), ICNTL(7) (ordering) and ICNTL(28),
    // ICNTL(29) (analysis) are set by Analyze() for each pattern.
    // Scaling: automatic; here computed at each factorization from its values.
    IcntlOf(id_, 8) = 77;
    // No iterative refinement inside MUMPS (the Newton loop corrects the step
    // anyway; mixed precision refines in double precision itself).
    IcntlOf(id_, 10) = 0;
    // No error-analysis statistics (they cost extra matrix-vector products).
    IcntlOf(id_, 11) = 0;
    // Working-space relaxation in percent (set again before each
    // factorization).
    IcntlOf(id_, 14) = options_.workspace_relaxation_percent;
    // Dense centralized right-hand side; the solution overwrites it.
    IcntlOf(id_, 20) = 0;
    IcntlOf(id_, 21) = 0;
    // In-core factorization (ConfigureOutOfCore() may turn it out-of-core).
    IcntlOf(id_, 22) = 0;
    // No cap on working memory: sized from the estimate and ICNTL(14).
    IcntlOf(id_, 23) = 0;
    // Null-pivot row detection (INFOG(28) counts them; reported as singular).
    IcntlOf(id_, 24) = options_.detect_null_pivots ? 1 : 0;
    // Keep the factors after factorization: Solve() needs them.
    IcntlOf(id_, 31) = 0;
    // No determinant.
    IcntlOf(id_, 33) = 0;
    // No block low-rank compression: full-rank, exact factors
    // (ConfigureLowRank() may turn BLR on).
    IcntlOf(id_, 35) = 0;
    // Relative threshold of numerical partial pivoting (MUMPS' default for
    // unsymmetric and general symmetric matrices alike).
    CntlOf(id_, 1) = 0.01;
    // Null-pivot threshold: CNTL(3) > 0 is relative to ||A_pre||_inf; 0 means
    // MUMPS' default eps * 1e-5 * ||A_pre|| (eps of the arithmetic). CNTL(3) <
    // 0 (absolute) is not exposed.
    CntlOf(id_, 3) = static_cast<Real>(options_.null_pivot_threshold);
    // Static pivoting off: no silent perturbation of small pivots.
    CntlOf(id_, 4) = -1;
  }

  LinearSolverOptions options_;
  // Out-of-core files; removed by its destructor, which runs after JOB = -2.
  std::unique_ptr<ScratchDirectory> scratch_;
  Struc id_ = {};
  bool initialized_ = false;
  bool analyzed_ = false;
  bool factorized_ = false;
  bool distributed_ = false;     // ICNTL(18) = 3: values_ is A_loc
  std::vector<Real> values_;     // MUMPS' A (or A_loc) array, input order
  FactorStorage storage_;        // S: fronts and in-core factors
  std::vector<Real> saved_rhs_;  // to redo a solve after a workspace retry
};

}  // namespace

template <typename Real>
struct MumpsInstance<Real>::Impl {
  Instance<Real> instance;
};

template <typename Real>
MumpsInstance<Real>::MumpsInstance() : impl_(std::make_unique<Impl>()) {}

template <typename Real>
MumpsInstance<Real>::~MumpsInstance() = default;

template <typename Real>
LinearSolverStatus MumpsInstance<Real>::Init(const LinearSolverOptions& options,
                                             std::string* message,
                                             bool symmetric) {
  return impl_->instance.Init(options, message, symmetric);
}

template <typename Real>
LinearSolverStatus MumpsInstance<Real>::Analyze(MumpsAnalysisInput* input,
                                                std::string* message) {
  return impl_->instance.Analyze(input, message);
}

template <typename Real>
LinearSolverStatus MumpsInstance<Real>::Factorize(const Real* values,
                                                  MumpsWorkspace* workspace,
                                                  std::string* message) {
  return impl_->instance.Factorize(values, workspace, message);
}

template <typename Real>
LinearSolverStatus MumpsInstance<Real>::Solve(Real* rhs,
                                              MumpsWorkspace* workspace,
                                              std::string* message) {
  return impl_->instance.Solve(rhs, workspace, message);
}

template <typename Real>
LinearSolverStatus MumpsInstance<Real>::InverseEntries(
    int* irhs_ptr,
    int* irhs_sparse,
    Real* rhs_sparse,
    int nz,
    MumpsWorkspace* workspace,
    std::string* message) {
  return impl_->instance.InverseEntries(
      irhs_ptr, irhs_sparse, rhs_sparse, nz, workspace, message);
}

template <typename Real>
bool MumpsInstance<Real>::analyzed() const {
  return impl_->instance.analyzed();
}

template <typename Real>
bool MumpsInstance<Real>::factorized() const {
  return impl_->instance.factorized();
}

template <typename Real>
int MumpsInstance<Real>::infog(int i) const {
  return impl_->instance.infog(i);
}

template <typename Real>
double MumpsInstance<Real>::rinfog(int i) const {
  return impl_->instance.rinfog(i);
}

template <typename Real>
int MumpsInstance<Real>::icntl(int i) const {
  return impl_->instance.icntl(i);
}

template class MumpsInstance<float>;
template class MumpsInstance<double>;

}  // namespace fcsn::internal
