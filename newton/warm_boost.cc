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

std::vector<bool> ContactsAtTheRulesRho(const Eigen::VectorXd& newton_rho,
                                        const Eigen::VectorXd& rho,
                                        double boost) {
  const int nc = static_cast<int>(rho.size() / 3);
  std::vector<bool> at_rule(nc, false);
  if (!(boost > 1.0)) return at_rule;
  for (int a = 0; a < nc; ++a) {
    at_rule[a] = newton_rho.segment<3>(3 * a) == rho.segment<3>(3 * a);
  }
  return at_rule;
}

int StartAtTheRulesRho(const std::vector<bool>& at_rule,
                       const Eigen::VectorXd& rho,
                       Eigen::VectorXd* newton_rho) {
  int count = 0;
  for (size_t a = 0; a < at_rule.size(); ++a) {
    if (!at_rule[a]) continue;
    newton_rho->segment<3>(3 * a) = rho.segment<3>(3 * a);
    ++count;
  }
  return count;
}

Eigen::VectorXd EndedFactors(const Eigen::VectorXd& newton_rho,
                             const Eigen::VectorXd& rho) {
  const int nc = static_cast<int>(rho.size() / 3);
  Eigen::VectorXd factors(nc);
  for (int a = 0; a < nc; ++a) {
    // A contact without a tangential rho has no boost to keep.
    factors[a] =
        rho[3 * a + 1] > 0.0 ? newton_rho[3 * a + 1] / rho[3 * a + 1] : 1.0;
  }
  return factors;
}

std::vector<int> FirstStepAtTheEndedFactors(Formulation formulation,
                                            const Eigen::VectorXd& u,
                                            const Eigen::VectorXd& r,
                                            const Eigen::VectorXd& mu,
                                            const Eigen::VectorXd& rho,
                                            const Eigen::VectorXd& ended,
                                            Eigen::VectorXd* newton_rho) {
  const int nc = static_cast<int>(mu.size());
  std::vector<DiskPiece> start(nc), at_ended(nc);
  Eigen::VectorXd s_t, ended_rho = *newton_rho;
  ClassifyDiskPieces(formulation, u, r, mu, *newton_rho, start.data(), &s_t);
  for (int a = 0; a < nc; ++a) {
    ended_rho.segment<3>(3 * a) = ended[a] * rho.segment<3>(3 * a);
  }
  ClassifyDiskPieces(formulation, u, r, mu, ended_rho, at_ended.data(), &s_t);
  std::vector<int> contacts;
  for (int a = 0; a < nc; ++a) {
    if (ended_rho[3 * a + 1] > (*newton_rho)[3 * a + 1] &&
        start[a] == DiskPiece::kSlip && at_ended[a] == DiskPiece::kSlip) {
      newton_rho->segment<3>(3 * a) = ended_rho.segment<3>(3 * a);
      contacts.push_back(a);
    }
  }
  return contacts;
}

}  // namespace fcsn::internal
