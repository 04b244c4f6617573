// J's first factorization before rho (see early_factorization.h).
#include "newton/early_factorization.h"

#include <cmath>

#include "linalg/stopwatch.h"

namespace fcsn::internal {

namespace {

// ||H^T diag(M)^-1 f||_inf (zero diagonal entries skipped): the free motion
// ||q_free - w||_inf of the bonded start's tests with M^-1 estimated by its
// diagonal, before M is factorized.
double EstimatedFreeMotion(const GlobalProblem& problem) {
  const Eigen::VectorXd d = problem.M.diagonal();
  Eigen::VectorXd v = Eigen::VectorXd::Zero(problem.n());
  for (int i = 0; i < problem.n(); ++i) {
    if (d[i] != 0.0) v[i] = problem.f[i] / d[i];
  }
  return (problem.H.transpose() * v).lpNorm<Eigen::Infinity>();
}

// Negates the entries of the rows n, n + 1, ... (the contact rows).
void NegateContactRows(const SparsityPattern& pattern,
                       int n,
                       std::vector<double>* values) {
  for (int p = 0; p < pattern.nnz(); ++p) {
    if (pattern.row_index[p] >= n) (*values)[p] = -(*values)[p];
  }
}

}  // namespace

bool PredictsBondedStart(const SolverOptions& options,
                         const GlobalProblem& problem,
                         bool has_guess) {
  const bool bonded_rule = options.cold_start == ColdStart::kBonded ||
                           options.cold_start == ColdStart::kAuto;
  if (has_guess || !bonded_rule || problem.nc() == 0 ||
      options.formulation == Formulation::kFischerBurmeister)
    return false;
  // Every contact rests when w is round-off against the free motion
  // (cold_start.h); the estimate only decides whether to try.
  return problem.w.lpNorm<Eigen::Infinity>() <=
         kColdStartRoundOff * EstimatedFreeMotion(problem);
}

void FactorizeBondedStart(const GlobalProblem& problem,
                          const MServices& m,
                          Formulation formulation,
                          NewtonSystem* system,
                          LinearSolver* linear,
                          EarlyFactors* early,
                          SolverSummary* summary) {
  early->ready = false;
  ScopedTimer timer(&summary->timings.factorization);
  system->SetMatrixValues(problem, m);
  // With rho = 1 and a unit normal reaction at u ~ 0, s_a is about the unit
  // normal: inside the cone for every mu >= 0 and far from its apex, the
  // piece the bonded start chooses with its own positive r_N (cold_start.h).
  const Eigen::VectorXd rho = Eigen::VectorXd::Ones(problem.m());
  const Eigen::VectorXd v = Eigen::VectorXd::Zero(problem.n());
  Eigen::VectorXd r = Eigen::VectorXd::Zero(problem.m());
  for (int a = 0; a < problem.nc(); ++a) r[3 * a] = 1.0;
  system->Evaluate(problem, formulation, rho, v, r, /*with_jacobian=*/true);
  early->values = system->values();
  // With its contact rows negated P0 is [[M, -H], [-H^T, 0]], symmetric when
  // M is: its LDL^T has half the flops of the LU, and the sign is one more
  // diagonal scaling for DiagonallyEquivalent. A backend without LDL^T, or an
  // M that is not exactly symmetric, gets the LU.
  NegateContactRows(system->pattern(), problem.n(), &early->values);
  std::string ignored;  // a failure only means: J is factorized as usual
  ++summary->factorizations;
  LinearSolverStatus status =
      linear->FactorizeSymmetric(early->values.data(), &ignored);
  if (status == LinearSolverStatus::kUnavailable ||
      status == LinearSolverStatus::kInvalidInput) {
    NegateContactRows(system->pattern(), problem.n(), &early->values);
    status = linear->Factorize(early->values.data(), &ignored);
  }
  early->ready = status == LinearSolverStatus::kSuccess;
}

bool DiagonallyEquivalent(const SparsityPattern& pattern,
                          int n,
                          const std::vector<double>& scaled,
                          const std::vector<double>& early,
                          double column_v,
                          double column_r,
                          Eigen::VectorXd* row_scale) {
  // The ratios are products of a few doubles (weights, rho, boost, H's
  // entries) rounded independently: equal to within some ulps. 1e-12 accepts
  // that and nothing a different piece could produce.
  constexpr double kRoundOff = 1e-12;
  if (scaled.size() != early.size() ||
      static_cast<int>(early.size()) != pattern.nnz())
    return false;
  row_scale->setZero(pattern.n);
  for (int j = 0; j < pattern.n; ++j) {
    const double column = j < n ? column_v : column_r;
    for (int p = pattern.col_ptr[j]; p < pattern.col_ptr[j + 1]; ++p) {
      const double reference = early[p] * column;
      if (reference == 0.0 || scaled[p] == 0.0) {
        if (reference != scaled[p]) return false;
        continue;
      }
      const double ratio = scaled[p] / reference;
      double& l = (*row_scale)[pattern.row_index[p]];
      if (l == 0.0) {
        if (!std::isfinite(ratio)) return false;
        l = ratio;
      } else if (!(std::abs(ratio - l) <= kRoundOff * std::abs(l))) {
        return false;
      }
    }
  }
  return (row_scale->array() != 0.0).all();
}

}  // namespace fcsn::internal
