#include "newton/tail_rho.h"

namespace fcsn::internal {

int UnboostSettledSlips(const Eigen::VectorXd& rho,
                        const DiskPiece* pieces,
                        const Eigen::VectorXd& u,
                        const Eigen::VectorXd& du,
                        const Eigen::VectorXd& dr,
                        Eigen::VectorXd* newton_rho) {
  const int nc = static_cast<int>(rho.size() / 3);
  int settled = 0;
  for (int a = 0; a < nc; ++a) {
    if (pieces[a] != DiskPiece::kSlip) continue;
    const Eigen::Vector2d rho_t = rho.segment<2>(3 * a + 1);
    const double margin = rho_t.cwiseProduct(u.segment<2>(3 * a + 1)).norm();
    const double change = (dr.segment<2>(3 * a + 1) -
                           rho_t.cwiseProduct(du.segment<2>(3 * a + 1)))
                              .norm();
    if (margin > change) {
      newton_rho->segment<3>(3 * a) = rho.segment<3>(3 * a);
      ++settled;
    }
  }
  return settled;
}

}  // namespace fcsn::internal
