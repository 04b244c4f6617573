#include "newton/transport_sweep.h"

#include "newton/local_solvers.h"

namespace fcsn::internal {
namespace {

// The local solver's scaling from W_aa (as NSGS: split spectral rho, 1 /
// lambda_max); false when W_aa is unusable (the contact is skipped).
bool Scaling(const Eigen::Matrix3d& w, ContactScaling* scaling) {
  const double largest = LargestEigenvalue(w);
  if (!(largest > 0.0) || !SplitSpectralRho(w, &scaling->rho_ac)) return false;
  scaling->rho_ref = 1.0 / largest;
  return true;
}

// The update of contact a (the header's loop body); false when a solve fails.
bool UpdateContact(const GlobalProblem& problem,
                   const MFactorization& factorization,
                   const Eigen::Matrix3d& w_aa,
                   const NsgsOptions& options,
                   int a,
                   Eigen::VectorXd* v,
                   Eigen::VectorXd* r,
                   Eigen::VectorXd* rhs,
                   Eigen::VectorXd* dv,
                   Eigen::VectorXd* work) {
  ContactScaling scaling;
  if (!Scaling(w_aa, &scaling)) return true;  // no free dof: left as it is
  const Eigen::Vector3d r_a = r->segment<3>(3 * a);
  Eigen::Vector3d u_a = problem.w.segment<3>(3 * a);  // H_a^T v + w_a
  for (int j = 0; j < 3; ++j) {
    for (SparseMatrix::InnerIterator it(problem.H, 3 * a + j); it; ++it) {
      u_a[j] += it.value() * (*v)[it.row()];
    }
  }
  const Eigen::Vector3d q_a = u_a - w_aa * r_a;
  Eigen::Vector3d x = r_a;
  double rho_fp = 0.0;
  SolveContact(options.local_solver,
               w_aa,
               q_a,
               problem.mu[a],
               scaling,
               options.local_max_iterations,
               options.local_tolerance,
               &rho_fp,
               &x);
  const Eigen::Vector3d change = x - r_a;
  if (!x.allFinite() || change.isZero(0.0)) return true;
  rhs->setZero();  // H_a (x - r_a)
  for (int j = 0; j < 3; ++j) {
    for (SparseMatrix::InnerIterator it(problem.H, 3 * a + j); it; ++it) {
      (*rhs)[it.row()] += it.value() * change[j];
    }
  }
  if (!factorization.SolveWithoutAllocation(*rhs, dv, work)) return false;
  *v += *dv;
  r->segment<3>(3 * a) = x;
  return true;
}

}  // namespace

bool TransportSweep(const GlobalProblem& problem,
                    const MFactorization& factorization,
                    const std::vector<Eigen::Matrix3d>& blocks,
                    const NsgsOptions& options,
                    Eigen::VectorXd* v,
                    Eigen::VectorXd* r) {
  const int n = problem.n();
  const int nc = problem.nc();
  if (!factorization.symmetric() || static_cast<int>(blocks.size()) != nc)
    return false;
  Eigen::VectorXd new_v(n), new_r = *r, rhs = problem.H * *r + problem.f;
  Eigen::VectorXd work(n), dv(n);
  if (!factorization.SolveWithoutAllocation(rhs, &new_v, &work)) return false;
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < nc; ++i) {
      const int a = pass == 0 ? i : nc - 1 - i;
      if (!UpdateContact(problem,
                         factorization,
                         blocks[a],
                         options,
                         a,
                         &new_v,
                         &new_r,
                         &rhs,
                         &dv,
                         &work)) {
        return false;
      }
    }
  }
  if (!new_v.allFinite() || !new_r.allFinite()) return false;
  *v = new_v;
  *r = new_r;
  return true;
}

}  // namespace fcsn::internal

namespace fcsn::internal {

TransportFunction MakeTransport(const GlobalProblem& problem,
                                MInverse* m_inverse,
                                const NsgsOptions& options) {
  if (!m_inverse->regular() || !m_inverse->factorization().symmetric()) {
    return {};
  }
  return
      [&problem, m_inverse, options](Eigen::VectorXd* v, Eigen::VectorXd* r) {
        return TransportSweep(problem,
                              m_inverse->factorization(),
                              m_inverse->DiagonalBlocks(),
                              options,
                              v,
                              r);
      };
}

}  // namespace fcsn::internal
