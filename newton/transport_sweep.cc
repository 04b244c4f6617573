#include "newton/transport_sweep.h"

#include <algorithm>
#include <vector>

#include "linalg/blas_threads.h"
#include "minverse/block_rho.h"
#include "nsgs/local_solvers.h"

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

// The update of contact a (the header's loop body) on y = L^-1 P (H r + f),
// with Y_a on its reach.
void UpdateContact(const GlobalProblem& problem,
                   const Eigen::Matrix3d& w_aa,
                   const NsgsOptions& options,
                   int a,
                   const ContactReach& reach,
                   Eigen::VectorXd* r,
                   Eigen::VectorXd* y) {
  ContactScaling scaling;
  if (!Scaling(w_aa, &scaling)) return;  // no free dof: left as it is
  // u_a = H_a^T v + w_a = Y_a^T D^-1 y + w_a
  Eigen::Vector3d u_a = problem.w.segment<3>(3 * a);
  for (int k = 0; k < reach.size(); ++k) {
    const double scaled = (*y)[reach.pivots[k]] * reach.inverse_d[k];
    const double* row = &reach.rows[3 * k];
    for (int j = 0; j < 3; ++j) u_a[j] += row[j] * scaled;
  }
  const Eigen::Vector3d r_a = r->segment<3>(3 * a);
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
  if (!x.allFinite() || change.isZero(0.0)) return;
  // H r + f += H_a change  <=>  y += Y_a change
  for (int k = 0; k < reach.size(); ++k) {
    const double* row = &reach.rows[3 * k];
    (*y)[reach.pivots[k]] +=
        row[0] * change[0] + row[1] * change[1] + row[2] * change[2];
  }
  r->segment<3>(3 * a) = x;
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
  // The reach solves' BLAS calls are small (3 kReachBatch right-hand sides):
  // more threads only add their synchronization (on the pushed bar, 8000
  // contacts, two cores busy with other work: 8.8 s of sweeps with
  // OpenBLAS' default threads, 1.3 s with one; bench/results/fronts.md).
  SingleBlasThread single_blas(/*active=*/true);
  Eigen::VectorXd y, new_r = *r;
  if (!factorization.ForwardSolve(problem.H * *r + problem.f, &y)) {
    return false;
  }
  // The reaches Y_a do not depend on y: a batch of contacts gets them in one
  // pass, then is updated one contact after the other.
  std::vector<int> batch(kReachBatch);
  std::vector<ContactReach> reaches;
  for (int pass = 0; pass < 2; ++pass) {
    for (int first = 0; first < nc; first += kReachBatch) {
      const int count = std::min(kReachBatch, nc - first);
      for (int b = 0; b < count; ++b) {
        batch[b] = pass == 0 ? first + b : nc - 1 - (first + b);
      }
      if (!factorization.Reach(problem.H, batch.data(), count, &reaches)) {
        return false;
      }
      for (int b = 0; b < count; ++b) {
        const int a = batch[b];
        UpdateContact(problem, blocks[a], options, a, reaches[b], &new_r, &y);
      }
    }
  }
  Eigen::VectorXd new_v(n), work(n);
  if (!factorization.BackwardSolve(y, &new_v, &work) || !new_v.allFinite() ||
      !new_r.allFinite()) {
    return false;
  }
  *v = new_v;
  *r = new_r;
  return true;
}

}  // namespace fcsn::internal

namespace fcsn::internal {

TransportFunction MakeTransport(const GlobalProblem& problem,
                                MInverse* m_inverse,
                                const NsgsOptions& options) {
  if (m_inverse == nullptr || !m_inverse->regular() ||
      !m_inverse->factorization().symmetric()) {
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
