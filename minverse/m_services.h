// minverse/m_services.h: M and M^-1 as one solve uses them, behind one
// interface. Two implementations:
//
//   SharedM       (minverse/shared_m.h)       M = problem.M in this process;
//                 M^-1 by its one factorization (MInverse,
//                 linalg/m_factorization.h);
//   DistributedM  (minverse/distributed_m.h)  M's entries spread over the ranks
//                 of an MPI communicator; every call below is then collective.
//
// The services (formulations.md §5, §9.1):
//
//   q_free = H^T M^-1 f + w, rho from W_aa = H_a^T M^-1 H_a   ComputeScaling
//   v_free = M^-1 f (the free-flight start)                    free_velocity
//   x = M^-1 b (the round-off floor of the error measures)     MSolve
//   y = M v, the error measures at (v, r)                      Multiply, Measure
//   J's linear solver for J = [M  -H; A H^T  B] and the part
//   of M that J's values do not hold (another rank's entries)  Jacobian*,
//                                                              *OutsideJ
//   the local factors the Gauss-Seidel family sweeps with      sweep_factors
//
// MChoice (below) holds one of each and picks the one a solve uses: the one
// place where "M is distributed" is decided.
#ifndef FCSN_MINVERSE_M_SERVICES_H_
#define FCSN_MINVERSE_M_SERVICES_H_

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "fcsn/error_measures.h"
#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "linalg/linear_solver.h"
#include "linalg/m_factorization.h"
#include "minverse/rho.h"
#include "problem/error_measures_detail.h"

namespace fcsn::internal {

class MServices {
 public:
  virtual ~MServices() = default;

  // "" when this M accepts the solve's input, else why not: options and
  // problem valid; DistributedM also checks, collectively, that the
  // replicated data agree over the ranks and takes local_m (its entries of M;
  // null for SharedM). The same message on every rank.
  virtual std::string Accept(const SolverOptions& options,
                             const GlobalProblem& problem,
                             const LocalMatrixEntries* local_m,
                             const Solution* guess) = 0;
  // Starts the solve's use of problem.M's values (SharedM: MInverse::Bind,
  // which keeps the factors of an equal M). Before ComputeScaling().
  virtual void Bind(const GlobalProblem& problem) = 0;
  // rho and q_free into *scaling, factorizing M unless its factors are kept.
  // second: when the exact W_aa may use a second thread (shared memory). False
  // with a message when M cannot serve (the same on every rank).
  virtual bool ComputeScaling(const GlobalProblem& problem,
                              const SolverOptions& options,
                              const SecondThreadReady& second,
                              ScalingData* scaling,
                              std::string* message) = 0;
  // After ComputeScaling(): M^-1 f.
  virtual const Eigen::VectorXd& free_velocity() const = 0;
  // After ComputeScaling(): x = M^-1 b by M's factors, empty when M is not
  // regular (the floor then uses diag(M); fcsn/error_measures.h).
  virtual MSolveFunction MSolve() = 0;
  // Whether the factors' blocks W_aa of an earlier solve were kept.
  virtual bool reused_blocks() const = 0;

  // y = M v (y resized).
  virtual void Multiply(const GlobalProblem& problem,
                        const Eigen::VectorXd& v,
                        Eigen::VectorXd* y) const = 0;
  // The error measures of (v, r) (fcsn/error_measures.h); earlier: a floor
  // s_eps of this solve that may serve (problem/error_measures_detail.h),
  // nullptr to measure it.
  virtual ErrorMeasures Measure(const GlobalProblem& problem,
                                const Eigen::VectorXd& v,
                                const Eigen::VectorXd& r,
                                const MSolveFunction& m_solve,
                                double q_free_norm,
                                internal::EarlierFloor* earlier) const = 0;
  // Whether the calls are collective over MPI ranks: a decision taken from
  // them must then be the same on every rank (e.g. no per-rank Krylov
  // iteration on J's products).
  virtual bool collective() const = 0;

  // J's linear solver: whether `linear` (may be null) is of the kind this M
  // needs, and a new one of that kind (nullptr and a message on failure).
  virtual bool JacobianSolverFits(const LinearSolver* linear) const = 0;
  virtual std::unique_ptr<LinearSolver> CreateJacobianSolver(
      const LinearSolverOptions& options, std::string* message) const = 0;
  // Whether `linear` must analyze again because the part of M outside J's
  // values changed its pattern (collective), and that part's pattern handed
  // to it before Analyze(). `linear` fits (JacobianSolverFits).
  virtual bool JacobianBlockChanged(const LinearSolver& linear) const = 0;
  virtual void SetJacobianBlock(LinearSolver* linear) const = 0;
  // y += M_out x and, after J's scaled values, scale * M_out's entries in
  // SetJacobianBlock()'s order, where M_out is the part of M that J's values
  // (NewtonSystem) do not hold: nothing for SharedM, this rank's entries for
  // DistributedM.
  virtual void AddProductOutsideJ(const Eigen::VectorXd& x,
                                  Eigen::VectorXd* y) const = 0;
  virtual void AppendEntriesOutsideJ(double scale,
                                     std::vector<double>* values) const = 0;

  // The factors in this process the Gauss-Seidel family sweeps with (NSGS,
  // projected Jacobi, the transport sweep), bound to the solve's problem;
  // nullptr when M's factors are spread over ranks (those phases are not
  // offered there: fcsn/solver.h).
  virtual MInverse* sweep_factors() = 0;
  // M's factorization in two parts around J's analysis on a second thread
  // (SolverOptions::setup_threads): whether that overlap applies to this M
  // now, then MInverse::Order() and FactorizeOrdered() (false: M is not yet
  // factored and the caller waits for the other thread first).
  virtual bool CanOverlapSetup() const = 0;
  virtual void Order() = 0;
  virtual bool FactorizeOrdered() = 0;
};

class SharedM;
class DistributedM;

// The two implementations, kept across solves (each keeps its factors while
// M is unchanged), and the choice between them.
class MChoice {
 public:
  MChoice();
  ~MChoice();
  MChoice(const MChoice&) = delete;
  MChoice& operator=(const MChoice&) = delete;

  // The services of a solve given local_m (its rank's entries of M, for
  // fcsn/solver.h's distributed overload; null: M = problem.M): the
  // distributed ones when local_m is not null, else the shared ones.
  MServices* Pick(const LocalMatrixEntries* local_m);
  // Forgets the distributed factorization (the linear solver's options
  // changed).
  void ResetDistributed();

 private:
  std::unique_ptr<SharedM> shared_;
  std::unique_ptr<DistributedM> distributed_;
};

}  // namespace fcsn::internal

#endif  // FCSN_MINVERSE_M_SERVICES_H_
