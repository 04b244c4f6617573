#include "formulations/residual.h"

#include <algorithm>
#include <cassert>

#include "formulations/alart_curnier.h"
#include "formulations/disk_friction.h"
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
                                 Eigen::Matrix3d*,
                                 DiskPiece);
using PiecelessFunction = void (*)(const Eigen::Vector3d&,
                                   const Eigen::Vector3d&,
                                   double,
                                   const Eigen::Vector3d&,
                                   Eigen::Vector3d*,
                                   Eigen::Matrix3d*,
                                   Eigen::Matrix3d*);

// NM and FB have no pieces to prescribe.
template <PiecelessFunction kFunction>
void IgnoringPiece(const Eigen::Vector3d& u,
                   const Eigen::Vector3d& r,
                   double mu,
                   const Eigen::Vector3d& rho,
                   Eigen::Vector3d* F,
                   Eigen::Matrix3d* A,
                   Eigen::Matrix3d* B,
                   DiskPiece /*piece*/) {
  kFunction(u, r, mu, rho, F, A, B);
}

ContactFunction ContactFunctionOf(Formulation formulation) {
  switch (formulation) {
    case Formulation::kAlartCurnier:
      return &internal::AlartCurnierResidual;
    case Formulation::kJeanMoreau:
      return &internal::JeanMoreauResidual;
    case Formulation::kNaturalMap:
      return &IgnoringPiece<&internal::NaturalMapResidual>;
    case Formulation::kFischerBurmeister:
      return &IgnoringPiece<&internal::FischerBurmeisterResidual>;
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
                     Eigen::Matrix3d* B,
                     const DiskPiece* pieces) {
  Eigen::Vector3d f;
  for (Eigen::Index a = 0; a < nc; ++a) {
    const Eigen::Vector3d u_a = u.segment<3>(3 * a);
    const Eigen::Vector3d r_a = r.segment<3>(3 * a);
    const Eigen::Vector3d rho_a = rho.segment<3>(3 * a);
    const DiskPiece piece = pieces != nullptr ? pieces[a] : DiskPiece::kNone;
    if (A != nullptr) {
      kFunction(u_a, r_a, mu(a), rho_a, &f, A + a, B + a, piece);
    } else {
      kFunction(u_a, r_a, mu(a), rho_a, &f, nullptr, nullptr, piece);
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
    function(u, r, mu, rho, F, nullptr, nullptr, DiskPiece::kNone);
    return;
  }
  Eigen::Matrix3d scratch;
  function(u,
           r,
           mu,
           rho,
           F,
           A != nullptr ? A : &scratch,
           B != nullptr ? B : &scratch,
           DiskPiece::kNone);
}

bool HasDiskPieces(Formulation formulation) {
  return formulation == Formulation::kAlartCurnier ||
         formulation == Formulation::kJeanMoreau;
}

void ClassifyDiskPieces(Formulation formulation,
                        const Eigen::VectorXd& u,
                        const Eigen::VectorXd& r,
                        const Eigen::VectorXd& mu,
                        const Eigen::VectorXd& rho,
                        DiskPiece* pieces,
                        Eigen::VectorXd* s_t) {
  assert(HasDiskPieces(formulation));
  const Eigen::Index nc = mu.size();
  s_t->resize(2 * nc);
  for (Eigen::Index a = 0; a < nc; ++a) {
    const Eigen::Vector3d u_a = u.segment<3>(3 * a);
    const Eigen::Vector3d r_a = r.segment<3>(3 * a);
    const Eigen::Vector3d rho_a = rho.segment<3>(3 * a);
    const double radius =
        formulation == Formulation::kJeanMoreau
            ? internal::JeanMoreauRadius(u_a, r_a, mu(a), rho_a)
            : internal::AlartCurnierRadius(u_a, r_a, mu(a), rho_a);
    const Eigen::Vector2d s(r_a(1) - rho_a(1) * u_a(1),
                            r_a(2) - rho_a(2) * u_a(2));
    s_t->segment<2>(2 * a) = s;
    pieces[a] = internal::DiskPieceAt(s.norm(), radius);
  }
}

void EvaluateAll(Formulation formulation,
                 const Eigen::VectorXd& u,
                 const Eigen::VectorXd& r,
                 const Eigen::VectorXd& mu,
                 const Eigen::VectorXd& rho,
                 Eigen::VectorXd* F,
                 Eigen::Matrix3d* A,
                 Eigen::Matrix3d* B,
                 const DiskPiece* pieces) {
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
          nc, u, r, mu, rho, F, A, B, pieces);
      return;
    case Formulation::kJeanMoreau:
      EvaluateAllWith<&internal::JeanMoreauResidual>(
          nc, u, r, mu, rho, F, A, B, pieces);
      return;
    case Formulation::kNaturalMap:
      EvaluateAllWith<&IgnoringPiece<&internal::NaturalMapResidual>>(
          nc, u, r, mu, rho, F, A, B, pieces);
      return;
    case Formulation::kFischerBurmeister:
      EvaluateAllWith<&IgnoringPiece<&internal::FischerBurmeisterResidual>>(
          nc, u, r, mu, rho, F, A, B, pieces);
      return;
  }
}

}  // namespace fcsn
