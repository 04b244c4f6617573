#include "newton/rho.h"

#include <Eigen/Eigenvalues>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace fcsn::internal {
namespace {

// Relative asymmetry ||M - M^T||_F / ||M||_F below which M counts as symmetric:
// assembled FEM matrices are symmetric up to round-off of the element sums (a
// few ulps of each entry).
constexpr double kSymmetryTolerance = 1e-12;

bool IsSymmetric(const SparseMatrix& M) {
  const SparseMatrix Mt = M.transpose();
  const double norm = M.norm();
  return (M - Mt).norm() <=
         kSymmetryTolerance *
             std::max(norm, std::numeric_limits<double>::min());
}

double LambdaMax(const Eigen::Matrix3d& W) {
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig;
  eig.computeDirect(W, Eigen::EigenvaluesOnly);
  return eig.eigenvalues().maxCoeff();
}

double LambdaMax2(const Eigen::Matrix2d& W) {
  const double half_trace = 0.5 * (W(0, 0) + W(1, 1));
  const double det = W(0, 0) * W(1, 1) - W(0, 1) * W(1, 0);
  return half_trace + std::sqrt(std::max(0.0, half_trace * half_trace - det));
}

// W_aa for every contact from P M P^T = L D L^T (see header).
void DiagonalBlocksFromLdlt(
    const Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower>& ldlt,
    const SparseMatrix& H,
    std::vector<Eigen::Matrix3d>* W) {
  const SparseMatrix& L =
      ldlt.matrixL().nestedExpression();  // strictly lower, unit diagonal
  const Eigen::VectorXd D = ldlt.vectorD();
  const auto& perm = ldlt.permutationP().indices();
  const int n = static_cast<int>(L.rows());
  // Elimination tree: parent(j) = first off-diagonal row of column j of L.
  std::vector<int> parent(n, -1);
  for (int j = 0; j < n; ++j) {
    if (L.outerIndexPtr()[j + 1] > L.outerIndexPtr()[j]) {
      parent[j] = L.innerIndexPtr()[L.outerIndexPtr()[j]];
    }
  }
  // Row-major: the solve below updates whole rows (3 contiguous doubles).
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> Y =
      Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>::Zero(n, 3);
  std::vector<char> marked(n, 0);
  std::vector<int> reach;
  const int nc = static_cast<int>(H.cols() / 3);
  W->assign(nc, Eigen::Matrix3d::Zero());
  for (int a = 0; a < nc; ++a) {
    reach.clear();
    for (int k = 0; k < 3; ++k) {
      for (SparseMatrix::InnerIterator it(H, 3 * a + k); it; ++it) {
        const int row = perm[it.row()];
        Y(row, k) += it.value();
        for (int j = row; j != -1 && !marked[j]; j = parent[j]) {
          marked[j] = 1;
          reach.push_back(j);
        }
      }
    }
    std::sort(reach.begin(),
              reach.end());  // children before parents: a valid forward order
    Eigen::Matrix3d& Wa = (*W)[a];
    for (int j : reach) {
      for (int p = L.outerIndexPtr()[j]; p < L.outerIndexPtr()[j + 1]; ++p) {
        Y.row(L.innerIndexPtr()[p]) -= L.valuePtr()[p] * Y.row(j);
      }
    }
    for (int j : reach) {
      Wa.noalias() += Y.row(j).transpose() * Y.row(j) / D[j];
      Y.row(j).setZero();
      marked[j] = 0;
    }
  }
}

}  // namespace

bool ComputeScaling(const GlobalProblem& problem,
                    const RhoOptions& options,
                    ScalingData* scaling,
                    std::string* message,
                    ScalingWorkspace* workspace) {
  const int n = problem.n();
  const int nc = problem.nc();
  const SparseMatrix& H = problem.H;
  std::vector<Eigen::Matrix3d> W;  // diagonal blocks, when the rule needs them
  Eigen::VectorXd x(n);            // M^-1 f

  scaling->m_symmetric = IsSymmetric(problem.M);
  if (scaling->m_symmetric) {
    ScalingWorkspace local;
    ScalingWorkspace& ws = workspace != nullptr ? *workspace : local;
    const SparseMatrix& M = problem.M;
    const bool same_pattern =
        ws.analyzed && static_cast<int>(ws.outer.size()) == M.outerSize() + 1 &&
        static_cast<int>(ws.inner.size()) == M.nonZeros() &&
        std::equal(ws.outer.begin(), ws.outer.end(), M.outerIndexPtr()) &&
        std::equal(ws.inner.begin(), ws.inner.end(), M.innerIndexPtr());
    if (!same_pattern) {
      ws.ldlt.analyzePattern(M);
      ws.outer.assign(M.outerIndexPtr(), M.outerIndexPtr() + M.outerSize() + 1);
      ws.inner.assign(M.innerIndexPtr(), M.innerIndexPtr() + M.nonZeros());
      ws.analyzed = true;
    }
    ws.ldlt.factorize(M);
    const Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower>& ldlt = ws.ldlt;
    if (ldlt.info() != Eigen::Success || !ldlt.vectorD().allFinite() ||
        (ldlt.vectorD().array() == 0.0).any()) {
      if (message)
        *message = "M is singular: its LDL^T factorization has a zero pivot";
      return false;
    }
    x = ldlt.solve(problem.f);
    if (options.rule == RhoRule::kExactDelassus ||
        options.rule == RhoRule::kSplitExactDelassus) {
      DiagonalBlocksFromLdlt(ldlt, H, &W);
    }
  } else {
    Eigen::SparseLU<SparseMatrix> lu(problem.M);
    if (lu.info() != Eigen::Success) {
      if (message)
        *message = "M is singular: its sparse LU factorization failed (" +
                   lu.lastErrorMessage() + ")";
      return false;
    }
    x = lu.solve(problem.f);
    if (options.rule == RhoRule::kExactDelassus ||
        options.rule == RhoRule::kSplitExactDelassus) {
      W.assign(nc, Eigen::Matrix3d::Zero());
      Eigen::MatrixXd Ha(n, 3);
      for (int a = 0; a < nc; ++a) {
        Ha = Eigen::MatrixXd(H.middleCols(3 * a, 3));
        const Eigen::MatrixXd X = lu.solve(Ha);
        W[a] = Ha.transpose() * X;
        W[a] = 0.5 * (W[a] + W[a].transpose()).eval();
      }
    }
  }
  if (!x.allFinite()) {
    if (message) *message = "M^-1 f is not finite: M is numerically singular";
    return false;
  }
  scaling->q_free = H.transpose() * x + problem.w;
  scaling->q_free_norm = scaling->q_free.norm();

  if (options.rule == RhoRule::kDiagonalEstimate) {
    W.assign(nc, Eigen::Matrix3d::Zero());
    const Eigen::VectorXd d = problem.M.diagonal();
    for (int a = 0; a < nc; ++a) {
      for (int k = 0; k < 3; ++k) {
        for (int l = 0; l < 3; ++l) {
          // H_a^T diag(M)^-1 H_a entry (k, l): sum over the common rows of
          // columns k and l.
          SparseMatrix::InnerIterator ik(H, 3 * a + k), il(H, 3 * a + l);
          double s = 0.0;
          while (ik && il) {
            if (ik.row() < il.row()) {
              ++ik;
            } else if (il.row() < ik.row()) {
              ++il;
            } else {
              if (d[ik.row()] != 0.0)
                s += ik.value() * il.value() / d[ik.row()];
              ++ik;
              ++il;
            }
          }
          W[a](k, l) = s;
        }
      }
    }
  }

  scaling->rho.resize(3 * nc);
  if (options.rule == RhoRule::kConstant) {
    scaling->rho.setConstant(options.value * options.factor);
    return true;
  }
  // A contact whose W_aa is below this fraction of the largest one is treated
  // as uncoupled (round-off level relative to the other contacts) and gets the
  // median rho.
  constexpr double kUncoupledFraction = 1e-14;
  double largest = 0.0;
  for (const Eigen::Matrix3d& Wa : W)
    largest = std::max(largest, LambdaMax(Wa));
  std::vector<char> valid(nc, 0);
  std::vector<double> rho_values;
  for (int a = 0; a < nc; ++a) {
    const Eigen::Matrix3d& Wa = W[a];
    const double lmax = LambdaMax(Wa);
    if (!(lmax > kUncoupledFraction * largest) || !std::isfinite(lmax))
      continue;
    valid[a] = 1;
    if (options.rule == RhoRule::kSplitExactDelassus &&
        Wa(0, 0) > kUncoupledFraction * largest) {
      const double lt = LambdaMax2(Wa.bottomRightCorner<2, 2>());
      scaling->rho[3 * a] = 1.0 / Wa(0, 0);
      scaling->rho[3 * a + 1] = scaling->rho[3 * a + 2] =
          lt > kUncoupledFraction * largest ? 1.0 / lt : 1.0 / lmax;
    } else {
      scaling->rho.segment<3>(3 * a).setConstant(1.0 / lmax);
    }
    rho_values.push_back(scaling->rho[3 * a]);
  }
  double median = 1.0;
  if (!rho_values.empty()) {
    std::nth_element(rho_values.begin(),
                     rho_values.begin() + rho_values.size() / 2,
                     rho_values.end());
    median = rho_values[rho_values.size() / 2];
  }
  for (int a = 0; a < nc; ++a) {
    if (!valid[a]) scaling->rho.segment<3>(3 * a).setConstant(median);
  }
  scaling->rho *= options.factor;
  return true;
}

}  // namespace fcsn::internal
