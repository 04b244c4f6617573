#include "fcsn/contact_status.h"

#include <algorithm>

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

}  // namespace fcsn
