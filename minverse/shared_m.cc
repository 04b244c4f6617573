// M in this process (minverse/shared_m.h).
#include "minverse/shared_m.h"

#include "linalg/distributed_jacobian_solver.h"

namespace fcsn::internal {

std::string SharedM::Accept(const SolverOptions& options,
                            const GlobalProblem& problem,
                            const LocalMatrixEntries* /*local_m*/,
                            const Solution* /*guess*/) {
  if (std::string why = options.Validate(); !why.empty()) return why;
  return problem.Validate();
}

void SharedM::Bind(const GlobalProblem& problem) { m_inverse_.Bind(problem); }

bool SharedM::ComputeScaling(const GlobalProblem& problem,
                             const SolverOptions& options,
                             const SecondThreadReady& second,
                             ScalingData* scaling,
                             std::string* message) {
  return internal::ComputeScaling(
      problem, options.rho, scaling, message, &m_inverse_, second);
}

MSolveFunction SharedM::MSolve() {
  return RegularSolve(m_inverse_.factorization());
}

void SharedM::Multiply(const GlobalProblem& problem,
                       const Eigen::VectorXd& v,
                       Eigen::VectorXd* y) const {
  y->noalias() = problem.M * v;
}

ErrorMeasures SharedM::Measure(const GlobalProblem& problem,
                               const Eigen::VectorXd& v,
                               const Eigen::VectorXd& r,
                               const MSolveFunction& m_solve,
                               double q_free_norm,
                               EarlierFloor* earlier) const {
  return ComputeErrorMeasures(problem, v, r, m_solve, q_free_norm, earlier);
}

bool SharedM::JacobianSolverFits(const LinearSolver* linear) const {
  return linear != nullptr &&
         dynamic_cast<const DistributedJacobianSolver*>(linear) == nullptr;
}

std::unique_ptr<LinearSolver> SharedM::CreateJacobianSolver(
    const LinearSolverOptions& options, std::string* message) const {
  return LinearSolver::Create(options, message);
}

bool SharedM::JacobianBlockChanged(const LinearSolver& /*linear*/) const {
  return false;
}

void SharedM::SetJacobianBlock(LinearSolver* /*linear*/) const {}

void SharedM::AddProductOutsideJ(const Eigen::VectorXd& /*x*/,
                                 Eigen::VectorXd* /*y*/) const {}

void SharedM::AppendEntriesOutsideJ(double /*scale*/,
                                    std::vector<double>* /*values*/) const {}

bool SharedM::CanOverlapSetup() const { return !m_inverse_.reused_blocks(); }

void SharedM::Order() { m_inverse_.Order(); }

bool SharedM::FactorizeOrdered() { return m_inverse_.FactorizeOrdered(); }

}  // namespace fcsn::internal
