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

#include "newton/delassus_blocks.h"

namespace fcsn::internal {
namespace {

// M counts as symmetric when max |M - M^T| <= kSymmetryTolerance * max |M|.
// Assembled FEM matrices are symmetric to round-off; an upper-triangle-only M
// is off by O(max |M|).
constexpr double kSymmetryTolerance = 1e-13;

// Dense panels of X = M^-1 H hold at most this many doubles (512 kB, so that
// a panel stays in cache while it is solved and multiplied) at a time.
constexpr int kPanelBudgetDoubles = 1 << 16;

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

std::string DescribeSizes(const GlobalProblem& problem) {
  return "inconsistent problem sizes: M " + std::to_string(problem.M.rows()) +
         " x " + std::to_string(problem.M.cols()) + ", H " +
         std::to_string(problem.H.rows()) + " x " +
         std::to_string(problem.H.cols()) + ", f " +
         std::to_string(problem.f.size()) + ", w " +
         std::to_string(problem.w.size()) + ", mu " +
         std::to_string(problem.mu.size());
}

// M restricted to the nd dofs of one component (ascending), in local indices.
SparseMatrix ExtractComponent(const SparseMatrix& M,
                              const int* dofs,
                              int nd,
                              const std::vector<int>& local_index) {
  std::vector<Eigen::Triplet<double, int>> triplets;
  for (int jl = 0; jl < nd; ++jl) {
    for (SparseMatrix::InnerIterator it(M, dofs[jl]); it; ++it) {
      triplets.emplace_back(local_index[it.row()], jl, it.value());
    }
  }
  SparseMatrix out(nd, nd);
  out.setFromTriplets(triplets.begin(), triplets.end());
  return out;
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
    *message = DescribeSizes(problem);
    return false;
  }
  if (!factorization_.Factorize(problem.M, message)) return false;
  const int nc = m / 3;

  // Connected components of M: M^-1 is block diagonal over them, so
  // W_ab = sum over the components c that both contacts touch of
  // H_{c,a}^T M_c^-1 H_{c,b}. Each component is factored and solved on its own
  // (the global factorization is reused when M is irreducible), so the work
  // follows the structure: O(size of c) per contact column, not O(n).
  ComponentGraph graph;
  BuildComponentGraph(problem, &graph);
  const std::vector<int>& component = graph.component;
  const int num_components = graph.num_components;
  const std::vector<int>& contact_start = graph.contact_start;
  const std::vector<int>& component_contacts = graph.component_contacts;
  const std::vector<int>& component_start = graph.component_start;
  const std::vector<int>& local_index = graph.local_index;

  // Rows of H, to form H^T x from the nonzero rows of x only.
  const Eigen::SparseMatrix<double, Eigen::RowMajor, int> h_rows = problem.H;

  // Contributions (a, b, block) of every component; summed below.
  std::vector<Contribution> contributions;
  ColumnSum column_sum(m);
  std::vector<int> panel_position(nc, -1);
  MFactorization component_factorization;
  Eigen::MatrixXd panel_rhs;
  Eigen::MatrixXd panel_x;

  for (int c = 0; c < num_components; ++c) {
    const int first_contact = contact_start[c];
    const int num_contacts = contact_start[c + 1] - first_contact;
    if (num_contacts == 0) continue;
    const int* dofs = graph.component_dofs.data() + component_start[c];
    const int nd = component_start[c + 1] - component_start[c];
    const MFactorization* factorization = &factorization_;
    if (num_components > 1) {
      if (!component_factorization.Factorize(
              ExtractComponent(problem.M, dofs, nd, local_index), message)) {
        Clear();
        return false;
      }
      factorization = &component_factorization;
    }
    const int panel_contacts = std::max(
        1, std::min(num_contacts, kPanelBudgetDoubles / std::max(1, 3 * nd)));
    for (int k0 = 0; k0 < num_contacts; k0 += panel_contacts) {
      const int k1 = std::min(num_contacts, k0 + panel_contacts);
      panel_rhs.setZero(nd, 3 * (k1 - k0));
      for (int k = k0; k < k1; ++k) {
        const int b = component_contacts[first_contact + k];
        panel_position[b] = k - k0;
        for (int s = 0; s < 3; ++s) {
          for (SparseMatrix::InnerIterator it(problem.H, 3 * b + s); it; ++it) {
            if (component[it.row()] == c) {
              panel_rhs(local_index[it.row()], 3 * (k - k0) + s) = it.value();
            }
          }
        }
      }
      if (!factorization->Solve(panel_rhs, &panel_x)) {
        *message =
            "solving M X = H gave non-finite values (M singular or badly "
            "conditioned)";
        Clear();
        return false;
      }
      for (int k = k0; k < k1; ++k) {
        const int b = component_contacts[first_contact + k];
        const int c0 = 3 * panel_position[b];
        column_sum.Add(b, panel_x, c0, dofs, nd, h_rows, &contributions);
      }
    }
  }

  AssembleBlockCsr(&contributions,
                   nc,
                   &row_start_,
                   &block_column_,
                   &blocks_,
                   &diagonal_index_);

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

long long Delassus::CountBlocks(const GlobalProblem& problem, long long cap) {
  const int m = problem.m();
  if (problem.M.rows() != problem.M.cols() || problem.H.rows() != problem.n() ||
      m % 3 != 0) {
    return 0;
  }
  const int nc = m / 3;
  ComponentGraph graph;
  BuildComponentGraph(problem, &graph);
  // Block row a holds W_aa and W_ab for every other contact b that shares a
  // component with a; `seen` marks the b already counted for this a.
  std::vector<int> seen(nc, -1);
  long long count = 0;
  for (int a = 0; a < nc; ++a) {
    seen[a] = a;
    ++count;
    for (int k = graph.touch_start[a]; k < graph.touch_start[a + 1]; ++k) {
      const int c = graph.contact_components[k];
      for (int l = graph.contact_start[c]; l < graph.contact_start[c + 1];
           ++l) {
        const int b = graph.component_contacts[l];
        if (seen[b] != a) {
          seen[b] = a;
          ++count;
        }
      }
    }
    if (count > cap) return count;
  }
  return count;
}

long long Delassus::BuildCost(const GlobalProblem& problem, long long cap) {
  if (problem.M.rows() != problem.M.cols() || problem.H.rows() != problem.n() ||
      problem.m() % 3 != 0) {
    return 0;
  }
  ComponentGraph graph;
  BuildComponentGraph(problem, &graph);
  long long solves = 0;
  for (int c = 0; c < graph.num_components; ++c) {
    long long nonzeros = 0;
    for (int k = graph.component_start[c]; k < graph.component_start[c + 1];
         ++k) {
      const int j = graph.component_dofs[k];
      nonzeros += problem.M.col(j).nonZeros();
    }
    const long long contacts =
        graph.contact_start[c + 1] - graph.contact_start[c];
    solves += 3 * contacts * nonzeros;
    if (solves > cap) return solves;
  }
  const long long cap_blocks = (cap - solves) / 9;
  return solves + 9 * CountBlocks(problem, cap_blocks);
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
