// One contact's arguments of EvaluateContact (formulations/residual.h) and
// its residual and Jacobian [A B] = [dF/du dF/dr], exact and by central
// differences, and the case of each formulation's split that applies: shared
// by the residual tests.
#ifndef FCSN_TESTS_FORMULATIONS_CONTACT_POINT_H_
#define FCSN_TESTS_FORMULATIONS_CONTACT_POINT_H_

#include <Eigen/Core>
#include <algorithm>

#include "fcsn/types.h"
#include "formulations/coulomb_cone.h"
#include "formulations/residual.h"

namespace fcsn::testing {

using Matrix36 = Eigen::Matrix<double, 3, 6>;
using Vector6 = Eigen::Matrix<double, 6, 1>;

// One contact: the arguments of EvaluateContact.
struct Point {
  Eigen::Vector3d u;
  Eigen::Vector3d r;
  double mu;
  Eigen::Vector3d rho;
};

inline Point Shifted(const Point& p, const Vector6& d) {
  Point q = p;
  q.u += d.head<3>();
  q.r += d.tail<3>();
  return q;
}

inline Eigen::Vector3d Residual(Formulation f, const Point& p) {
  Eigen::Vector3d F;
  EvaluateContact(f, p.u, p.r, p.mu, p.rho, &F, nullptr, nullptr);
  return F;
}

// [A B] = [dF/du dF/dr].
inline Matrix36 Jacobian(Formulation f, const Point& p) {
  Eigen::Vector3d F;
  Eigen::Matrix3d A;
  Eigen::Matrix3d B;
  EvaluateContact(f, p.u, p.r, p.mu, p.rho, &F, &A, &B);
  Matrix36 j;
  j << A, B;
  return j;
}

// Central differences of F with step h in every one of the six variables (u,
// r).
inline Matrix36 FiniteDifferenceJacobian(Formulation f,
                                         const Point& p,
                                         double h) {
  Matrix36 j;
  for (int k = 0; k < 6; ++k) {
    Vector6 e = Vector6::Zero();
    e(k) = h;
    j.col(k) =
        (Residual(f, Shifted(p, e)) - Residual(f, Shifted(p, -e))) / (2.0 * h);
  }
  return j;
}

// Which case of the header's split applies (for coverage counts); -1 when not
// tracked.
inline int CaseOf(Formulation f, const Point& p) {
  const double s_n = p.r(0) - p.rho(0) * p.u(0);
  const Eigen::Vector2d s_t(p.r(1) - p.rho(1) * p.u(1),
                            p.r(2) - p.rho(2) * p.u(2));
  switch (f) {
    case Formulation::kAlartCurnier:
    case Formulation::kJeanMoreau: {
      const double radius =
          p.mu * std::max(0.0, f == Formulation::kAlartCurnier ? s_n : p.r(0));
      if (!(radius > 0.0)) return 0;        // tangential open
      return s_t.norm() <= radius ? 1 : 2;  // stick : slip
    }
    case Formulation::kNaturalMap: {
      const CoulombCone cone(p.mu);
      return static_cast<int>(
          cone.Classify(p.r - p.rho(0) * cone.ModifiedVelocity(p.u)));
    }
    case Formulation::kFischerBurmeister:
      return -1;
  }
  return -1;
}

}  // namespace fcsn::testing

#endif  // FCSN_TESTS_FORMULATIONS_CONTACT_POINT_H_
