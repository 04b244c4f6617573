// minverse/distributed_m.h: a solve whose M is distributed over the ranks of
// options.linear_solver.mpi_communicator (the distributed overload
// of Solver::Solve, fcsn/solver.h): the distributed implementation of
// minverse/m_services.h, which MChoice picks for that overload:
//
//   M v, |M| |v|     DistributedMatrix (linalg/distributed_matrix.h): local
//                    products summed over the ranks (residual G, the merit's
//                    scale s_eq, the error measures: Multiply, Measure);
//   diag(M)          the same sum (RhoRule::kDiagonalEstimate);
//   M^-1             a DistributedMumpsSolver factorization of M alone:
//                    q_free = H^T M^-1 f + w, and for the exact rho rules
//                    W_aa = H_a^T M^-1 H_a from the entries of M^-1 on
//                    S_a x S_a (S_a: the dofs of H_a), which MUMPS computes
//                    with sparse right-hand sides and solutions (ICNTL(30),
//                    kBlockContactsPerBatch contacts per collective call);
//   the Newton matrix  NewtonSystem appends the scaled local entries of M to
//                    J_0's values (AppendEntriesOutsideJ),
//                    DistributedJacobianSolver factorizes
//                    (linalg/distributed_jacobian_solver.h).
//
// Accept() checks, collectively and in this order: MPI is ready; a fingerprint
// of the replicated data (sizes, H, f, w, mu, guess, the main options) is the
// same on every rank; the scope (fcsn/solver.h: kNewton, MUMPS, no
// m_upper_triangle, problem.M without stored entries), options and problem
// (replicated, so every rank decides the same); the local entries
// (FirstFailure: one message naming the first failing rank). Every rank
// returns the same message; none waits for another.
//
// Reuse across solves (time stepping): the analysis of M is kept while every
// rank's pattern is unchanged, the factors while every rank's entries are
// unchanged bit for bit (compared with a local copy, decided by AnyRank);
// only the local entries are compared, never a gathered M. The blocks W_aa
// are kept with the factors while H (replicated) is bit for bit unchanged.
#ifndef FCSN_MINVERSE_DISTRIBUTED_M_H_
#define FCSN_MINVERSE_DISTRIBUTED_M_H_

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "fcsn/error_measures.h"
#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "linalg/distributed_matrix.h"
#include "linalg/mumps_distributed.h"
#include "minverse/m_services.h"
#include "minverse/rho.h"

namespace fcsn::internal {

// Contacts whose blocks W_aa one MUMPS call computes (DistributedDiagonalBlocks):
// the call asks for the entries of M^-1 on S_a x S_a of each contact of the
// batch (S_a: the dofs of H_a, some 10 to 30), so the batch holds at most
// 1024 x |S_a|^2 entries (about 1 million with index: 12 MB at |S_a| = 30)
// on every rank, and the 3 nc solves of one column each become ceil(nc /
// 1024) calls.
constexpr int kBlockContactsPerBatch = 1024;

class DistributedM final : public MServices {
 public:
  DistributedM();
  ~DistributedM() override;
  DistributedM(const DistributedM&) = delete;
  DistributedM& operator=(const DistributedM&) = delete;

  // Collective, in the order of the header comment; local_m must not be null.
  std::string Accept(const SolverOptions& options,
                     const GlobalProblem& problem,
                     const LocalMatrixEntries* local_m,
                     const Solution* guess) override;
  // Nothing: Accept() took the entries and Factorize() compares them.
  void Bind(const GlobalProblem& problem) override;
  // Forgets the factorization of M (the linear-solver options changed).
  void Reset();

  // After a successful Accept().
  const DistributedMatrix* matrix() const { return matrix_.get(); }

  // Collective. second: unused (MUMPS' own parallelism).
  bool ComputeScaling(const GlobalProblem& problem,
                      const SolverOptions& options,
                      const SecondThreadReady& second,
                      ScalingData* scaling,
                      std::string* message) override;
  // Whether the last ComputeScaling() kept the factors (the blocks W_aa) of
  // an earlier solve.
  bool reused_factors() const { return reused_factors_; }
  bool reused_blocks() const override { return reused_blocks_; }
  const Eigen::VectorXd& free_velocity() const override {
    return free_velocity_;
  }
  // By the LU of M (collective: every rank calls it in the same order).
  MSolveFunction MSolve() override;

  void Multiply(const GlobalProblem& problem,
                const Eigen::VectorXd& v,
                Eigen::VectorXd* y) const override;
  ErrorMeasures Measure(const GlobalProblem& problem,
                        const Eigen::VectorXd& v,
                        const Eigen::VectorXd& r,
                        const MSolveFunction& m_solve,
                        double q_free_norm,
                        internal::EarlierFloor* earlier) const override;
  bool collective() const override { return true; }

  // J's solver is a DistributedJacobianSolver; M_out is all of M (this
  // rank's entries): J's values hold only zeros in M's diagonal slots.
  bool JacobianSolverFits(const LinearSolver* linear) const override;
  std::unique_ptr<LinearSolver> CreateJacobianSolver(
      const LinearSolverOptions& options, std::string* message) const override;
  bool JacobianBlockChanged(const LinearSolver& linear) const override;
  void SetJacobianBlock(LinearSolver* linear) const override;
  void AddProductOutsideJ(const Eigen::VectorXd& x,
                          Eigen::VectorXd* y) const override;
  void AppendEntriesOutsideJ(double scale,
                             std::vector<double>* values) const override;

  // No local factors: NSGS, the hybrid and the setup overlap are not offered.
  MInverse* sweep_factors() override { return nullptr; }
  bool CanOverlapSetup() const override { return false; }
  void Order() override {}
  bool FactorizeOrdered() override { return false; }

 private:
  bool Factorize(const LinearSolverOptions& options, std::string* message);
  // W_aa for every contact (cached, see above); false with a message when a
  // solve fails.
  bool DiagonalBlocks(const SparseMatrix& H, std::string* message);

  std::unique_ptr<DistributedMatrix> matrix_;
  std::unique_ptr<DistributedMumpsSolver> solver_;
  int analyzed_n_ = -1;
  std::vector<int> analyzed_rows_, analyzed_cols_;
  bool factored_ = false;
  std::vector<double> factored_values_;
  bool reused_factors_ = false;
  Eigen::VectorXd free_velocity_;
  // W_aa of the exact rho rules, kept with the factors while H is bit for
  // bit the H they were computed with (3 nc solves saved per time step).
  bool blocks_ready_ = false;
  bool reused_blocks_ = false;
  std::vector<Eigen::Matrix3d> blocks_;
  SparseMatrix blocks_h_;
};

// W_aa = H_a^T M^-1 H_a (DiagonalBlockFromSolve, linalg/m_factorization.h)
// for every contact a, with M factorized by `solver` (collective): X_a = M^-1
// H_a is needed on the rows S_a of H_a only, X_a(S_a, :) = M^-1(S_a, S_a)
// H_a(S_a, :), from the entries of M^-1 that InverseEntries() computes,
// contacts_per_batch contacts per call (>= 1; the last batch holds the
// remaining contacts). False with the solver's message (the same on every
// rank) when a call fails.
bool DistributedDiagonalBlocks(DistributedMumpsSolver* solver,
                               const SparseMatrix& H,
                               int contacts_per_batch,
                               std::vector<Eigen::Matrix3d>* blocks,
                               std::string* message);

}  // namespace fcsn::internal

#endif  // FCSN_MINVERSE_DISTRIBUTED_M_H_
