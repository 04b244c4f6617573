#include "newton/warm_boost.h"

#include <algorithm>
#include <vector>

#include "formulations/residual.h"

namespace fcsn::internal {

double WarmBoostKeepingPieces(Formulation formulation,
                              const Eigen::VectorXd& u,
                              const Eigen::VectorXd& r,
                              const Eigen::VectorXd& mu,
                              const Eigen::VectorXd& rho,
                              double boost,
                              double reduction) {
  const int nc = static_cast<int>(mu.size());
  std::vector<DiskPiece> rule(nc), boosted(nc);
  Eigen::VectorXd s_t;
  ClassifyDiskPieces(formulation, u, r, mu, rho, rule.data(), &s_t);
  while (boost > 1.0) {
    const Eigen::VectorXd boosted_rho = boost * rho;
    ClassifyDiskPieces(
        formulation, u, r, mu, boosted_rho, boosted.data(), &s_t);
    bool keeps = true;
    for (int a = 0; a < nc && keeps; ++a) {
      keeps = rule[a] == DiskPiece::kSlip || boosted[a] != DiskPiece::kSlip;
    }
    if (keeps) return boost;
    boost = std::max(1.0, boost / reduction);
  }
  return boost;
}

}  // namespace fcsn::internal
