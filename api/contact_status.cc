#include "fcsn/contact_status.h"

#include <algorithm>
#include <cmath>

#include "formulations/coulomb_cone.h"

namespace fcsn {

ContactStatus ClassifyContact(double mu,
                              const Eigen::Vector3d& r_a,
                              double largest_reaction) {
  constexpr double kZeroFraction =
      1e-14;  // ||r_a|| below this fraction of max ||r_b||: r_a = 0
  constexpr double kBoundaryFraction =
      1e-9;  // relative distance to the cone boundary for "slip"
  const double rN = r_a[0];
  const double rT = r_a.tail<2>().norm();
  if (rN <= 0.0 || r_a.norm() <= kZeroFraction * largest_reaction)
    return ContactStatus::kTakeOff;
  if (rT < (1.0 - kBoundaryFraction) * mu * rN) return ContactStatus::kStick;
  return ContactStatus::kSlip;
}

void ClassifyContacts(const Eigen::VectorXd& mu,
                      const Eigen::VectorXd& r,
                      std::vector<ContactStatus>* statuses) {
  const int nc = static_cast<int>(mu.size());
  double largest = 0.0;
  for (int a = 0; a < nc; ++a)
    largest = std::max(largest, r.segment<3>(3 * a).norm());
  statuses->resize(nc);
  for (int a = 0; a < nc; ++a)
    (*statuses)[a] = ClassifyContact(mu[a], r.segment<3>(3 * a), largest);
}

namespace {

bool SizesMatch(const GlobalProblem& problem, const Solution& solution) {
  return problem.H.rows() == problem.n() && problem.m() == 3 * problem.nc() &&
         problem.w.size() == problem.m() && problem.mu.size() == problem.nc() &&
         solution.v.size() == problem.n() && solution.r.size() == problem.m();
}

// || |H^T||v| + |w| ||, the first term of s_u.
double TermsOfU(const GlobalProblem& problem, const Eigen::VectorXd& v) {
  Eigen::VectorXd scale = problem.w.cwiseAbs();
  for (int j = 0; j < problem.H.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(problem.H, j); it; ++it)
      scale[j] += std::abs(it.value() * v[it.row()]);
  }
  return scale.norm();
}

}  // namespace

bool ClassifySolution(const GlobalProblem& problem,
                      const Solution& solution,
                      const ContactStatusScales& scales,
                      std::vector<ContactStatus>* statuses) {
  if (!SizesMatch(problem, solution)) return false;
  const int nc = problem.nc();
  const Eigen::VectorXd u = problem.H.transpose() * solution.v + problem.w;
  Eigen::VectorXd u_hat(problem.m());
  for (int a = 0; a < nc; ++a) {
    u_hat.segment<3>(3 * a) =
        CoulombCone(problem.mu[a]).ModifiedVelocity(u.segment<3>(3 * a));
  }
  const double tol = scales.tolerance;
  const double s_u = std::max(
      {TermsOfU(problem, solution.v), u_hat.norm(), scales.velocity_floor});
  const double r_threshold = tol * solution.r.norm();
  const double u_threshold = tol * s_u;
  statuses->resize(nc);
  for (int a = 0; a < nc; ++a) {
    const Eigen::Vector3d r_a = solution.r.segment<3>(3 * a);
    const double rT = r_a.tail<2>().norm();
    ContactStatus& status = (*statuses)[a];
    if (r_a[0] <= 0.0 || r_a.norm() <= r_threshold) {
      status = ContactStatus::kTakeOff;
    } else if (u.segment<2>(3 * a + 1).norm() > u_threshold ||
               rT >= (1.0 - tol) * problem.mu[a] * r_a[0]) {
      status = ContactStatus::kSlip;
    } else {
      status = ContactStatus::kStick;
    }
  }
  return true;
}

bool ContactResults(const GlobalProblem& problem,
                    const Solution& solution,
                    std::vector<ContactResult>* results,
                    const ContactStatusScales& scales) {
  std::vector<ContactStatus> statuses;
  if (!ClassifySolution(problem, solution, scales, &statuses)) return false;
  const int nc = problem.nc();
  const Eigen::VectorXd u = problem.H.transpose() * solution.v + problem.w;
  results->resize(nc);
  for (int a = 0; a < nc; ++a) {
    ContactResult& result = (*results)[a];
    result.status = statuses[a];
    result.r = solution.r.segment<3>(3 * a);
    result.u = u.segment<3>(3 * a);
    result.u_hat = CoulombCone(problem.mu[a]).ModifiedVelocity(result.u);
  }
  return true;
}

}  // namespace fcsn
