// Per-contact rho and q_free (see rho.h for the rules).
#include "minverse/rho.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "minverse/block_rho.h"

namespace fcsn::internal {
namespace {

// A contact whose W_aa is below this fraction of the largest one is treated as
// uncoupled (round-off level relative to the other contacts) and gets the
// median rho.
constexpr double kUncoupledFraction = 1e-14;

// sum over the common rows i of columns k and l of H of H_ik H_il / d_i (d_i
// = 0 skipped).
double DiagonalWeightedProduct(const SparseMatrix& H,
                               const Eigen::VectorXd& d,
                               int k,
                               int l) {
  SparseMatrix::InnerIterator ik(H, k), il(H, l);
  double s = 0.0;
  while (ik && il) {
    if (ik.row() < il.row()) {
      ++ik;
    } else if (il.row() < ik.row()) {
      ++il;
    } else {
      if (d[ik.row()] != 0.0) s += ik.value() * il.value() / d[ik.row()];
      ++ik;
      ++il;
    }
  }
  return s;
}

// rho of one usable contact (lambda_max its largest eigenvalue, largest the
// largest over all contacts), before the factor.
Eigen::Vector3d ContactRho(const Eigen::Matrix3d& Wa,
                           double lambda_max,
                           double largest,
                           RhoRule rule) {
  const double tiny = kUncoupledFraction * largest;
  if (rule == RhoRule::kSplitExactDelassus && Wa(0, 0) > tiny) {
    const double lt = LargestTangentEigenvalue(Wa);
    const double rho_t = lt > tiny ? 1.0 / lt : 1.0 / lambda_max;
    return Eigen::Vector3d(1.0 / Wa(0, 0), rho_t, rho_t);
  }
  return Eigen::Vector3d::Constant(1.0 / lambda_max);
}

}  // namespace

std::vector<Eigen::Matrix3d> DiagonalEstimateBlocks(
    const GlobalProblem& problem) {
  return DiagonalEstimateBlocks(problem.H, problem.M.diagonal());
}

std::vector<Eigen::Matrix3d> DiagonalEstimateBlocks(const SparseMatrix& H,
                                                    const Eigen::VectorXd& d) {
  const int nc = static_cast<int>(H.cols() / 3);
  std::vector<Eigen::Matrix3d> W(nc, Eigen::Matrix3d::Zero());
  for (int a = 0; a < nc; ++a) {
    for (int k = 0; k < 3; ++k) {
      for (int l = 0; l < 3; ++l) {
        W[a](k, l) = DiagonalWeightedProduct(H, d, 3 * a + k, 3 * a + l);
      }
    }
  }
  return W;
}

Eigen::VectorXd RhoFromBlocks(const std::vector<Eigen::Matrix3d>& W,
                              const RhoOptions& options) {
  const int nc = static_cast<int>(W.size());
  Eigen::VectorXd rho(3 * nc);
  if (options.rule == RhoRule::kConstant) {
    rho.setConstant(options.value * options.factor);
    return rho;
  }
  std::vector<double> lambda_max(nc);
  double largest = 0.0;
  for (int a = 0; a < nc; ++a) {
    lambda_max[a] = LargestEigenvalue(W[a]);
    largest = std::max(largest, lambda_max[a]);
  }
  std::vector<char> usable(nc, 0);
  std::vector<double> usable_rho;
  for (int a = 0; a < nc; ++a) {
    const double lmax = lambda_max[a];
    if (!(lmax > kUncoupledFraction * largest) || !std::isfinite(lmax))
      continue;
    usable[a] = 1;
    rho.segment<3>(3 * a) = ContactRho(W[a], lmax, largest, options.rule);
    usable_rho.push_back(rho[3 * a]);
  }
  const double median = MedianOfUsable(std::move(usable_rho));
  for (int a = 0; a < nc; ++a) {
    if (!usable[a]) rho.segment<3>(3 * a).setConstant(median);
  }
  rho *= options.factor;
  return rho;
}

bool ComputeScaling(const GlobalProblem& problem,
                    const RhoOptions& options,
                    ScalingData* scaling,
                    std::string* message,
                    MInverse* m_inverse,
                    const SecondThreadReady& second) {
  MInverse local;
  if (m_inverse == nullptr) {
    local.Bind(problem);
    m_inverse = &local;
  }
  if (!m_inverse->ComputeQFree(message)) return false;
  scaling->m_symmetric = m_inverse->symmetric();
  scaling->q_free = m_inverse->q_free();
  scaling->q_free_norm = m_inverse->q_free_norm();
  scaling->m_regular = m_inverse->regular();
  scaling->m_not_regular_reason = m_inverse->not_regular_reason();
  // Without M^-1 (M not regular) the exact blocks do not exist: their diag(M)
  // estimate stands in.
  std::vector<Eigen::Matrix3d> estimate;
  const ExactBlocks exact = [&](std::string*) {
    if (scaling->m_regular) return &m_inverse->DiagonalBlocks(second);
    estimate = DiagonalEstimateBlocks(problem);
    return static_cast<const std::vector<Eigen::Matrix3d>*>(&estimate);
  };
  return RhoOfRule(
      options,
      problem.nc(),
      exact,
      [&problem] { return DiagonalEstimateBlocks(problem); },
      &scaling->rho,
      message);
}

bool RhoOfRule(const RhoOptions& options,
               int nc,
               const ExactBlocks& exact,
               const EstimatedBlocks& estimated,
               Eigen::VectorXd* rho,
               std::string* message) {
  switch (options.rule) {
    case RhoRule::kExactDelassus:
    case RhoRule::kSplitExactDelassus: {
      const std::vector<Eigen::Matrix3d>* blocks = exact(message);
      if (blocks == nullptr) return false;
      *rho = RhoFromBlocks(*blocks, options);
      return true;
    }
    case RhoRule::kDiagonalEstimate:
      *rho = RhoFromBlocks(estimated(), options);
      return true;
    case RhoRule::kConstant:
      *rho = RhoFromBlocks(std::vector<Eigen::Matrix3d>(nc), options);
      return true;
  }
  return true;
}

}  // namespace fcsn::internal
