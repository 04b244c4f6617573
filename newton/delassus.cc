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

// Connected components of the graph of M (dofs i, j linked when M_ij or M_ji
// is stored), numbered in order of their smallest dof. Returns their number.
int ConnectedComponents(const SparseMatrix& M, std::vector<int>* component) {
  const int n = static_cast<int>(M.rows());
  std::vector<int> parent(n);
  for (int i = 0; i < n; ++i) parent[i] = i;
  auto find = [&parent](int i) {
    while (parent[i] != i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  for (int j = 0; j < M.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(M, j); it; ++it) {
      const int a = find(static_cast<int>(it.row()));
      const int b = find(j);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  }
  component->assign(n, -1);
  int count = 0;
  for (int i = 0; i < n; ++i) {
    const int root = find(i);
    if ((*component)[root] < 0) (*component)[root] = count++;
    (*component)[i] = (*component)[root];
  }
  return count;
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

// The components of M and the contacts touching them, both ways (CSR).
struct ComponentGraph {
  int num_components = 0;
  std::vector<int> component;           // n: component of each dof
  std::vector<int> contact_start;       // num_components + 1
  std::vector<int> component_contacts;  // contacts of each component, ascending
  std::vector<int> touch_start;         // nc + 1
  std::vector<int> contact_components;  // components each contact touches
};

void BuildComponentGraph(const GlobalProblem& problem, ComponentGraph* graph) {
  const int nc = problem.m() / 3;
  graph->num_components = ConnectedComponents(problem.M, &graph->component);
  const int num_components = graph->num_components;
  std::vector<std::pair<int, int>> pairs;  // (component, contact), by contact
  std::vector<int> last_contact(num_components, -1);
  graph->touch_start.assign(nc + 1, 0);
  for (int a = 0; a < nc; ++a) {
    for (int j = 3 * a; j < 3 * a + 3; ++j) {
      for (SparseMatrix::InnerIterator it(problem.H, j); it; ++it) {
        const int c = graph->component[it.row()];
        if (last_contact[c] != a) {
          last_contact[c] = a;
          pairs.emplace_back(c, a);
        }
      }
    }
    graph->touch_start[a + 1] = static_cast<int>(pairs.size());
  }
  graph->contact_components.resize(pairs.size());
  for (size_t k = 0; k < pairs.size(); ++k) {
    graph->contact_components[k] = pairs[k].first;
  }
  graph->contact_start.assign(num_components + 1, 0);
  for (const auto& [c, a] : pairs) ++graph->contact_start[c + 1];
  for (int c = 0; c < num_components; ++c) {
    graph->contact_start[c + 1] += graph->contact_start[c];
  }
  graph->component_contacts.resize(pairs.size());
  std::vector<int> next(graph->contact_start.begin(),
                        graph->contact_start.end() - 1);
  for (const auto& [c, a] : pairs) graph->component_contacts[next[c]++] = a;
}

// W_ab += block for a contact pair (a, b), from one component of M.
struct Contribution {
  int a;
  int b;
  Eigen::Matrix3d block;
};

// Sums the contributions into block-CSC (column b = contact b): the diagonal
// block first in its column (always stored), then the others in order of
// appearance, exact zeros (no shared dof, or cancellation) dropped.
void SumIntoBlockCsc(const std::vector<Contribution>& contributions,
                     int nc,
                     std::vector<int>* csc_start_out,
                     std::vector<int>* csc_row_out,
                     std::vector<Eigen::Matrix3d>* csc_blocks_out) {
  std::vector<int>& csc_start = *csc_start_out;
  std::vector<int>& csc_row = *csc_row_out;
  std::vector<Eigen::Matrix3d>& csc_blocks = *csc_blocks_out;
  std::vector<int> column_start(nc + 1, 0);
  for (const Contribution& entry : contributions) ++column_start[entry.b + 1];
  for (int b = 0; b < nc; ++b) column_start[b + 1] += column_start[b];
  std::vector<int> by_column(contributions.size());
  {
    std::vector<int> next(column_start.begin(), column_start.end() - 1);
    for (int e = 0; e < static_cast<int>(contributions.size()); ++e) {
      by_column[next[contributions[e].b]++] = e;
    }
  }
  csc_start.assign(nc + 1, 0);
  csc_row.clear();
  csc_blocks.clear();
  std::vector<int> slot_of(nc, -1);
  for (int b = 0; b < nc; ++b) {
    const int begin = static_cast<int>(csc_row.size());
    slot_of[b] = begin;
    csc_row.push_back(b);
    csc_blocks.push_back(Eigen::Matrix3d::Zero());
    for (int k = column_start[b]; k < column_start[b + 1]; ++k) {
      const Contribution& entry = contributions[by_column[k]];
      if (slot_of[entry.a] < begin) {
        slot_of[entry.a] = static_cast<int>(csc_row.size());
        csc_row.push_back(entry.a);
        csc_blocks.push_back(Eigen::Matrix3d::Zero());
      }
      csc_blocks[slot_of[entry.a]] += entry.block;
    }
    for (int k = begin; k < static_cast<int>(csc_row.size()); ++k) {
      slot_of[csc_row[k]] = -1;
    }
    // Compact: drop exact-zero off-diagonal blocks.
    int kept = begin + 1;
    for (int k = begin + 1; k < static_cast<int>(csc_row.size()); ++k) {
      if (!(csc_blocks[k].array() == 0.0).all()) {
        csc_row[kept] = csc_row[k];
        csc_blocks[kept] = csc_blocks[k];
        ++kept;
      }
    }
    csc_row.resize(kept);
    csc_blocks.resize(kept);
    csc_start[b + 1] = kept;
  }
}

// Sums the contributions (emptied) into block-CSR: row_start (nc + 1),
// block_column and blocks (per stored block), diagonal_index (nc).
void AssembleBlockCsr(std::vector<Contribution>* contributions,
                      int nc,
                      std::vector<int>* row_start_out,
                      std::vector<int>* block_column_out,
                      std::vector<Eigen::Matrix3d>* blocks_out,
                      std::vector<int>* diagonal_index_out) {
  std::vector<int> csc_start;
  std::vector<int> csc_row;
  std::vector<Eigen::Matrix3d> csc_blocks;
  SumIntoBlockCsc(*contributions, nc, &csc_start, &csc_row, &csc_blocks);
  std::vector<Contribution>().swap(*contributions);
  std::vector<int>& row_start = *row_start_out;
  std::vector<int>& block_column = *block_column_out;
  std::vector<Eigen::Matrix3d>& blocks = *blocks_out;
  std::vector<int>& diagonal_index = *diagonal_index_out;
  // Block-CSC -> block-CSR. Columns are visited in increasing order, so the
  // columns of each block row come out sorted.
  const int num_blocks = static_cast<int>(csc_row.size());
  row_start.assign(nc + 1, 0);
  for (int k = 0; k < num_blocks; ++k) ++row_start[csc_row[k] + 1];
  for (int a = 0; a < nc; ++a) row_start[a + 1] += row_start[a];
  block_column.resize(num_blocks);
  blocks.resize(num_blocks);
  diagonal_index.assign(nc, -1);
  std::vector<int> next(row_start.begin(), row_start.end() - 1);
  for (int b = 0; b < nc; ++b) {
    for (int k = csc_start[b]; k < csc_start[b + 1]; ++k) {
      const int a = csc_row[k];
      const int slot = next[a]++;
      block_column[slot] = b;
      blocks[slot] = csc_blocks[k];
      if (a == b) diagonal_index[a] = slot;
    }
  }
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
  std::vector<int> component_start(num_components + 1, 0);
  for (int p = 0; p < n; ++p) ++component_start[component[p] + 1];
  for (int c = 0; c < num_components; ++c) {
    component_start[c + 1] += component_start[c];
  }
  std::vector<int> component_dofs(n);
  std::vector<int> local_index(n);
  {
    std::vector<int> next(component_start.begin(), component_start.end() - 1);
    for (int p = 0; p < n; ++p) {
      const int slot = next[component[p]]++;
      component_dofs[slot] = p;
      local_index[p] = slot - component_start[component[p]];
    }
  }

  // Rows of H, to form H^T x from the nonzero rows of x only.
  const Eigen::SparseMatrix<double, Eigen::RowMajor, int> h_rows = problem.H;

  // Contributions (a, b, block) of every component; summed below.
  std::vector<Contribution> contributions;
  Eigen::Matrix<double, Eigen::Dynamic, 3> accumulator =
      Eigen::MatrixXd::Zero(m, 3);
  std::vector<char> row_touched(m, 0);
  std::vector<int> touched_rows;
  std::vector<int> contact_mark(nc, -1);
  std::vector<int> touched_contacts;
  std::vector<int> panel_position(nc, -1);
  MFactorization component_factorization;
  Eigen::MatrixXd panel_rhs;
  Eigen::MatrixXd panel_x;

  for (int c = 0; c < num_components; ++c) {
    const int first_contact = contact_start[c];
    const int num_contacts = contact_start[c + 1] - first_contact;
    if (num_contacts == 0) continue;
    const int* dofs = component_dofs.data() + component_start[c];
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
        // accumulator = H_c^T X_c(:, 3b..3b+2), touching only the rows of H^T
        // that meet nonzero rows of X.
        for (int pl = 0; pl < nd; ++pl) {
          const Eigen::RowVector3d x_p = panel_x.block<1, 3>(pl, c0);
          if ((x_p.array() == 0.0).all()) continue;
          for (Eigen::SparseMatrix<double, Eigen::RowMajor, int>::InnerIterator
                   it(h_rows, dofs[pl]);
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
        for (int i : touched_rows) {
          const int a = i / 3;
          if (contact_mark[a] != b) {
            contact_mark[a] = b;
            touched_contacts.push_back(a);
          }
        }
        for (int a : touched_contacts) {
          contributions.push_back({a, b, accumulator.middleRows<3>(3 * a)});
          contact_mark[a] = -1;
        }
        for (int i : touched_rows) {
          accumulator.row(i).setZero();
          row_touched[i] = 0;
        }
        touched_rows.clear();
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
