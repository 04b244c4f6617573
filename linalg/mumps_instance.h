// linalg/mumps_instance.h: one MUMPS instance (unsymmetric LU with SYM = 0,
// or LDL^T with SYM = 2, and PAR = 1) of arithmetic Real: d-MUMPS for double, s-MUMPS for float,
// on the sequential library or, in the mpi flavour, on the ranks of
// LinearSolverOptions::mpi_communicator (replicated-data model of
// mumps_comm.h: same calls on every rank, solution broadcast from the host).
//
// RAII over the MUMPS job sequence of formulations.md §4.4:
//   Init()      JOB = -1, then every ICNTL/CNTL fcsn relies on, one per line,
//               BLR (ICNTL(35), CNTL(7)) and out-of-core (ICNTL(22), with
//               OOC_TMPDIR a private directory removed after JOB = -2);
//   Analyze()   JOB = 1 on the 1-based coordinates of MumpsAnalysisInput, with
//               PERM_IN (ICNTL(7) = 1) when given; centralized on the host
//               (ICNTL(18) = 0) or distributed over the ranks (ICNTL(18) = 3);
//   Factorize() JOB = 2, retried with a doubled ICNTL(14) on workspace
//               shortage; null pivots (ICNTL(24), INFOG(28) > 0) -> kSingular;
//   Solve()     JOB = 3 in place, with the same retry (refactorize, solve again),
//               then the host's solution broadcast to every rank;
//   destructor  JOB = -2.
// Every INFOG(1) < 0 becomes a LinearSolverStatus and a sentence in one
// function (mumps_instance.cc, MapError). Every decision reads the global
// INFOG/RINFOG (equal on all ranks), never the per-rank INFO, so that a
// failure on one rank is the same failure on every rank (no rank returns
// whilst the others wait in MUMPS). Parameter meanings follow the MUMPS
// 5.5 user guide (Debian 12 ships 5.5.1).
//
// No MUMPS type or macro appears in this header: the MUMPS structure lives
// behind a pimpl, and the template is instantiated for float and double in
// mumps_instance.cc only.
#ifndef FCSN_LINALG_MUMPS_INSTANCE_H_
#define FCSN_LINALG_MUMPS_INSTANCE_H_

#include <memory>
#include <string>
#include <vector>

#include "linalg/linear_solver.h"
#include "linalg/mumps_codes.h"

namespace fcsn::internal {

// The analysed pattern in MUMPS' terms, shared by the instances of both
// arithmetics; it must outlive their use of it (MUMPS keeps the pointers).
struct MumpsAnalysisInput {
  int n = 0;
  // 1-based row and column of each entry, in the pattern's CSC order: the
  // whole matrix, read on the host (ICNTL(18) = 0).
  std::vector<int> irn, jcn;
  // Distributed assembled input (ICNTL(18) = 3, mumps_distributed.h): irn
  // and jcn are instead this rank's local entries (any order; entries
  // repeated within or across ranks are summed), and Factorize() takes the
  // local values (A_loc) in the same order.
  bool distributed = false;
  // 1-based pivot position of each variable (PERM_IN); empty when MUMPS
  // orders itself with ICNTL(7) = icntl7.
  std::vector<int> perm_in;
  int icntl7 = 7;
  // For a SYM = 2 instance: irn/jcn hold the entries of the lower triangle
  // (row >= column) only, and value_slots[k] is the position of entry k in the
  // pattern's CSC values (the caller gathers the values; instances of
  // MumpsInstance read them in irn/jcn order as always).
  bool symmetric = false;
  std::vector<int> value_slots;
  // Parallel analysis with PT-SCOTCH (ICNTL(28) = 2, ICNTL(29) = 1) instead of
  // the sequential one (ICNTL(28) = 1); MUMPS analyses sequentially with
  // ICNTL(7) on one process.
  bool parallel_analysis = false;
};

// Workspace policy shared by the instances of one solver: the ICNTL(14)
// relaxation in percent (doubled by each retry and kept for later
// factorizations) and the retries spent.
struct MumpsWorkspace {
  int relaxation_percent = 0;
  int retries = 0;
};

template <typename Real>
class MumpsInstance {
 public:
  MumpsInstance();
  ~MumpsInstance();  // JOB = -2 if Init() succeeded
  MumpsInstance(const MumpsInstance&) = delete;
  MumpsInstance& operator=(const MumpsInstance&) = delete;

  // MUMPS job -1 and the control parameters (once per instance). With
  // `symmetric`, MUMPS' LDL^T for general symmetric matrices (SYM set to 2:
  // indefinite ones too, with 2 x 2 pivots); its input then holds one
  // triangle (MumpsAnalysisInput::symmetric).
  LinearSolverStatus Init(const LinearSolverOptions& options,
                          std::string* message,
                          bool symmetric = false);
  // MUMPS job 1 on `input` (kept by pointer until the next Analyze()).
  LinearSolverStatus Analyze(MumpsAnalysisInput* input, std::string* message);
  // MUMPS job 2 on `values` (pattern order, copied).
  LinearSolverStatus Factorize(const Real* values,
                               MumpsWorkspace* workspace,
                               std::string* message);
  // MUMPS job 3 in place on rhs (n entries).
  LinearSolverStatus Solve(Real* rhs,
                           MumpsWorkspace* workspace,
                           std::string* message);

  // Entries of A^-1 on a 1-based pattern by columns (ICNTL(30) = 1):
  // irhs_ptr (n + 1) and irhs_sparse (nz) ask, rhs_sparse (nz) receives;
  // the host's arrays are broadcast to every rank on success.
  LinearSolverStatus InverseEntries(int* irhs_ptr,
                                    int* irhs_sparse,
                                    Real* rhs_sparse,
                                    int nz,
                                    MumpsWorkspace* workspace,
                                    std::string* message);

  bool analyzed() const;
  bool factorized() const;
  // 1-based as in the user guide; the caller checks the range.
  int infog(int i) const;
  double rinfog(int i) const;
  int icntl(int i) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

extern template class MumpsInstance<float>;
extern template class MumpsInstance<double>;

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_MUMPS_INSTANCE_H_
