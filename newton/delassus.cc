// Delassus data from one sparse factorization of M (see delassus.h for the
// math).
#include "newton/delassus.h"

#include <Eigen/OrderingMethods>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace fcsn::internal {
namespace {

// M counts as symmetric when max |M - M^T| <= kSymmetryTolerance * max |M|.
// Assembled FEM matrices are symmetric to round-off; an upper-triangle-only M
// is off by O(max |M|).
constexpr double kSymmetryTolerance = 1e-13;

// Dense panels of X = M^-1 H hold at most this many doubles (32 MB) at a time.
constexpr int kPanelBudgetDoubles = 1 << 22;

double MaxAbs(const SparseMatrix& a) {
  double out = 0.0;
  for (int j = 0; j < a.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(a, j); it; ++it) {
      out = std::max(out, std::abs(it.value()));
    }
  }
  return out;
}

bool IsSymmetric(const SparseMatrix& M) {
  const SparseMatrix transposed = M.transpose();
  const SparseMatrix difference = M - transposed;
  return MaxAbs(difference) <= kSymmetryTolerance * MaxAbs(M);
}

}  // namespace

const char* ToString(MFactorizationType type) {
  switch (type) {
    case MFactorizationType::kNone:
      return "none";
    case MFactorizationType::kSimplicialLdlt:
      return "simplicial-ldlt";
    case MFactorizationType::kSparseLu:
      return "sparse-lu";
  }
  return "?";
}

struct MFactorization::Factors {
  Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower, Eigen::AMDOrdering<int>>
      ldlt;
  Eigen::SparseLU<SparseMatrix, Eigen::COLAMDOrdering<int>> lu;
};

MFactorization::MFactorization() : factors_(std::make_unique<Factors>()) {}
MFactorization::~MFactorization() = default;

void MFactorization::Reset() {
  type_ = MFactorizationType::kNone;
  n_ = 0;
  factors_ = std::make_unique<Factors>();
}

bool MFactorization::Factorize(const SparseMatrix& M, std::string* message) {
  Reset();
  if (M.rows() != M.cols()) {
    *message = "M must be square, but it is " + std::to_string(M.rows()) +
               " x " + std::to_string(M.cols());
    return false;
  }
  const int n = static_cast<int>(M.rows());
  if (n == 0) {
    type_ = MFactorizationType::kSimplicialLdlt;
    return true;
  }
  if (IsSymmetric(M)) {
    factors_->ldlt.compute(M);
    if (factors_->ldlt.info() != Eigen::Success) {
      *message =
          "the LDL^T factorization of the symmetric matrix M failed (M "
          "singular?)";
      return false;
    }
    const Eigen::VectorXd& d = factors_->ldlt.vectorD();
    const double d_max = d.cwiseAbs().maxCoeff();
    // A pivot below n eps max|d| is zero to working precision.
    const double d_tiny = n * std::numeric_limits<double>::epsilon() * d_max;
    for (int i = 0; i < n; ++i) {
      if (!(d[i] > 0.0)) {
        *message = "M is symmetric but not positive definite (LDL^T pivot " +
                   std::to_string(i) + " is " + std::to_string(d[i]) + ")";
        return false;
      }
      if (d[i] <= d_tiny) {
        *message = "M is numerically singular (LDL^T pivot " +
                   std::to_string(i) + " is " + std::to_string(d[i]) +
                   ", largest " + std::to_string(d_max) + ")";
        return false;
      }
    }
    type_ = MFactorizationType::kSimplicialLdlt;
  } else {
    SparseMatrix compressed = M;
    compressed.makeCompressed();
    factors_->lu.analyzePattern(compressed);
    factors_->lu.factorize(compressed);
    if (factors_->lu.info() != Eigen::Success) {
      *message =
          "the sparse LU factorization of the non-symmetric matrix M failed: " +
          factors_->lu.lastErrorMessage();
      return false;
    }
    type_ = MFactorizationType::kSparseLu;
  }
  n_ = n;
  return true;
}

bool MFactorization::Solve(const Eigen::Ref<const Eigen::MatrixXd>& rhs,
                           Eigen::MatrixXd* x) const {
  if (rhs.rows() != n_) return false;
  Eigen::MatrixXd out;
  switch (type_) {
    case MFactorizationType::kNone:
      return false;
    case MFactorizationType::kSimplicialLdlt:
      if (n_ == 0) {
        out.resize(0, rhs.cols());
      } else {
        out = factors_->ldlt.solve(rhs);
      }
      break;
    case MFactorizationType::kSparseLu:
      out = factors_->lu.solve(rhs);
      break;
  }
  if (!out.allFinite()) return false;
  *x = std::move(out);
  return true;
}

bool MFactorization::Solve(const Eigen::Ref<const Eigen::VectorXd>& rhs,
                           Eigen::VectorXd* x) const {
  Eigen::MatrixXd out;
  if (!Solve(Eigen::Ref<const Eigen::MatrixXd>(rhs), &out)) return false;
  *x = out.col(0);
  return true;
}

void Delassus::Clear() {
  factorization_.Reset();
  row_start_.assign(1, 0);
  block_column_.clear();
  blocks_.clear();
  diagonal_index_.clear();
  q_free_.resize(0);
  q_free_norm_ = 0.0;
}

bool Delassus::Compute(const GlobalProblem& problem, std::string* message) {
  Clear();
  const int n = problem.n();
  const int m = problem.m();
  if (problem.M.rows() != problem.M.cols() || problem.H.rows() != n ||
      m % 3 != 0 || problem.f.size() != n || problem.w.size() != m ||
      problem.mu.size() * 3 != m) {
    *message = "inconsistent problem sizes: M " +
               std::to_string(problem.M.rows()) + " x " +
               std::to_string(problem.M.cols()) + ", H " +
               std::to_string(problem.H.rows()) + " x " + std::to_string(m) +
               ", f " + std::to_string(problem.f.size()) + ", w " +
               std::to_string(problem.w.size()) + ", mu " +
               std::to_string(problem.mu.size());
    return false;
  }
  if (!factorization_.Factorize(problem.M, message)) return false;
  const int nc = m / 3;

  // Rows of H, to form H^T x from the nonzero rows of x only.
  const Eigen::SparseMatrix<double, Eigen::RowMajor, int> h_rows = problem.H;

  // W by 3 x 3 blocks in block-CSC order, one block column b (= contact b) at a
  // time.
  std::vector<int> column_start(nc + 1, 0);
  std::vector<int> csc_row;
  std::vector<Eigen::Matrix3d> csc_blocks;
  Eigen::Matrix<double, Eigen::Dynamic, 3> accumulator =
      Eigen::MatrixXd::Zero(m, 3);
  std::vector<char> row_touched(m, 0);
  std::vector<int> touched_rows;
  std::vector<int> contact_mark(nc, -1);
  std::vector<int> touched_contacts;

  const int panel_contacts =
      std::max(1, std::min(nc, kPanelBudgetDoubles / std::max(1, 3 * n)));
  Eigen::MatrixXd panel_rhs;
  Eigen::MatrixXd panel_x;
  for (int b0 = 0; b0 < nc; b0 += panel_contacts) {
    const int nb = std::min(panel_contacts, nc - b0);
    panel_rhs = problem.H.middleCols(3 * b0, 3 * nb).toDense();
    if (!factorization_.Solve(panel_rhs, &panel_x)) {
      *message =
          "solving M X = H gave non-finite values (M singular or badly "
          "conditioned)";
      Clear();
      return false;
    }
    for (int b = b0; b < b0 + nb; ++b) {
      const int c0 = 3 * (b - b0);
      // accumulator = H^T X(:, 3b..3b+2), touching only rows of H^T that meet
      // nonzero rows of X.
      for (int p = 0; p < n; ++p) {
        const Eigen::RowVector3d x_p = panel_x.block<1, 3>(p, c0);
        if ((x_p.array() == 0.0).all()) continue;
        for (Eigen::SparseMatrix<double, Eigen::RowMajor, int>::InnerIterator
                 it(h_rows, p);
             it;
             ++it) {
          const int i = it.col();
          if (!row_touched[i]) {
            row_touched[i] = 1;
            touched_rows.push_back(i);
          }
          accumulator.row(i) += it.value() * x_p;
        }
      }
      touched_contacts.clear();
      contact_mark[b] = b;
      touched_contacts.push_back(b);
      for (int i : touched_rows) {
        const int a = i / 3;
        if (contact_mark[a] != b) {
          contact_mark[a] = b;
          touched_contacts.push_back(a);
        }
      }
      std::sort(touched_contacts.begin(), touched_contacts.end());
      for (int a : touched_contacts) {
        const Eigen::Matrix3d block = accumulator.middleRows<3>(3 * a);
        // Exact zeros are structural (no shared dof); the diagonal block is
        // always kept.
        if (a == b || !(block.array() == 0.0).all()) {
          csc_row.push_back(a);
          csc_blocks.push_back(block);
        }
      }
      column_start[b + 1] = static_cast<int>(csc_row.size());
      for (int i : touched_rows) {
        accumulator.row(i).setZero();
        row_touched[i] = 0;
      }
      touched_rows.clear();
    }
  }

  // Block-CSC -> block-CSR. Columns are visited in increasing order, so rows
  // come out sorted.
  const int num_blocks = static_cast<int>(csc_row.size());
  row_start_.assign(nc + 1, 0);
  for (int k = 0; k < num_blocks; ++k) ++row_start_[csc_row[k] + 1];
  for (int a = 0; a < nc; ++a) row_start_[a + 1] += row_start_[a];
  block_column_.resize(num_blocks);
  blocks_.resize(num_blocks);
  diagonal_index_.assign(nc, -1);
  std::vector<int> next(row_start_.begin(), row_start_.end() - 1);
  for (int b = 0; b < nc; ++b) {
    for (int k = column_start[b]; k < column_start[b + 1]; ++k) {
      const int a = csc_row[k];
      const int slot = next[a]++;
      block_column_[slot] = b;
      blocks_[slot] = csc_blocks[k];
      if (a == b) diagonal_index_[a] = slot;
    }
  }

  Eigen::VectorXd v_free;
  if (!factorization_.Solve(problem.f, &v_free)) {
    *message = "solving M v = f gave non-finite values";
    Clear();
    return false;
  }
  q_free_ = problem.H.transpose() * v_free + problem.w;
  q_free_norm_ = q_free_.norm();
  return true;
}

Eigen::Vector3d Delassus::OffDiagonalProduct(int a,
                                             const Eigen::VectorXd& r) const {
  Eigen::Vector3d out = Eigen::Vector3d::Zero();
  for (int k = row_start_[a]; k < row_start_[a + 1]; ++k) {
    const int b = block_column_[k];
    if (b != a) out.noalias() += blocks_[k] * r.segment<3>(3 * b);
  }
  return out;
}

SparseMatrix Delassus::ToSparse() const {
  std::vector<Eigen::Triplet<double, int>> triplets;
  triplets.reserve(9 * blocks_.size());
  for (int a = 0; a < nc(); ++a) {
    for (int k = row_start_[a]; k < row_start_[a + 1]; ++k) {
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
          triplets.emplace_back(
              3 * a + i, 3 * block_column_[k] + j, blocks_[k](i, j));
        }
      }
    }
  }
  SparseMatrix out(m(), m());
  out.setFromTriplets(triplets.begin(), triplets.end());
  return out;
}

bool Delassus::RecoverVelocity(const GlobalProblem& problem,
                               const Eigen::VectorXd& r,
                               Eigen::VectorXd* v) const {
  if (r.size() != problem.m() || problem.f.size() != factorization_.n() ||
      factorization_.type() == MFactorizationType::kNone) {
    return false;
  }
  const Eigen::VectorXd rhs = problem.H * r + problem.f;
  return factorization_.Solve(rhs, v);
}

}  // namespace fcsn::internal
