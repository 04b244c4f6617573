#include "property_check.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <sstream>

namespace fcsn::property {
namespace {

using LMatrix = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;
using LVector = Eigen::Matrix<long double, Eigen::Dynamic, 1>;
using LVector3 = Eigen::Matrix<long double, 3, 1>;

// A non-symmetric M (the library factors it by LU) is regular when its long
// double LU with full pivoting keeps every pivot above DBL_EPSILON times the
// largest: a matrix within double round-off of a singular one is treated as
// singular (the generators' singular M are exact, with pivots ~1e-19 of the
// largest; their regular ones have condition <= 1e14, pivots >= 1e-14 of
// the largest).
constexpr long double kRegularPivot = DBL_EPSILON;
// A symmetric M is regular when its smallest eigenvalue (long double) is
// above tau = n eps max|M_ii|, the library's rule (problem/m_regularity.h,
// whose pivot test and inverse iterations both approach lambda_min from
// above). Within this factor of either boundary the library's verdict rests
// on its own round-off (pivots, solves): either floor is then its
// definition, and the larger one is taken.
constexpr long double kBorderline = 16.0L;

// Relative asymmetry below which the library factors M as symmetric
// (problem/m_symmetry.h).
constexpr long double kSymmetry = 1e-13L;

// Constants of the friction bounds (derivation at FrictionViolations).
constexpr long double kOppositionBound = 5;
constexpr long double kBoundaryBound = 3;

LMatrix Dense(const SparseMatrix& a) {
  LMatrix out = LMatrix::Zero(a.rows(), a.cols());
  for (int j = 0; j < a.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(a, j); it; ++it) {
      out(it.row(), it.col()) += static_cast<long double>(it.value());
    }
  }
  return out;
}

LVector Long(const Eigen::VectorXd& x) { return x.cast<long double>(); }

long double Ratio(long double num, long double den) {
  if (den > 0) return num / den;
  return num == 0 ? 0.0L : INFINITY;
}

// P_K(x) for K = {||x_T|| <= mu x_N} (formulations.md §2.1); mu = 0 is the
// ray x_T = 0, x_N >= 0, whence the explicit x_N >= 0 in the first case.
LVector3 ProjectOnCone(const LVector3& x, long double mu) {
  const long double t = std::hypot(x[1], x[2]);
  if (x[0] >= 0 && t <= mu * x[0]) return x;
  if (mu * t <= -x[0]) return LVector3::Zero();
  const long double c = (x[0] + mu * t) / (1 + mu * mu);
  return LVector3(c, mu * c * x[1] / t, mu * c * x[2] / t);
}

// Everything the measures and the friction bounds are made of.
struct Evaluation {
  CheckerMeasures measures;
  LVector u, u_hat, r;
  long double r_norm = 0;
};

// x = diag(M)^-1 b, 0 where M_ii = 0 (the floor of a matrix that is not
// regular).
LVector DiagonalSolve(const LMatrix& m, const LVector& b) {
  LVector x(m.rows());
  for (int i = 0; i < m.rows(); ++i) {
    const long double d = std::abs(m(i, i));
    x[i] = d > 0 ? b[i] / d : 0.0L;
  }
  return x;
}

bool Symmetric(const LMatrix& m) {
  return (m - m.transpose()).cwiseAbs().maxCoeff() <=
         kSymmetry * m.cwiseAbs().maxCoeff();
}

// Regularity of M for the floor: kRegular, kSingular or kEither (near the
// boundary, see kRegularPivot and kBorderline).
enum class Regularity { kRegular, kSingular, kEither };

Regularity JudgeSymmetric(const LMatrix& m) {
  const long double tau = m.rows() * static_cast<long double>(DBL_EPSILON) *
                          m.diagonal().cwiseAbs().maxCoeff();
  Eigen::SelfAdjointEigenSolver<LMatrix> eigen(m, Eigen::EigenvaluesOnly);
  const long double lambda_min = eigen.eigenvalues().minCoeff();
  if (lambda_min > kBorderline * tau) return Regularity::kRegular;
  if (lambda_min <= tau / kBorderline) return Regularity::kSingular;
  return Regularity::kEither;
}

Regularity JudgeGeneral(const Eigen::FullPivLU<LMatrix>& lu) {
  const LVector pivots = lu.matrixLU().diagonal().cwiseAbs();
  const long double smallest = pivots.minCoeff() / pivots.maxCoeff();
  if (smallest < kBorderline * lu.rows() * kRegularPivot &&
      smallest > kRegularPivot / kBorderline) {
    return Regularity::kEither;
  }
  return smallest > kRegularPivot ? Regularity::kRegular
                                  : Regularity::kSingular;
}

// s_eps: from M^-1 b (regular), diag(M)^-1 b (singular), or the larger of
// the two (either).
long double VelocityFloor(const LMatrix& m,
                          const LMatrix& h,
                          const LVector& b,
                          bool* regular) {
  const long double eps = DBL_EPSILON;
  const auto norm_of = [&](const LVector& x) {
    return kVelocityFloorFactor * eps *
           (h.cwiseAbs().transpose() * x.cwiseAbs()).norm();
  };
  if (m.rows() == 0) {
    *regular = true;
    return 0.0L;
  }
  Eigen::FullPivLU<LMatrix> lu(m);
  const Regularity verdict =
      Symmetric(m) ? JudgeSymmetric(m) : JudgeGeneral(lu);
  *regular = verdict != Regularity::kSingular;
  const long double diagonal_floor = norm_of(DiagonalSolve(m, b));
  if (verdict == Regularity::kSingular) return diagonal_floor;
  lu.setThreshold(0.0L);
  const LVector x = lu.solve(b);
  if (verdict == Regularity::kRegular) return norm_of(x);
  return x.allFinite() ? std::max(norm_of(x), diagonal_floor) : diagonal_floor;
}

Evaluation Evaluate(const GlobalProblem& p,
                    const Eigen::VectorXd& v_in,
                    const Eigen::VectorXd& r_in) {
  const LMatrix m = Dense(p.M), h = Dense(p.H);
  const LVector v = Long(v_in), f = Long(p.f), w = Long(p.w);
  Evaluation e;
  e.r = Long(r_in);
  e.u = h.transpose() * v + w;
  e.u_hat = e.u;
  long double cone = 0, dual = 0, comp = 0;
  for (int a = 0; a < p.nc(); ++a) {
    const long double mu = p.mu[a];
    e.u_hat[3 * a] += mu * std::hypot(e.u[3 * a + 1], e.u[3 * a + 2]);
    const LVector3 ra = e.r.segment<3>(3 * a);
    const LVector3 ya = e.u_hat.segment<3>(3 * a);
    cone += (ra - ProjectOnCone(ra, mu)).squaredNorm();
    dual += ProjectOnCone(-ya, mu).squaredNorm();
    comp += std::abs(ra.dot(ya));
  }
  const LVector b = m.cwiseAbs() * v.cwiseAbs() +
                    h.cwiseAbs() * e.r.cwiseAbs() + f.cwiseAbs();
  CheckerMeasures& out = e.measures;
  out.s_eps = VelocityFloor(m, h, b, &out.m_regular);
  out.s_u =
      std::max({(h.cwiseAbs().transpose() * v.cwiseAbs() + w.cwiseAbs()).norm(),
                e.u_hat.norm(),
                out.s_eps});
  e.r_norm = e.r.norm();
  out.e_cone = Ratio(std::sqrt(cone), e.r_norm);
  out.e_dual = Ratio(std::sqrt(dual), out.s_u);
  out.e_comp = Ratio(comp, e.r_norm * out.s_u);
  out.e_eq = Ratio((m * v - h * e.r - f).norm(), b.norm());
  return e;
}

bool AllFinite(const Eigen::VectorXd& x) { return x.allFinite(); }

std::string Numbers(const CheckerMeasures& m) {
  std::ostringstream s;
  s.precision(3);
  s << "e_cone " << static_cast<double>(m.e_cone) << ", e_dual "
    << static_cast<double>(m.e_dual) << ", e_comp "
    << static_cast<double>(m.e_comp) << ", e_eq " << static_cast<double>(m.e_eq)
    << ", s_u " << static_cast<double>(m.s_u) << ", s_eps "
    << static_cast<double>(m.s_eps)
    << (m.m_regular ? "" : " (M singular: diagonal floor)");
  return s.str();
}

// With the worst measure <= T, write r_a = r' + e (r' = P_K(r_a), ||e|| <=
// T ||r||) and û_a = y' + g (y' = P_K*(û_a), ||g|| <= T s_u). Then r'·y' <=
// |r_a·û_a| + ||r|| ||g|| + ||e|| ||û|| <= 3 T ||r|| s_u, and r'·y' is the sum
// of two non-negative parts, [r'_N y'_N - ||r'_T|| ||y'_T||] and
// [r'_T·y'_T + ||r'_T|| ||y'_T||], the first >= (mu r'_N - ||r'_T||)
// ||y'_T||. Back to r and u (||y'_T|| >= ||u_T|| - T s_u):
//   r_T·u_T            <= 5 T ||r|| s_u                       (opposition)
//   mu r_N - ||r_T||   <= T ||r|| (3 s_u / (||u_T|| - T s_u) + 1 + mu)
// at every contact with ||u_T|| > T s_u (boundary of the cone).
void FrictionViolations(const GlobalProblem& p,
                        const Evaluation& e,
                        long double allowed,
                        std::vector<Violation>* out) {
  const long double s_u = e.measures.s_u;
  for (int a = 0; a < p.nc(); ++a) {
    const long double ut = std::hypot(e.u[3 * a + 1], e.u[3 * a + 2]);
    if (!(ut > allowed * s_u)) continue;
    const long double mu = p.mu[a];
    const long double rn = e.r[3 * a];
    const long double rt = std::hypot(e.r[3 * a + 1], e.r[3 * a + 2]);
    const long double along =
        e.r[3 * a + 1] * e.u[3 * a + 1] + e.r[3 * a + 2] * e.u[3 * a + 2];
    const long double opposition = kOppositionBound * allowed * e.r_norm * s_u;
    std::ostringstream s;
    s.precision(3);
    if (along > opposition) {
      s << "contact " << a << " (mu " << p.mu[a] << "): r_T.u_T "
        << static_cast<double>(along) << " > "
        << static_cast<double>(opposition) << ", ||u_T|| "
        << static_cast<double>(ut) << " = " << static_cast<double>(ut / s_u)
        << " s_u";
      out->push_back({"friction", s.str()});
      continue;
    }
    const long double gap = mu * rn - rt;
    const long double bound =
        allowed * e.r_norm *
        (kBoundaryBound * s_u / (ut - allowed * s_u) + 1 + mu);
    if (mu > 0 && gap > bound) {
      s << "contact " << a << " (mu " << p.mu[a] << "): mu r_N - ||r_T|| "
        << static_cast<double>(gap) << " > " << static_cast<double>(bound)
        << " while slipping at ||u_T|| " << static_cast<double>(ut / s_u)
        << " s_u";
      out->push_back({"friction", s.str()});
    }
  }
}

}  // namespace

long double CheckerMeasures::Worst() const {
  return std::max({e_cone, e_dual, e_comp, e_eq});
}

double Allowed(const GlobalProblem& problem, double tol) {
  const double size = problem.n() + problem.m();
  const double mu_max = problem.nc() > 0 ? problem.mu.maxCoeff() : 0.0;
  return tol * (1 + kRelativeSlack) +
         kRoundOffUnits * size * (1 + mu_max) * DBL_EPSILON;
}

CheckerMeasures Measure(const GlobalProblem& problem,
                        const Eigen::VectorXd& v,
                        const Eigen::VectorXd& r) {
  return Evaluate(problem, v, r).measures;
}

std::vector<Violation> CheckOutcome(const GlobalProblem& problem,
                                    const SolverOptions& options,
                                    const SolverSummary& summary,
                                    const Solution& solution) {
  std::vector<Violation> out;
  const SolverStatus status = summary.status;
  if (status != SolverStatus::kConverged && summary.message.empty()) {
    out.push_back(
        {"message",
         std::string("status ") + ToString(status) + " with an empty message"});
  }
  if (status == SolverStatus::kInvalidInput) return out;
  const bool sized = solution.v.size() == problem.n() &&
                     solution.r.size() == problem.m() &&
                     solution.u.size() == problem.m();
  if (!sized || !AllFinite(solution.v) || !AllFinite(solution.r) ||
      !AllFinite(solution.u)) {
    out.push_back({"finite",
                   std::string("status ") + ToString(status) +
                       (sized ? ": non-finite (v, u, r)"
                              : ": (v, u, r) of the wrong size")});
    return out;
  }
  if (status != SolverStatus::kConverged) return out;
  const Evaluation e = Evaluate(problem, solution.v, solution.r);
  const long double allowed = Allowed(problem, options.tolerance);
  if (!(e.measures.Worst() <= allowed)) {
    std::ostringstream s;
    s.precision(3);
    s << "worst " << static_cast<double>(e.measures.Worst()) << " > tol "
      << options.tolerance << " (" << Numbers(e.measures)
      << "; the library reported " << summary.WorstError() << ")";
    out.push_back({"criterion", s.str()});
  }
  FrictionViolations(problem, e, allowed, &out);
  return out;
}

std::string Describe(const std::vector<Violation>& violations) {
  std::string out;
  for (const Violation& v : violations) {
    if (!out.empty()) out += "; ";
    out += v.invariant + ": " + v.detail;
  }
  return out;
}

}  // namespace fcsn::property
