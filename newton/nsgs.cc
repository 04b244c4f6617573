// NSGS sweeps on the Delassus data (see nsgs.h for the math and the stopping
// rule).
#include "newton/nsgs.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "fcsn/error_measures.h"

namespace fcsn::internal {
namespace {

// A true-error check triggered by the cheap error that finds the criterion
// above tol divides the working tolerance by this factor.
constexpr double kWorkingToleranceReduction = 10.0;

// r unchanged (bit for bit) over this many consecutive sweeps with the error
// above tol: stalled. More than one sweep, because the FP-VI-UPK steps still
// adapt while r stays put.
constexpr int kStallSweeps = 10;

double Median(std::vector<double> values) {
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  return values[mid];
}

}  // namespace

NsgsSolver::NsgsSolver(const Delassus& delassus) : delassus_(delassus) {
  const int nc = delassus.nc();
  scaling_.assign(nc, ContactScaling());
  rho_fp_.assign(nc, 0.0);
  r_previous_.setZero(delassus.m());

  // rho from W_aa; contacts with W_aa ≈ 0 (attached to no free dof) take the
  // median of the others (formulations.md §5), or 1 if no contact has a usable
  // W_aa.
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
  if (!rho_n.empty()) {
    const double median_n = Median(rho_n);
    const double median_t = Median(rho_t);
    const double median_ref = Median(rho_ref);
    for (int a = 0; a < nc; ++a) {
      if (!valid[a]) {
        scaling_[a].rho_ac = Eigen::Vector3d(median_n, median_t, median_t);
        scaling_[a].rho_ref = median_ref;
      }
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

NsgsResult NsgsSolver::Run(const GlobalProblem& problem,
                           const NsgsOptions& options,
                           double tol,
                           int max_sweeps,
                           std::chrono::steady_clock::time_point deadline,
                           Eigen::VectorXd* r,
                           Eigen::VectorXd* v,
                           const NsgsCheckCallback& on_check) {
  NsgsResult result;
  if (problem.nc() != delassus_.nc() || problem.m() != delassus_.m() ||
      problem.n() != delassus_.factorization().n() ||
      delassus_.factorization_type() == MFactorizationType::kNone) {
    result.message = "NSGS: the Delassus data do not match the problem (" +
                     std::to_string(delassus_.nc()) + " contacts vs " +
                     std::to_string(problem.nc()) + ") or M is not factored";
    return result;
  }
  if (options.error_check_frequency < 1 || options.local_max_iterations < 1 ||
      !(options.local_tolerance > 0.0) || max_sweeps < 0 || !(tol >= 0.0)) {
    result.message =
        "NSGS: invalid options (need error_check_frequency >= 1, "
        "local_max_iterations >= 1, "
        "local_tolerance > 0, max_sweeps >= 0, tol >= 0)";
    return result;
  }
  const int m = problem.m();
  if (r->size() != m || !r->allFinite()) r->setZero(m);

  // True error at the current r; false if the recovery or the errors are not
  // finite.
  bool checked_current = false;
  bool aborted = false;  // the callback asked to stop
  auto check = [&](int sweep) {
    ++result.error_checks;
    checked_current = true;
    if (!delassus_.RecoverVelocity(problem, *r, v)) {
      const double nan = std::numeric_limits<double>::quiet_NaN();
      result.errors.e_cone = result.errors.e_dual = nan;
      result.errors.e_comp = result.errors.e_eq = result.errors.e_nat = nan;
      return false;
    }
    result.errors =
        ComputeErrorMeasures(problem, *v, *r, delassus_.q_free_norm());
    if (on_check && !on_check(sweep, result.errors)) aborted = true;
    return std::isfinite(result.errors.Worst());
  };
  auto converged = [&]() { return result.errors.Converged(tol); };
  auto abort = [&]() {
    result.status = SolverStatus::kAborted;
    result.message = "NSGS: aborted by the iteration callback";
    return result;
  };

  if (!check(0)) {
    result.status = SolverStatus::kNumericalIssue;
    result.message = "NSGS: non-finite error at the starting point";
    return result;
  }
  if (aborted) return abort();
  if (converged()) {
    result.status = SolverStatus::kConverged;
    result.message = "NSGS: the starting point meets the tolerance";
    return result;
  }

  double working_tolerance = tol;
  int unchanged_sweeps = 0;
  result.status = SolverStatus::kMaxIterations;
  result.message = "NSGS: " + std::to_string(max_sweeps) + " sweeps done";
  for (int sweep = 1; sweep <= max_sweeps; ++sweep) {
    if (std::chrono::steady_clock::now() >= deadline) {
      result.status = SolverStatus::kTimeLimit;
      result.message = "NSGS: time limit reached after " +
                       std::to_string(result.sweeps) + " sweeps";
      break;
    }
    r_previous_ = *r;
    result.local_discards += Sweep(problem, options, r);
    result.sweeps = sweep;
    checked_current = false;

    const double change = (*r - r_previous_).norm();
    const double size = r->norm();
    result.cheap_error =
        size > 0.0
            ? change / size
            : (change > 0.0 ? std::numeric_limits<double>::infinity() : 0.0);
    unchanged_sweeps = change == 0.0 ? unchanged_sweeps + 1 : 0;
    const bool cheap_met = result.cheap_error <= working_tolerance;
    if (sweep % options.error_check_frequency != 0 && !cheap_met &&
        sweep != max_sweeps) {
      continue;
    }
    if (!check(sweep)) {
      result.status = SolverStatus::kNumericalIssue;
      result.message =
          "NSGS: non-finite error after sweep " + std::to_string(sweep);
      return result;
    }
    if (aborted) return abort();
    if (converged()) {
      result.status = SolverStatus::kConverged;
      result.message =
          "NSGS: converged in " + std::to_string(sweep) + " sweeps";
      return result;
    }
    if (unchanged_sweeps >= kStallSweeps) {
      result.status = SolverStatus::kStalled;
      result.message = "NSGS: r unchanged for " + std::to_string(kStallSweeps) +
                       " sweeps with the error above the tolerance";
      return result;
    }
    if (cheap_met) working_tolerance /= kWorkingToleranceReduction;
  }
  if (!checked_current && !check(result.sweeps)) {
    result.status = SolverStatus::kNumericalIssue;
    result.message =
        "NSGS: non-finite error after sweep " + std::to_string(result.sweeps);
  } else if (aborted) {
    return abort();
  } else if (converged()) {
    result.status = SolverStatus::kConverged;
    result.message =
        "NSGS: converged in " + std::to_string(result.sweeps) + " sweeps";
  }
  return result;
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
