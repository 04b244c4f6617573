// NSGS sweeps on the Delassus data (see nsgs.h for the math and the stopping
// rule).
#include "nsgs/nsgs.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "fcsn/error_measures.h"
#include "formulations/coulomb_cone.h"
#include "minverse/block_rho.h"
#include "nsgs/fp_vi_upk.h"

namespace fcsn::internal {
namespace {

// "1.2e-09" for messages.
std::string FormatError(double x) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1e", x);
  return text;
}

// A true-error check triggered by the cheap error that finds the criterion
// above tol divides the working tolerance by this factor.
constexpr double kWorkingToleranceReduction = 10.0;

// r unchanged (bit for bit) over this many consecutive sweeps with the error
// above tol: the round-off limit of the sweeps. More than one sweep, because the FP-VI-UPK steps still
// adapt while r stays put.
constexpr int kStallSweeps = 10;

// Projected Jacobi step rho_a = kJacobiRelaxation min(rho_N, rho_T) (split
// rule, formulations.md §5): updating all contacts at once overshoots where
// they are coupled. Measured, worst measure after 20 / 80 sweeps:
// a full step stalls (Box_Stacks 0.25 / 0.23, a 20 x 20 x 2 elastic lattice
// 0.15 / 0.17), half a step converges (Box_Stacks 2e-2 / 5e-4, the lattice
// 6e-5 / 4e-10), a quarter step is 3 to 10 times slower.
constexpr double kJacobiRelaxation = 0.5;

}  // namespace

NsgsSolver::NsgsSolver(const Delassus& delassus) : delassus_(delassus) {
  const int nc = delassus.nc();
  scaling_.assign(nc, ContactScaling());
  rho_fp_.assign(nc, 0.0);
  r_previous_.setZero(delassus.m());

  // rho from W_aa; contacts with W_aa ≈ 0 (attached to no free dof) take the
  // median of the others (MedianOfUsable, formulations.md §5).
  std::vector<char> valid(nc, 0);
  std::vector<double> rho_n;
  std::vector<double> rho_t;
  std::vector<double> rho_ref;
  for (int a = 0; a < nc; ++a) {
    const Eigen::Matrix3d& w_aa = delassus.DiagonalBlock(a);
    Eigen::Vector3d rho;
    const double lambda_max = LargestEigenvalue(w_aa);
    if (SplitSpectralRho(w_aa, &rho) && lambda_max > 0.0 &&
        std::isfinite(lambda_max)) {
      valid[a] = 1;
      scaling_[a].rho_ac = rho;
      scaling_[a].rho_ref = 1.0 / lambda_max;
      rho_n.push_back(rho[0]);
      rho_t.push_back(rho[1]);
      rho_ref.push_back(scaling_[a].rho_ref);
    }
  }
  const double median_n = MedianOfUsable(std::move(rho_n));
  const double median_t = MedianOfUsable(std::move(rho_t));
  const double median_ref = MedianOfUsable(std::move(rho_ref));
  for (int a = 0; a < nc; ++a) {
    if (!valid[a]) {
      scaling_[a].rho_ac = Eigen::Vector3d(median_n, median_t, median_t);
      scaling_[a].rho_ref = median_ref;
    }
  }
  for (int a = 0; a < nc; ++a) rho_fp_[a] = scaling_[a].rho_ref;
}

int NsgsSolver::Sweep(const GlobalProblem& problem,
                      const NsgsOptions& options,
                      Eigen::VectorXd* r) {
  int discards = 0;
  const Eigen::VectorXd& q_free = delassus_.q_free();
  for (int a = 0; a < delassus_.nc(); ++a) {
    const Eigen::Vector3d q_loc =
        q_free.segment<3>(3 * a) + delassus_.OffDiagonalProduct(a, *r);
    Eigen::Vector3d r_a = r->segment<3>(3 * a);
    if (options.local_solver == LocalSolverType::kFixedPointViUpk) {
      const FpViUpkStepInfo info =
          FpViUpkProjections(delassus_.DiagonalBlock(a),
                             q_loc,
                             problem.mu[a],
                             scaling_[a].rho_ref,
                             options.fp_projections,
                             &rho_fp_[a],
                             &r_a);
      r->segment<3>(3 * a) = r_a;
      if (!info.finite) ++discards;
      continue;
    }
    const LocalSolveInfo info = SolveContact(options.local_solver,
                                             delassus_.DiagonalBlock(a),
                                             q_loc,
                                             problem.mu[a],
                                             scaling_[a],
                                             options.local_max_iterations,
                                             options.local_tolerance,
                                             &rho_fp_[a],
                                             &r_a);
    r->segment<3>(3 * a) = r_a;
    if (!info.kept) ++discards;
  }
  return discards;
}

namespace {

// The options and arguments the loop needs.
bool ValidArguments(const NsgsOptions& options, int max_sweeps, double tol) {
  return options.error_check_frequency >= 1 &&
         options.local_max_iterations >= 1 && options.local_tolerance > 0.0 &&
         max_sweeps >= 0 && tol >= 0.0;
}

// ||r - previous|| / ||r||, with 0/0 = 0 and x/0 = inf.
double CheapError(const Eigen::VectorXd& r, const Eigen::VectorXd& previous) {
  const double change = (r - previous).norm();
  const double size = r.norm();
  if (size > 0.0) return change / size;
  return change > 0.0 ? std::numeric_limits<double>::infinity() : 0.0;
}

// Sets the result's status and message; returns true (the run ends).
bool End(NsgsResult* result, SolverStatus status, std::string message) {
  result->status = status;
  result->message = std::move(message);
  return true;
}

// What the true-error check reads besides the iterate.
struct CheckContext {
  const GlobalProblem& problem;
  double tol;
  const MSolveFunction& m_solve;  // for the floor of the measures
  double q_free_norm;
  const NsgsCheckCallback& on_check;
};

// True error at r (after sweep k, 0: the start) into result->errors, v
// recovered from r; true if it ends the run: not finite, the callback aborts,
// or converged.
template <class RecoverFunction>
bool CheckEnds(const CheckContext& context,
               int k,
               RecoverFunction& recover,
               const Eigen::VectorXd& r,
               Eigen::VectorXd* v,
               NsgsResult* result) {
  ++result->error_checks;
  const std::string after =
      k == 0 ? "the starting point" : "sweep " + std::to_string(k);
  if (!recover(r, v)) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    result->errors.e_cone = result->errors.e_dual = nan;
    result->errors.e_comp = result->errors.e_eq = result->errors.e_nat = nan;
    return End(result,
               SolverStatus::kNumericalIssue,
               "NSGS: non-finite error after " + after);
  }
  result->errors = ComputeErrorMeasures(
      context.problem, *v, r, context.m_solve, context.q_free_norm);
  if (context.on_check && !context.on_check(k, result->errors)) {
    return End(result,
               SolverStatus::kAborted,
               "NSGS: aborted by the iteration callback");
  }
  if (!std::isfinite(result->errors.Worst())) {
    return End(result,
               SolverStatus::kNumericalIssue,
               "NSGS: non-finite error after " + after);
  }
  if (!result->errors.Converged(context.tol)) return false;
  return End(result,
             SolverStatus::kConverged,
             k == 0 ? "NSGS: the starting point meets the tolerance"
                    : "NSGS: converged in " + std::to_string(k) + " sweeps");
}

// The loop shared by NsgsSolver and ProjectedJacobiSolver (stopping rule in
// nsgs.h): sweep(r) does one sweep and returns the number of discarded local
// results, recover(r, v) sets v = M^-1 (H r + f) and returns false if it
// cannot. r_previous has m entries.
template <class SweepFunction, class RecoverFunction>
NsgsResult SweepLoop(const GlobalProblem& problem,
                     const NsgsOptions& options,
                     double tol,
                     int max_sweeps,
                     std::chrono::steady_clock::time_point deadline,
                     const MSolveFunction& m_solve,
                     double q_free_norm,
                     Eigen::VectorXd* r,
                     Eigen::VectorXd* v,
                     Eigen::VectorXd* r_previous,
                     const NsgsCheckCallback& on_check,
                     SweepFunction&& sweep,
                     RecoverFunction&& recover) {
  NsgsResult result;
  if (!ValidArguments(options, max_sweeps, tol)) {
    result.message =
        "NSGS: invalid options (need error_check_frequency >= 1, "
        "local_max_iterations >= 1, "
        "local_tolerance > 0, max_sweeps >= 0, tol >= 0)";
    return result;
  }
  if (r->size() != problem.m() || !r->allFinite()) r->setZero(problem.m());
  const CheckContext context{problem, tol, m_solve, q_free_norm, on_check};
  if (CheckEnds(context, 0, recover, *r, v, &result)) return result;
  bool checked_current = true;  // the true error is that of the current r
  double working_tolerance = tol;
  int unchanged_sweeps = 0;
  End(&result,
      SolverStatus::kMaxIterations,
      "NSGS: " + std::to_string(max_sweeps) + " sweeps done");
  for (int k = 1; k <= max_sweeps; ++k) {
    if (std::chrono::steady_clock::now() >= deadline) {
      End(&result,
          SolverStatus::kTimeLimit,
          "NSGS: time limit reached after " + std::to_string(result.sweeps) +
              " sweeps");
      break;
    }
    *r_previous = *r;
    result.local_discards += sweep(r);
    result.sweeps = k;
    checked_current = false;
    result.cheap_error = CheapError(*r, *r_previous);
    unchanged_sweeps = *r == *r_previous ? unchanged_sweeps + 1 : 0;
    const bool cheap_met = result.cheap_error <= working_tolerance;
    if (k % options.error_check_frequency != 0 && !cheap_met &&
        k != max_sweeps) {
      continue;
    }
    if (CheckEnds(context, k, recover, *r, v, &result)) return result;
    checked_current = true;
    if (unchanged_sweeps >= kStallSweeps) {
      // A fixed point of the sweep in floating point: NSGS cannot do better
      // (at rest its v = M^-1 (H r + f) carries round-off of the order of
      // the criterion's floor).
      End(&result,
          SolverStatus::kRoundOffLimit,
          "NSGS: r unchanged for " + std::to_string(kStallSweeps) +
              " sweeps: the error " + FormatError(result.errors.Worst()) +
              " is the round-off limit of the sweeps (velocity floor s_eps " +
              FormatError(result.errors.velocity_floor) + ")");
      return result;
    }
    if (cheap_met) working_tolerance /= kWorkingToleranceReduction;
  }
  if (!checked_current)
    CheckEnds(context, result.sweeps, recover, *r, v, &result);
  return result;
}

}  // namespace

NsgsResult NsgsSolver::Run(const GlobalProblem& problem,
                           const NsgsOptions& options,
                           double tol,
                           int max_sweeps,
                           std::chrono::steady_clock::time_point deadline,
                           Eigen::VectorXd* r,
                           Eigen::VectorXd* v,
                           const NsgsCheckCallback& on_check) {
  if (problem.nc() != delassus_.nc() || problem.m() != delassus_.m() ||
      problem.n() != delassus_.n() ||
      delassus_.factorization_type() == MFactorizationType::kNone) {
    NsgsResult result;
    result.message = "NSGS: the Delassus data do not match the problem (" +
                     std::to_string(delassus_.nc()) + " contacts vs " +
                     std::to_string(problem.nc()) + ") or M is not factored";
    return result;
  }
  return SweepLoop(
      problem,
      options,
      tol,
      max_sweeps,
      deadline,
      delassus_.m_solve(),
      delassus_.q_free_norm(),
      r,
      v,
      &r_previous_,
      on_check,
      [&](Eigen::VectorXd* x) { return Sweep(problem, options, x); },
      [&](const Eigen::VectorXd& x, Eigen::VectorXd* y) {
        return delassus_.RecoverVelocity(problem, x, y);
      });
}

ProjectedJacobiSolver::ProjectedJacobiSolver(
    const MFactorization& factorization,
    const Eigen::VectorXd& rho,
    double q_free_norm)
    : factorization_(factorization), q_free_norm_(q_free_norm) {
  const int n = factorization.n();
  const int nc = static_cast<int>(rho.size() / 3);
  step_.resize(nc);
  for (int a = 0; a < nc; ++a) {
    step_[a] = kJacobiRelaxation * std::min(rho[3 * a], rho[3 * a + 1]);
  }
  rhs_.setZero(n);
  work_.setZero(n);
  v_.setZero(n);
  u_.setZero(3 * nc);
  r_previous_.setZero(3 * nc);
}

bool ProjectedJacobiSolver::SolveM(const Eigen::VectorXd& b,
                                   Eigen::VectorXd* x) {
  return factorization_.SolveWithoutAllocation(b, x, &work_);
}

void ProjectedJacobiSolver::Sweep(const GlobalProblem& problem,
                                  Eigen::VectorXd* r) {
  rhs_ = problem.f;
  rhs_.noalias() += problem.H * (*r);
  SolveM(rhs_, &v_);  // a non-finite v makes r non-finite: the check sees it
  u_.noalias() = problem.H.transpose() * v_;
  u_ += problem.w;
  for (int a = 0; a < static_cast<int>(step_.size()); ++a) {
    Eigen::Vector3d u_a = u_.segment<3>(3 * a);
    u_a[0] += problem.mu[a] * u_a.tail<2>().norm();  // De Saxce's velocity
    r->segment<3>(3 * a) =
        ProjectOntoCone(problem.mu[a], r->segment<3>(3 * a) - step_[a] * u_a);
  }
}

NsgsResult ProjectedJacobiSolver::Run(
    const GlobalProblem& problem,
    const NsgsOptions& options,
    double tol,
    int max_sweeps,
    std::chrono::steady_clock::time_point deadline,
    Eigen::VectorXd* r,
    Eigen::VectorXd* v,
    const NsgsCheckCallback& on_check) {
  const bool steps_valid =
      step_.size() == 0 || (step_.allFinite() && (step_.array() > 0.0).all());
  if (!factorization_.symmetric() || factorization_.n() != problem.n() ||
      step_.size() != problem.nc() || !steps_valid) {
    NsgsResult result;
    result.message =
        "projected Jacobi: the factorization of M or the per-contact rho "
        "do not match the problem, or a rho is not positive";
    return result;
  }
  return SweepLoop(
      problem,
      options,
      tol,
      max_sweeps,
      deadline,
      RegularSolve(factorization_),
      q_free_norm_,
      r,
      v,
      &r_previous_,
      on_check,
      [&](Eigen::VectorXd* x) {
        Sweep(problem, x);
        return 0;
      },
      [&](const Eigen::VectorXd& x, Eigen::VectorXd* y) {
        rhs_ = problem.f;
        rhs_.noalias() += problem.H * x;
        return SolveM(rhs_, y);
      });
}

NsgsResult RunNsgs(const GlobalProblem& problem,
                   const Delassus& delassus,
                   const NsgsOptions& options,
                   double tol,
                   int max_sweeps,
                   std::chrono::steady_clock::time_point deadline,
                   Eigen::VectorXd* r,
                   Eigen::VectorXd* v,
                   const NsgsCheckCallback& on_check) {
  NsgsSolver solver(delassus);
  return solver.Run(
      problem, options, tol, max_sweeps, deadline, r, v, on_check);
}

}  // namespace fcsn::internal
