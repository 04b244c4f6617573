#include "fcsn/contact_status.h"

#include <algorithm>

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

bool ContactResults(const GlobalProblem& problem,
                    const Solution& solution,
                    std::vector<ContactResult>* results) {
  const int nc = problem.nc();
  if (problem.H.rows() != problem.n() || problem.m() != 3 * nc ||
      problem.w.size() != problem.m() || solution.v.size() != problem.n() ||
      solution.r.size() != problem.m()) {
    return false;
  }
  const Eigen::VectorXd u = problem.H.transpose() * solution.v + problem.w;
  std::vector<ContactStatus> statuses;
  ClassifyContacts(problem.mu, solution.r, &statuses);
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
