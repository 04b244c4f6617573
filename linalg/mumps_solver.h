// linalg/mumps_solver.h: LinearSolver on MUMPS (unsymmetric LU, SYM = 0; and
// LDL^T, SYM = 2, for FactorizeSymmetric(): a second pair of instances on the
// lower triangle, linalg/mumps_symmetric.h, with the same ordering, analysed
// at their first factorization after each analysis; with
// SparsityPattern::symmetric_first and an ordering of fcsn's own, Analyze()
// only orders, the LDL^T's analysis decides kAuto's arithmetic and gives the
// estimates, and the LU instances are analysed at the first Factorize()):
// the sequential library, or MPI MUMPS in the mpi flavour, where every rank
// of LinearSolverOptions::mpi_communicator makes the same calls on the same
// data and receives the same solution (replicated-data model,
// linalg/mumps_comm.h).
//
// The MUMPS instances (mumps_instance.h) live as long as the object
// (formulations.md §4.4): JOB = -1 in Create(), JOB = 1 (analysis) in
// Analyze(), JOB = 2 in Factorize(), JOB = 3 in Solve(), JOB = -2 in the
// destructor. The 1-based coordinate arrays IRN/JCN are built once in
// Analyze(); Factorize() only copies the values into MUMPS' A array (same
// order).
//
// Ordering: Ordering::kMetis computes METIS_NodeND (ordering.h) and passes it
// as PERM_IN with ICNTL(7) = 1 (every rank computes it; MUMPS reads the
// host's); kScotch, kAmd and kAuto set ICNTL(7) = 3, 0, 7; kPtScotch asks for
// the parallel analysis (ICNTL(28) = 2, ICNTL(29) = 1), sequential SCOTCH on
// one process. stats().ordering_used is read back from INFOG(7) and
// INFOG(32), so a silent fallback of MUMPS is visible. kMetis with
// options.adaptive_block_ordering on a pattern with block_starts applies the
// adaptive block ordering of ordering.h: the
// quotient's ordering first ("metis-blocks"), then, inside the Factorize()
// where the rule says so, a new analysis on the variables' graph ("metis";
// stats().reanalyses).
//
// Precision (LinearSolverOptions::precision): kDouble factorizes with d-MUMPS;
// kMixed decorates s-MUMPS with the refinement and fallback of
// mixed_precision.h, the d-MUMPS instance being created and analysed at the
// first fallback on a pattern; kAuto analyses with s-MUMPS and uses the mixed
// scheme (as kMixed) for the patterns whose estimated factorization reaches
// kAutoMixedMinFlops (mumps_solver.cc), d-MUMPS (analysed too) for the
// smaller ones. Both instances share the coordinates,
// the ordering (computed once) and the ICNTL(14) relaxation.
//
// Errors: MUMPS' INFO(1) < 0 is translated in mumps_instance.cc. Workspace
// shortage is retried with a doubled ICNTL(14). A numerically singular J
// (INFO(1) = -10, or null pivots found by ICNTL(24)) gives kSingular, and
// Solve() never uses those factors.
//
// No MUMPS type or macro appears in this header: the instances live behind a
// pimpl.
#ifndef FCSN_LINALG_MUMPS_SOLVER_H_
#define FCSN_LINALG_MUMPS_SOLVER_H_

#include <memory>
#include <string>
#include <vector>

#include "linalg/linear_solver.h"

namespace fcsn::internal {

class MumpsSolver final : public LinearSolver {
 public:
  // Initializes a MUMPS instance (JOB = -1); nullptr and a message if the
  // options are invalid or MUMPS refuses.
  static std::unique_ptr<MumpsSolver> Create(const LinearSolverOptions& options,
                                             std::string* message);
  ~MumpsSolver() override;

  // Advanced: analysis with a caller-given elimination order, where
  // position[i] is the 0-based pivot position of variable i (METIS' iperm
  // convention, see ordering.h). It is passed as PERM_IN with ICNTL(7) = 1
  // whatever options.ordering says; stats().ordering_used becomes "user".
  // kInvalidInput if `position` is not a permutation of 0..n-1.
  LinearSolverStatus AnalyzeWithOrdering(const SparsityPattern& pattern,
                                         const std::vector<int>& position,
                                         std::string* message);

  // Advanced, read-only diagnostics: MUMPS' INFOG(i) and ICNTL(i), 1-based as
  // in the MUMPS user guide (1 <= i <= 80, resp. 60), of the instance whose
  // factors are in use. Meant for tests and expert logging; 0 when i is out
  // of range.
  int Infog(int i) const;
  int Icntl(int i) const;

 private:
  struct Impl;
  explicit MumpsSolver(const LinearSolverOptions& options);

  LinearSolverStatus DoAnalyze(const SparsityPattern& pattern,
                               std::string* message) override;
  LinearSolverStatus DoFactorize(const double* values,
                                 std::string* message) override;
  LinearSolverStatus DoFactorizeSymmetric(const double* values,
                                          std::string* message) override;
  LinearSolverStatus DoSolve(Eigen::VectorXd* rhs,
                             std::string* message) override;
  LinearSolverStatus DoSolveUnrefined(Eigen::VectorXd* rhs,
                                      std::string* message) override;

  std::unique_ptr<Impl> impl_;
};

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_MUMPS_SOLVER_H_
