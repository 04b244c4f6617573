// Delassus data from one sparse factorization of M (see delassus.h for the
// math).
#include "minverse/delassus.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "minverse/delassus_blocks.h"

namespace fcsn::internal {
namespace {

// Dense panels of X = M^-1 H hold at most this many doubles (512 kB, so that
// a panel stays in cache while it is solved and multiplied) at a time.
constexpr int kPanelBudgetDoubles = 1 << 16;

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

// The sizes Compute() needs: M square, H with n rows and 3 nc columns, f, w
// and mu to match.
bool ConsistentSizes(const GlobalProblem& problem) {
  const int n = problem.n();
  const int m = problem.m();
  return problem.M.rows() == problem.M.cols() && problem.H.rows() == n &&
         m % 3 == 0 && problem.f.size() == n && problem.w.size() == m &&
         problem.mu.size() * 3 == m;
}

// Workspace of the per-component accumulation of W, shared by the components.
struct ComponentWork {
  ComponentWork(const GlobalProblem& problem, int m)
      : h_rows(problem.H), column_sum(m), panel_position(m / 3, -1) {}
  // Rows of H, to form H^T x from the nonzero rows of x only.
  const Eigen::SparseMatrix<double, Eigen::RowMajor, int> h_rows;
  ColumnSum column_sum;
  std::vector<int> panel_position;  // nc: column block of b in the panel
  MFactorization component_factorization;
  Eigen::MatrixXd panel_rhs;
  Eigen::MatrixXd panel_x;
};

// Right-hand side of the panel of contacts k0..k1-1 of component c: their
// columns of H restricted to the component's dofs, in local indices.
void FillPanel(const GlobalProblem& problem,
               const ComponentGraph& graph,
               int c,
               int k0,
               int k1,
               ComponentWork* work) {
  const int first_contact = graph.contact_start[c];
  const int nd = graph.component_start[c + 1] - graph.component_start[c];
  work->panel_rhs.setZero(nd, 3 * (k1 - k0));
  for (int k = k0; k < k1; ++k) {
    const int b = graph.component_contacts[first_contact + k];
    work->panel_position[b] = k - k0;
    for (int s = 0; s < 3; ++s) {
      for (SparseMatrix::InnerIterator it(problem.H, 3 * b + s); it; ++it) {
        if (graph.component[it.row()] == c) {
          work->panel_rhs(graph.local_index[it.row()], 3 * (k - k0) + s) =
              it.value();
        }
      }
    }
  }
}

// The contributions H_{c,a}^T M_c^-1 H_{c,b} of component c (see delassus.h),
// by panels of contact columns. global: the factorization of M, used as is
// when M is one component.
bool AddComponent(const GlobalProblem& problem,
                  const MFactorization& global,
                  const ComponentGraph& graph,
                  int c,
                  ComponentWork* work,
                  std::vector<Contribution>* contributions,
                  std::string* message) {
  const int first_contact = graph.contact_start[c];
  const int num_contacts = graph.contact_start[c + 1] - first_contact;
  if (num_contacts == 0) return true;
  const int* dofs = graph.component_dofs.data() + graph.component_start[c];
  const int nd = graph.component_start[c + 1] - graph.component_start[c];
  const MFactorization* factorization = &global;
  if (graph.num_components > 1) {
    if (!work->component_factorization.Factorize(
            ExtractComponent(problem.M, dofs, nd, graph.local_index),
            message) ||
        !work->component_factorization.CheckPositiveDefinite(message)) {
      return false;
    }
    factorization = &work->component_factorization;
  }
  const int panel_contacts = std::max(
      1, std::min(num_contacts, kPanelBudgetDoubles / std::max(1, 3 * nd)));
  for (int k0 = 0; k0 < num_contacts; k0 += panel_contacts) {
    const int k1 = std::min(num_contacts, k0 + panel_contacts);
    FillPanel(problem, graph, c, k0, k1, work);
    if (!factorization->Solve(work->panel_rhs, &work->panel_x)) {
      *message =
          "solving M X = H gave non-finite values (M singular or badly "
          "conditioned)";
      return false;
    }
    for (int k = k0; k < k1; ++k) {
      const int b = graph.component_contacts[first_contact + k];
      work->column_sum.Add(b,
                           work->panel_x,
                           3 * work->panel_position[b],
                           dofs,
                           nd,
                           work->h_rows,
                           contributions);
    }
  }
  return true;
}

}  // namespace

void Delassus::Clear() {
  m_inverse_ = nullptr;
  built_owner_ = nullptr;
  built_factorizations_ = -1;
  built_h_.resize(0, 0);
  reused_ = false;
  row_start_.assign(1, 0);
  block_column_.clear();
  blocks_.clear();
  diagonal_index_.clear();
}

bool Delassus::Compute(const GlobalProblem& problem, std::string* message) {
  own_m_inverse_.Bind(problem);
  return Compute(problem, &own_m_inverse_, message);
}

bool Delassus::Reusable(const GlobalProblem& problem,
                        const MInverse& m_inverse) const {
  return built_owner_ == &m_inverse &&
         built_factorizations_ == m_inverse.factorization().factorizations() &&
         SameBits(problem.H, built_h_);
}

bool Delassus::Build(const GlobalProblem& problem,
                     const MInverse& m_inverse,
                     std::string* message) {
  // Connected components of M: M^-1 is block diagonal over them (see the
  // header), so each is factored and solved on its own (the global
  // factorization is reused when M is irreducible).
  ComponentGraph graph;
  BuildComponentGraph(problem, &graph);
  ComponentWork work(problem, problem.m());
  std::vector<Contribution> contributions;
  for (int c = 0; c < graph.num_components; ++c) {
    if (!AddComponent(problem,
                      m_inverse.factorization(),
                      graph,
                      c,
                      &work,
                      &contributions,
                      message)) {
      return false;
    }
  }
  AssembleBlockCsr(&contributions,
                   problem.m() / 3,
                   &row_start_,
                   &block_column_,
                   &blocks_,
                   &diagonal_index_);
  built_owner_ = &m_inverse;
  built_factorizations_ = m_inverse.factorization().factorizations();
  built_h_ = problem.H;
  built_h_.makeCompressed();
  return true;
}

bool Delassus::Compute(const GlobalProblem& problem,
                       MInverse* m_inverse,
                       std::string* message) {
  if (!ConsistentSizes(problem)) {
    Clear();
    *message = DescribeSizes(problem);
    return false;
  }
  if (!m_inverse->Factorize(message) ||
      !m_inverse->factorization().CheckPositiveDefinite(message)) {
    Clear();
    return false;
  }
  const bool reuse = Reusable(problem, *m_inverse);
  if (!reuse) {
    Clear();
    if (!Build(problem, *m_inverse, message)) {
      Clear();
      return false;
    }
  }
  if (!m_inverse->ComputeQFree(message)) {
    *message = "solving M v = f gave non-finite values";
    Clear();
    return false;
  }
  m_inverse_ = m_inverse;
  reused_ = reuse;
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
  if (r.size() != problem.m() || problem.f.size() != n() ||
      factorization_type() == MFactorizationType::kNone) {
    return false;
  }
  const Eigen::VectorXd rhs = problem.H * r + problem.f;
  return m_inverse_->factorization().Solve(rhs, v);
}

}  // namespace fcsn::internal
