// Error measures of formulations.md §9 (definitions in fcsn/error_measures.h).
#include "fcsn/error_measures.h"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "formulations/coulomb_cone.h"
#include "problem/error_measures_detail.h"
#include "problem/m_regularity.h"
#include "problem/m_symmetry.h"

namespace fcsn {
namespace {

// ||x|| for any finite entries, subnormal ones included: computed at the
// scale of the largest entry by exact powers of two. (Eigen's blueNorm()
// returns 0 for a vector of subnormals, and a reaction of 1e-317 outside the
// cone then measured e_cone 0 / 0 = 0.) Non-finite entries: x.norm().
double Norm(const Eigen::VectorXd& x) {
  if (x.size() == 0) return 0.0;
  if (!x.allFinite()) return x.norm();
  const double largest = x.cwiseAbs().maxCoeff();
  if (largest == 0.0) return 0.0;
  const int e = std::ilogb(largest);
  return std::ldexp(
      x.unaryExpr([e](double v) { return std::ldexp(v, -e); }).norm(), e);
}

// Every row and every column of a holds at least one nonzero value. A matrix
// without is singular; Eigen's SparseLU does not return on an all-zero matrix,
// so this is checked first.
bool HasNonzeroInEveryRowAndColumn(const SparseMatrix& a) {
  std::vector<char> row_seen(a.rows(), 0);
  for (int j = 0; j < a.outerSize(); ++j) {
    bool column_seen = false;
    for (SparseMatrix::InnerIterator it(a, j); it; ++it) {
      if (it.value() != 0.0) {
        column_seen = true;
        row_seen[it.row()] = 1;
      }
    }
    if (!column_seen) return false;
  }
  return std::all_of(
      row_seen.begin(), row_seen.end(), [](char seen) { return seen != 0; });
}

// ||a|| / d if d > DBL_EPSILON, else ||a|| (Siconos 4.4's guard).
double SiconosRelative(double numerator, double denominator) {
  return denominator > std::numeric_limits<double>::epsilon()
             ? numerator / denominator
             : numerator;
}

// a / b with 0/0 := 0 (§9.1): a zero scale means every term the measure is
// made of is zero. A positive a over a zero scale can only come from
// non-finite data and is reported as infinite; NaN propagates.
double Ratio(double a, double b) {
  // A scale beyond double's range (an iterate near overflow) cannot judge
  // anything: a / inf would be 0, a measure met by any point.
  if (std::isinf(b)) return std::numeric_limits<double>::quiet_NaN();
  if (b > 0.0) return a / b;
  if (a == 0.0) return 0.0;
  return a > 0.0 ? std::numeric_limits<double>::infinity() : a;
}

// max of the four, NaN if any is NaN (std::max would depend on the order).
double MaxOrNaN(double a, double b, double c, double d) {
  if (std::isnan(a) || std::isnan(b) || std::isnan(c) || std::isnan(d))
    return std::numeric_limits<double>::quiet_NaN();
  return std::max({a, b, c, d});
}

// Balance M v - H r - f and its componentwise scale |M||v| + |H||r| + |f|,
// in one pass over the entries (M's terms from `products` when given, else
// M v into *m_v).
void Balance(const GlobalProblem& p,
             const internal::MProducts* products,
             const Eigen::VectorXd& v,
             const Eigen::VectorXd& r,
             Eigen::VectorXd* residual,
             Eigen::VectorXd* scale,
             Eigen::VectorXd* m_v) {
  *residual = -p.f;
  *scale = p.f.cwiseAbs();
  if (products != nullptr) {
    *residual += products->m_v;
    *scale += products->abs_m_abs_v;
  } else {
    m_v->setZero(p.n());
  }
  for (int j = 0; products == nullptr && j < p.M.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(p.M, j); it; ++it) {
      const double term = it.value() * v[j];
      (*residual)[it.row()] += term;
      (*m_v)[it.row()] += term;
      (*scale)[it.row()] += std::abs(term);
    }
  }
  for (int j = 0; j < p.H.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(p.H, j); it; ++it) {
      (*residual)[it.row()] -= it.value() * r[j];
      (*scale)[it.row()] += std::abs(it.value() * r[j]);
    }
  }
}

// u = H^T v + w and its componentwise scale |H^T||v| + |w|.
void LocalVelocity(const GlobalProblem& p,
                   const Eigen::VectorXd& v,
                   Eigen::VectorXd* u,
                   Eigen::VectorXd* scale) {
  *u = p.w;
  *scale = p.w.cwiseAbs();
  for (int j = 0; j < p.H.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(p.H, j); it; ++it) {
      (*u)[j] += it.value() * v[it.row()];
      (*scale)[j] += std::abs(it.value() * v[it.row()]);
    }
  }
}

}  // namespace

double ErrorMeasures::Worst() const {
  return MaxOrNaN(e_cone, e_dual, e_comp, e_eq);
}

std::string ErrorMeasures::Describe() const {
  char text[160];
  std::snprintf(text,
                sizeof(text),
                "e_cone %.3e, e_dual %.3e, e_comp %.3e, e_eq %.3e",
                e_cone,
                e_dual,
                e_comp,
                e_eq);
  return text;
}

double NaturalMapResidualNorm(const GlobalProblem& p,
                              const Eigen::VectorXd& u,
                              const Eigen::VectorXd& r) {
  Eigen::VectorXd per_contact(p.nc());
  for (int a = 0; a < p.nc(); ++a) {
    const Eigen::Vector3d r_a = r.segment<3>(3 * a);
    const Eigen::Vector3d u_hat =
        CoulombCone(p.mu[a]).ModifiedVelocity(u.segment<3>(3 * a));
    per_contact[a] = (r_a - ProjectOntoCone(p.mu[a], r_a - u_hat)).norm();
  }
  return Norm(per_contact);
}

namespace {

// M's factors for a caller without a solver (`fcsn check`, tests): the LDL^T
// of a symmetric M, or an LU (M not symmetric, or the LDL^T solve
// inaccurate on an indefinite M). regular() tells whether they serve the
// floor s_eps (the header comment: a positive definite LDL^T or, M not
// symmetric, a successful LU).
class SelfContainedFactors {
 public:
  explicit SelfContainedFactors(const SparseMatrix& M) : M_(M) {
    if (M.rows() == 0) {
      regular_ = true;
    } else if (!HasNonzeroInEveryRowAndColumn(M)) {
      failure_ = "M is singular (a row or a column has no nonzero entry)";
    } else if (internal::IsSymmetricM(M)) {
      ldlt_.compute(M);
      has_ldlt_ = ldlt_.info() == Eigen::Success;
      std::string not_regular;
      regular_ = has_ldlt_ &&
                 internal::IsRegular(
                     ldlt_.vectorD(),
                     internal::MaxAbsDiagonal(M),
                     [this](const Eigen::VectorXd& b, Eigen::VectorXd* x) {
                       *x = ldlt_.solve(b);
                       return x->allFinite();
                     },
                     &not_regular);
    } else {
      FactorizeLu();
      regular_ = has_lu_;
    }
  }

  bool regular() const { return regular_; }

  // x = M^-1 b by the LDL^T, checked, else by the LU; false with the reason.
  bool Solve(const Eigen::VectorXd& b, Eigen::VectorXd* x) {
    if (M_.rows() == 0) {
      x->resize(0);
      return true;
    }
    if (!failure_.empty()) return false;
    if (has_ldlt_) {
      *x = ldlt_.solve(b);
      if (x->allFinite() && Accurate(b, *x)) return true;
    }
    if (!lu_attempted_) FactorizeLu();
    if (!has_lu_) return false;
    *x = lu_.solve(b);
    if (lu_.info() == Eigen::Success && x->allFinite()) return true;
    failure_ = "M is singular (the solve M x = f failed)";
    return false;
  }

  const std::string& failure() const { return failure_; }

 private:
  // LDL^T without pivoting may be inaccurate on an indefinite M.
  bool Accurate(const Eigen::VectorXd& b, const Eigen::VectorXd& x) const {
    const double scale = std::max(b.norm(), std::numeric_limits<double>::min());
    return (M_ * x - b).norm() <= 1e-8 * (M_ * x).norm() + 1e-14 * scale;
  }

  void FactorizeLu() {
    lu_attempted_ = true;
    lu_.analyzePattern(M_);
    lu_.factorize(M_);
    has_lu_ = lu_.info() == Eigen::Success;
    if (!has_lu_)
      failure_ =
          "M is singular (LU factorization failed: " + lu_.lastErrorMessage() +
          ")";
  }

  const SparseMatrix& M_;
  Eigen::SimplicialLDLT<SparseMatrix> ldlt_;
  Eigen::SparseLU<SparseMatrix> lu_;
  bool has_ldlt_ = false;
  bool has_lu_ = false;
  bool lu_attempted_ = false;
  bool regular_ = false;
  std::string failure_;
};

// ||H^T M^-1 f + w|| with `factors`; false with the reason.
bool QFreeNorm(const GlobalProblem& p,
               SelfContainedFactors* factors,
               double* q_free_norm,
               std::string* error) {
  Eigen::VectorXd x;
  if (!factors->Solve(p.f, &x)) {
    if (error != nullptr) *error = factors->failure();
    return false;
  }
  *q_free_norm = (p.H.transpose() * x + p.w).norm();
  return true;
}

}  // namespace

bool ComputeQFreeNorm(const GlobalProblem& given,
                      double* q_free_norm,
                      std::string* error) {
  GlobalProblem storage;
  const GlobalProblem& p = WithFullM(given, &storage);
  SelfContainedFactors factors(p.M);
  return QFreeNorm(p, &factors, q_free_norm, error);
}

namespace {

// x 2^-e, entry by entry (exact: a power of two changes no mantissa; one
// ldexp per entry, so a subnormal x, whose 2^-e would overflow as a factor,
// is scaled too).
Eigen::Vector3d TimesPowerOfTwo(const Eigen::Vector3d& x, int e) {
  return Eigen::Vector3d(
      std::ldexp(x[0], -e), std::ldexp(x[1], -e), std::ldexp(x[2], -e));
}

// 2^e the order of the largest finite nonzero |entry| of x and y; 0 when
// there is none (zero or non-finite data are then left as they are).
int OrderOf(const Eigen::Vector3d& x,
            const Eigen::Vector3d& y = Eigen::Vector3d::Zero()) {
  const double largest =
      std::max(x.cwiseAbs().maxCoeff(), y.cwiseAbs().maxCoeff());
  if (!(largest > 0.0) || !std::isfinite(largest)) return 0;
  return std::ilogb(largest);
}

// f(x 2^-e) 2^e, 2^e the order of max|x|: for the cone's maps, positively
// homogeneous of degree 1, the same value, exactly, while entries far below
// 1e-154 would underflow when norm() squares them.
template <typename Map>
Eigen::Vector3d Scaled(const Eigen::Vector3d& x, const Map& f) {
  const int e = OrderOf(x);
  return TimesPowerOfTwo(f(TimesPowerOfTwo(x, e)), -e);
}

// ||f(x)|| for such a map f, computed at the scale of 1.
template <typename Map>
double ScaledNorm(const Eigen::Vector3d& x, const Map& f) {
  const int e = OrderOf(x);
  return std::ldexp(f(TimesPowerOfTwo(x, e)).norm(), e);
}

// ||r_a - P_K(r_a - û_a)||, homogeneous in (r_a, û_a) jointly.
double NaturalMapNorm(const CoulombCone& K,
                      const Eigen::Vector3d& r_a,
                      const Eigen::Vector3d& u_hat_a) {
  const int e = OrderOf(r_a, u_hat_a);
  const Eigen::Vector3d r = TimesPowerOfTwo(r_a, e);
  const Eigen::Vector3d u_hat = TimesPowerOfTwo(u_hat_a, e);
  return std::ldexp((r - K.Project(r - u_hat)).norm(), e);
}

// |M_ii| for every i, from the entries of M or `products`.
Eigen::VectorXd AbsDiagonal(const GlobalProblem& p,
                            const internal::MProducts* products) {
  if (products != nullptr) return products->diagonal.cwiseAbs();
  Eigen::VectorXd d = Eigen::VectorXd::Zero(p.n());
  for (int j = 0; j < p.M.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(p.M, j); it; ++it) {
      if (it.row() == j) d[j] += std::abs(it.value());
    }
  }
  return d;
}

// s_eps = c eps || |H^T| |x| || (the header comment): x = M^-1 b by m_solve,
// or x_i = b_i / |M_ii| (0 where M_ii = 0) when M is not regular (m_solve
// empty, or its solve fails).
double VelocityFloor(const GlobalProblem& p,
                     const internal::MProducts* products,
                     const Eigen::VectorXd& b,
                     const MSolveFunction& m_solve,
                     bool* from_diagonal) {
  Eigen::VectorXd x;
  *from_diagonal =
      !(m_solve && m_solve(b, &x) && x.size() == p.n() && x.allFinite());
  if (*from_diagonal) {
    const Eigen::VectorXd d = AbsDiagonal(p, products);
    x = Eigen::VectorXd::Zero(p.n());
    for (int i = 0; i < p.n(); ++i) {
      if (d[i] > 0.0) x[i] = b[i] / d[i];
    }
  }
  Eigen::VectorXd ht_x = Eigen::VectorXd::Zero(p.m());
  for (int j = 0; j < p.H.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(p.H, j); it; ++it) {
      ht_x[j] += std::abs(it.value() * x[it.row()]);
    }
  }
  return kVelocityFloorFactor * std::numeric_limits<double>::epsilon() *
         Norm(ht_x);
}

// The measures of (v, r) on p (M read through `products` when given).
ErrorMeasures Measures(const GlobalProblem& p,
                       const internal::MProducts* products,
                       const Eigen::VectorXd& v,
                       const Eigen::VectorXd& r,
                       const MSolveFunction& m_solve,
                       double q_free_norm,
                       internal::EarlierFloor* earlier) {
  Eigen::VectorXd balance, balance_scale, m_v, u, u_scale;
  Balance(p, products, v, r, &balance, &balance_scale, &m_v);
  LocalVelocity(p, v, &u, &u_scale);
  ErrorMeasures e;

  const int nc = p.nc();
  Eigen::VectorXd cone(nc), dual(nc), natural(nc), u_hat(p.m());
  for (int a = 0; a < nc; ++a) {
    const CoulombCone K(p.mu[a]);
    const Eigen::Vector3d r_a = r.segment<3>(3 * a);
    const Eigen::Vector3d u_hat_a = Scaled(
        u.segment<3>(3 * a),
        [&K](const Eigen::Vector3d& x) { return K.ModifiedVelocity(x); });
    u_hat.segment<3>(3 * a) = u_hat_a;
    cone[a] = ScaledNorm(r_a, [&K](const Eigen::Vector3d& x) {
      return Eigen::Vector3d(x - K.Project(x));
    });
    // ||y - P_K*(y)|| = ||P_K(-y)||
    dual[a] = ScaledNorm(
        u_hat_a, [&K](const Eigen::Vector3d& y) { return K.Project(-y); });
    natural[a] = NaturalMapNorm(K, r_a, u_hat_a);
  }
  const double r_norm = Norm(r);
  const double other_scales = std::max(Norm(u_scale), Norm(u_hat));
  if (earlier != nullptr && earlier->known &&
      internal::kEarlierFloorMargin * earlier->velocity_floor <= other_scales) {
    e.velocity_floor = earlier->velocity_floor;
    e.floor_from_diagonal = earlier->from_diagonal;
  } else {
    e.velocity_floor = VelocityFloor(
        p, products, balance_scale, m_solve, &e.floor_from_diagonal);
    if (earlier != nullptr)
      *earlier = {true, e.velocity_floor, e.floor_from_diagonal};
  }
  e.velocity_scale = std::max(other_scales, e.velocity_floor);
  const double s_u = e.velocity_scale;
  // Sum_a |r_a . û_a| / (||r|| s_u), each factor normalized first: the
  // products of tiny reactions and velocities would underflow.
  double comp = 0.0;
  for (int a = 0; r_norm > 0.0 && s_u > 0.0 && a < nc; ++a) {
    comp += std::abs(
        (r.segment<3>(3 * a) / r_norm).dot(u_hat.segment<3>(3 * a) / s_u));
  }
  const double eq_residual = Norm(balance);
  const double nat_residual = Norm(natural);

  e.e_cone = Ratio(Norm(cone), r_norm);
  e.e_dual = Ratio(Norm(dual), s_u);
  e.e_comp = std::isnan(r_norm * s_u) || std::isinf(r_norm) || std::isinf(s_u)
                 ? std::numeric_limits<double>::quiet_NaN()
                 : comp;  // 0 when r = 0 or s_u = 0 (0/0 := 0)
  e.e_eq = Ratio(eq_residual, Norm(balance_scale));
  e.q_free_norm = q_free_norm;
  e.e_nat = nat_residual / (q_free_norm > 0.0 ? q_free_norm : 1.0);
  const double m_v_norm =
      products != nullptr ? products->m_v.blueNorm() : m_v.blueNorm();
  const double siconos_eq_scale =
      std::max({p.f.blueNorm(), m_v_norm, (p.H * r).blueNorm()});
  e.siconos_error = SiconosRelative(eq_residual, siconos_eq_scale) +
                    SiconosRelative(nat_residual, std::max(Norm(u), r_norm));
  return e;
}

}  // namespace

ErrorMeasures ComputeErrorMeasures(const GlobalProblem& given,
                                   const Eigen::VectorXd& v,
                                   const Eigen::VectorXd& r) {
  GlobalProblem storage;
  const GlobalProblem& p = WithFullM(given, &storage);
  SelfContainedFactors factors(p.M);
  double q_free_norm = 0.0;
  if (!QFreeNorm(p, &factors, &q_free_norm, nullptr)) q_free_norm = 0.0;
  MSolveFunction m_solve;
  if (factors.regular()) {
    m_solve = [&factors](const Eigen::VectorXd& b, Eigen::VectorXd* x) {
      return factors.Solve(b, x);
    };
  }
  return Measures(p, nullptr, v, r, m_solve, q_free_norm, nullptr);
}

ErrorMeasures ComputeErrorMeasures(const GlobalProblem& given,
                                   const Eigen::VectorXd& v,
                                   const Eigen::VectorXd& r,
                                   const MSolveFunction& m_solve,
                                   double q_free_norm) {
  return internal::ComputeErrorMeasures(
      given, v, r, m_solve, q_free_norm, nullptr);
}

namespace internal {

ErrorMeasures ComputeErrorMeasures(const GlobalProblem& problem,
                                   const MProducts& products,
                                   const Eigen::VectorXd& v,
                                   const Eigen::VectorXd& r,
                                   const MSolveFunction& m_solve,
                                   double q_free_norm,
                                   EarlierFloor* earlier) {
  return Measures(problem, &products, v, r, m_solve, q_free_norm, earlier);
}

ErrorMeasures ComputeErrorMeasures(const GlobalProblem& given,
                                   const Eigen::VectorXd& v,
                                   const Eigen::VectorXd& r,
                                   const MSolveFunction& m_solve,
                                   double q_free_norm,
                                   EarlierFloor* earlier) {
  GlobalProblem storage;
  return Measures(
      WithFullM(given, &storage), nullptr, v, r, m_solve, q_free_norm, earlier);
}

}  // namespace internal

}  // namespace fcsn
