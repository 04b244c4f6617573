#include "formulations/residual.h"

#include <algorithm>
#include <cassert>

#include "formulations/alart_curnier.h"
#include "formulations/fischer_burmeister.h"
#include "formulations/jean_moreau.h"
#include "formulations/natural_map.h"

namespace fcsn {
namespace {

using ContactFunction = void (*)(const Eigen::Vector3d&,
                                 const Eigen::Vector3d&,
                                 double,
                                 const Eigen::Vector3d&,
                                 Eigen::Vector3d*,
                                 Eigen::Matrix3d*,
                                 Eigen::Matrix3d*);

ContactFunction ContactFunctionOf(Formulation formulation) {
  switch (formulation) {
    case Formulation::kAlartCurnier:
      return &internal::AlartCurnierResidual;
    case Formulation::kJeanMoreau:
      return &internal::JeanMoreauResidual;
    case Formulation::kNaturalMap:
      return &internal::NaturalMapResidual;
    case Formulation::kFischerBurmeister:
      return &internal::FischerBurmeisterResidual;
  }
  // Unreachable for valid enum values; an out-of-range value falls back to
  // Alart-Curnier rather than returning a null function (formulations.md
  // §10.5).
  return &internal::AlartCurnierResidual;
}

template <ContactFunction kFunction>
void EvaluateAllWith(Eigen::Index nc,
                     const Eigen::VectorXd& u,
                     const Eigen::VectorXd& r,
                     const Eigen::VectorXd& mu,
                     const Eigen::VectorXd& rho,
                     Eigen::VectorXd* F,
                     Eigen::Matrix3d* A,
                     Eigen::Matrix3d* B) {
  Eigen::Vector3d f;
  for (Eigen::Index a = 0; a < nc; ++a) {
    const Eigen::Vector3d u_a = u.segment<3>(3 * a);
    const Eigen::Vector3d r_a = r.segment<3>(3 * a);
    const Eigen::Vector3d rho_a = rho.segment<3>(3 * a);
    if (A != nullptr) {
      kFunction(u_a, r_a, mu(a), rho_a, &f, A + a, B + a);
    } else {
      kFunction(u_a, r_a, mu(a), rho_a, &f, nullptr, nullptr);
    }
    F->segment<3>(3 * a) = f;
  }
}

}  // namespace

void EvaluateContact(Formulation formulation,
                     const Eigen::Vector3d& u,
                     const Eigen::Vector3d& r,
                     double mu,
                     const Eigen::Vector3d& rho,
                     Eigen::Vector3d* F,
                     Eigen::Matrix3d* A,
                     Eigen::Matrix3d* B) {
  const ContactFunction function = ContactFunctionOf(formulation);
  if (A == nullptr && B == nullptr) {
    function(u, r, mu, rho, F, nullptr, nullptr);
    return;
  }
  Eigen::Matrix3d scratch;
  function(u,
           r,
           mu,
           rho,
           F,
           A != nullptr ? A : &scratch,
           B != nullptr ? B : &scratch);
}

void EvaluateAll(Formulation formulation,
                 const Eigen::VectorXd& u,
                 const Eigen::VectorXd& r,
                 const Eigen::VectorXd& mu,
                 const Eigen::VectorXd& rho,
                 Eigen::VectorXd* F,
                 Eigen::Matrix3d* A,
                 Eigen::Matrix3d* B) {
  assert(u.size() == 3 * mu.size() && r.size() == 3 * mu.size() &&
         rho.size() == 3 * mu.size() && F->size() == 3 * mu.size());
  assert((A == nullptr) == (B == nullptr));
  const Eigen::Index nc = std::min(
      {mu.size(), u.size() / 3, r.size() / 3, rho.size() / 3, F->size() / 3});
  if (A == nullptr || B == nullptr) {
    A = nullptr;
    B = nullptr;
  }
  switch (formulation) {
    case Formulation::kAlartCurnier:
      EvaluateAllWith<&internal::AlartCurnierResidual>(
          nc, u, r, mu, rho, F, A, B);
      return;
    case Formulation::kJeanMoreau:
      EvaluateAllWith<&internal::JeanMoreauResidual>(
          nc, u, r, mu, rho, F, A, B);
      return;
    case Formulation::kNaturalMap:
      EvaluateAllWith<&internal::NaturalMapResidual>(
          nc, u, r, mu, rho, F, A, B);
      return;
    case Formulation::kFischerBurmeister:
      EvaluateAllWith<&internal::FischerBurmeisterResidual>(
          nc, u, r, mu, rho, F, A, B);
      return;
  }
}

}  // namespace fcsn
