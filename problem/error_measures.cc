// Error measures of formulations.md §9 (definitions in fcsn/error_measures.h).
#include "fcsn/error_measures.h"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "formulations/coulomb_cone.h"

namespace fcsn {
namespace {

// Exact symmetry test (M is read or built as data, a rounding-level asymmetry
// is a real one).
bool IsSymmetric(const SparseMatrix& a) {
  if (a.rows() != a.cols()) return false;
  const SparseMatrix at = a.transpose();
  return (a - at).norm() == 0.0;
}

// ||a|| / d if d > DBL_EPSILON, else ||a|| (Siconos 4.4's guard).
double SiconosRelative(double numerator, double denominator) {
  return denominator > std::numeric_limits<double>::epsilon()
             ? numerator / denominator
             : numerator;
}

}  // namespace

double NaturalMapResidualNorm(const GlobalProblem& p,
                              const Eigen::VectorXd& u,
                              const Eigen::VectorXd& r) {
  double sum = 0.0;
  for (int a = 0; a < p.nc(); ++a) {
    const Eigen::Vector3d r_a = r.segment<3>(3 * a);
    const Eigen::Vector3d u_a = u.segment<3>(3 * a);
    Eigen::Vector3d u_hat = u_a;
    u_hat[0] += p.mu[a] * u_a.tail<2>().norm();
    sum += (r_a - ProjectOntoCone(p.mu[a], r_a - u_hat)).squaredNorm();
  }
  return std::sqrt(sum);
}

bool ComputeQFreeNorm(const GlobalProblem& p,
                      double* q_free_norm,
                      std::string* error) {
  const int n = p.n();
  Eigen::VectorXd x(n);
  bool solved = false;
  if (n == 0) {
    solved = true;
  } else {
    if (IsSymmetric(p.M)) {
      Eigen::SimplicialLDLT<SparseMatrix> ldlt(p.M);
      if (ldlt.info() == Eigen::Success) {
        x = ldlt.solve(p.f);
        solved = ldlt.info() == Eigen::Success;
      }
    }
    const double scale =
        std::max(p.f.norm(), std::numeric_limits<double>::min());
    // LDL^T without pivoting may be inaccurate on an indefinite M: check and
    // fall back to LU.
    if (!solved || !x.allFinite() ||
        (p.M * x - p.f).norm() > 1e-8 * (p.M * x).norm() + 1e-14 * scale) {
      Eigen::SparseLU<SparseMatrix> lu;
      lu.analyzePattern(p.M);
      lu.factorize(p.M);
      if (lu.info() != Eigen::Success) {
        if (error != nullptr)
          *error = "M is singular (LU factorization failed: " +
                   lu.lastErrorMessage() + ")";
        return false;
      }
      x = lu.solve(p.f);
      solved = lu.info() == Eigen::Success && x.allFinite();
    }
  }
  if (!solved) {
    if (error != nullptr) *error = "M is singular (the solve M x = f failed)";
    return false;
  }
  *q_free_norm = (p.H.transpose() * x + p.w).norm();
  return true;
}

ErrorMeasures ComputeErrorMeasures(const GlobalProblem& p,
                                   const Eigen::VectorXd& v,
                                   const Eigen::VectorXd& r,
                                   double q_free_norm) {
  const Eigen::VectorXd u = p.H.transpose() * v + p.w;
  const Eigen::VectorXd Mv = p.M * v;
  const Eigen::VectorXd Hr = p.H * r;
  const double eq_residual = (Mv - Hr - p.f).norm();
  const double eq_scale = std::max({p.f.norm(), Mv.norm(), Hr.norm()});
  const double nat_residual = NaturalMapResidualNorm(p, u, r);

  ErrorMeasures e;
  e.q_free_norm = q_free_norm;
  e.e_nat = nat_residual / (q_free_norm > 0.0 ? q_free_norm : 1.0);
  e.e_eq = eq_residual / (eq_scale > 0.0 ? eq_scale : 1.0);
  e.siconos_error = SiconosRelative(eq_residual, eq_scale) +
                    SiconosRelative(nat_residual, std::max(u.norm(), r.norm()));
  return e;
}

}  // namespace fcsn
