// minverse/shared_m.h: M = problem.M in this process, the shared-memory
// implementation of minverse/m_services.h. M^-1 is the one factorization of M
// of the solve (MInverse, linalg/m_factorization.h: CHOLMOD's supernodal
// Cholesky, LDL^T or LU), kept across solves while M is unchanged;
//
//   rho and q_free      ComputeScaling (minverse/rho.h), W_aa by
//                       elimination-tree solves, on two threads when asked;
//   x = M^-1 b          RegularSolve (empty when M is not regular);
//   y = M v             problem.M * v;
//   J's linear solver   LinearSolver::Create: J's values hold all of M, so
//                       nothing of M lies outside them.
#ifndef FCSN_MINVERSE_SHARED_M_H_
#define FCSN_MINVERSE_SHARED_M_H_

#include <memory>
#include <string>
#include <vector>

#include "minverse/m_services.h"

namespace fcsn::internal {

class SharedM final : public MServices {
 public:
  SharedM() = default;
  SharedM(const SharedM&) = delete;
  SharedM& operator=(const SharedM&) = delete;

  // "" when options and problem are valid (SolverOptions::Validate, then
  // GlobalProblem::Validate), else the first message.
  std::string Accept(const SolverOptions& options,
                     const GlobalProblem& problem,
                     const LocalMatrixEntries* local_m,
                     const Solution* guess) override;
  void Bind(const GlobalProblem& problem) override;
  bool ComputeScaling(const GlobalProblem& problem,
                      const SolverOptions& options,
                      const SecondThreadReady& second,
                      ScalingData* scaling,
                      std::string* message) override;
  const Eigen::VectorXd& free_velocity() const override {
    return m_inverse_.free_velocity();
  }
  MSolveFunction MSolve() override;
  bool reused_blocks() const override { return m_inverse_.reused_blocks(); }

  void Multiply(const GlobalProblem& problem,
                const Eigen::VectorXd& v,
                Eigen::VectorXd* y) const override;
  ErrorMeasures Measure(const GlobalProblem& problem,
                        const Eigen::VectorXd& v,
                        const Eigen::VectorXd& r,
                        const MSolveFunction& m_solve,
                        double q_free_norm,
                        internal::EarlierFloor* earlier) const override;
  bool collective() const override { return false; }

  bool JacobianSolverFits(const LinearSolver* linear) const override;
  std::unique_ptr<LinearSolver> CreateJacobianSolver(
      const LinearSolverOptions& options, std::string* message) const override;
  bool JacobianBlockChanged(const LinearSolver& linear) const override;
  void SetJacobianBlock(LinearSolver* linear) const override;
  void AddProductOutsideJ(const Eigen::VectorXd& x,
                          Eigen::VectorXd* y) const override;
  void AppendEntriesOutsideJ(double scale,
                             std::vector<double>* values) const override;

  MInverse* sweep_factors() override { return &m_inverse_; }
  // While the blocks W_aa are not kept from an earlier solve (then M's side
  // has no work to overlap with).
  bool CanOverlapSetup() const override;
  void Order() override;
  bool FactorizeOrdered() override;

 private:
  MInverse m_inverse_;
};

}  // namespace fcsn::internal

#endif  // FCSN_MINVERSE_SHARED_M_H_
