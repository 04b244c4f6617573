#include "newton/newton_system.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <numeric>

#include "formulations/residual.h"
#include "linalg/fill_ordering.h"
#include "linalg/ordering.h"

namespace fcsn::internal {
namespace {

// Position of `row` in column `col` of a CSC pattern with sorted rows; the
// entry must exist.
int Slot(const SparsityPattern& p, int row, int col) {
  const int* begin = p.row_index.data() + p.col_ptr[col];
  const int* end = p.row_index.data() + p.col_ptr[col + 1];
  const int* it = std::lower_bound(begin, end, row);
  assert(it != end && *it == row);
  return static_cast<int>(it - p.row_index.data());
}

// Sorts rows[first..] and drops duplicates. When all but the last ascend
// strictly (the rows of a compressed Eigen matrix, then M's diagonal
// appended), one pass checks that and the last is moved to its place.
void SortUnique(std::vector<int>* rows, int first) {
  if (static_cast<int>(rows->size()) <= first) return;  // an empty column
  const auto begin = rows->begin() + first;
  const auto last = rows->end() - 1;
  if (std::adjacent_find(begin, last, std::greater_equal<int>()) == last) {
    const auto place = std::lower_bound(begin, last, *last);
    if (place != last && *place == *last) {
      rows->pop_back();
    } else {
      std::rotate(place, last, rows->end());
    }
    return;
  }
  std::sort(begin, rows->end());
  rows->erase(std::unique(begin, rows->end()), rows->end());
}

// slots[k] = position in J's values of the k-th stored entry of A, whose
// column j is J's column column0 + j: a merge of the two columns (both
// ascending), the scan restarted from the column's top where A's rows do not
// ascend.
void ColumnSlots(const SparseMatrix& A,
                 const SparsityPattern& p,
                 int column0,
                 std::vector<int>* slots) {
  slots->resize(A.nonZeros());
  for (int j = 0, k = 0; j < A.cols(); ++j) {
    const int col = column0 + j;
    int q = p.col_ptr[col];
    int previous = -1;
    for (SparseMatrix::InnerIterator it(A, j); it; ++it, ++k) {
      const int row = static_cast<int>(it.row());
      if (row <= previous) q = p.col_ptr[col];  // unsorted: search again
      while (p.row_index[q] < row) ++q;
      assert(p.row_index[q] == row);
      (*slots)[k] = q;
      previous = row;
    }
  }
}

}  // namespace

void NewtonSystem::Build(const GlobalProblem& problem) {
  // Callers pass compressed matrices (GlobalProblem's readers and builders
  // compress), which makes outerIndexPtr/innerIndexPtr a plain CSC.
  n_ = problem.n();
  m_ = problem.m();
  m_pattern_.Assign(problem.M);
  h_pattern_.Assign(problem.H);
  CollectContactDofs(problem.H);
  BuildPattern(problem);
  BuildSlotMaps(problem);
  const int nc = m_ / 3;
  contact_HT_.assign(3 * contact_dofs_.size(), 0.0);
  u_.resize(m_);
  G_.resize(n_ + m_);
  F_.resize(m_);
  Mv_.resize(n_);
  A_.assign(nc, Eigen::Matrix3d::Zero());
  B_.assign(nc, Eigen::Matrix3d::Zero());
}

void NewtonSystem::CollectContactDofs(const SparseMatrix& H) {
  // Dofs touched by each contact: the union of the rows of its three columns of
  // H.
  const int nc = m_ / 3;
  contact_dof_begin_.assign(nc + 1, 0);
  contact_dofs_.clear();
  for (int a = 0; a < nc; ++a) {
    const int first = static_cast<int>(contact_dofs_.size());
    for (int c = 3 * a; c < 3 * a + 3; ++c) {
      for (SparseMatrix::InnerIterator it(H, c); it; ++it)
        contact_dofs_.push_back(it.row());
    }
    std::sort(contact_dofs_.begin() + first, contact_dofs_.end());
    contact_dofs_.erase(
        std::unique(contact_dofs_.begin() + first, contact_dofs_.end()),
        contact_dofs_.end());
    contact_dof_begin_[a + 1] = static_cast<int>(contact_dofs_.size());
  }
}

void NewtonSystem::BuildPattern(const GlobalProblem& problem) {
  const SparseMatrix& M = problem.M;
  const SparseMatrix& H = problem.H;
  const int nc = m_ / 3;
  // Contacts touching each dof (inverse map, CSR), ascending: the v columns'
  // rows of A H^T.
  std::vector<int> contact_start(n_ + 1, 0);
  for (int dof : contact_dofs_) ++contact_start[dof + 1];
  std::partial_sum(
      contact_start.begin(), contact_start.end(), contact_start.begin());
  std::vector<int> contacts_of_dof(contact_dofs_.size());
  std::vector<int> fill(contact_start.begin(), contact_start.end() - 1);
  for (int a = 0; a < nc; ++a) {
    for (int t = contact_dof_begin_[a]; t < contact_dof_begin_[a + 1]; ++t) {
      contacts_of_dof[fill[contact_dofs_[t]]++] = a;
    }
  }
  // Pattern of J, column by column, sorted without duplicates: the rows of M
  // (or of H) and the diagonal, then the contact rows, which come after every
  // dof row and ascend by construction.
  const int N = n_ + m_;
  pattern_.n = N;
  pattern_.col_ptr.assign(N + 1, 0);
  pattern_.row_index.clear();
  pattern_.row_index.reserve(M.nonZeros() + n_ + H.nonZeros() +
                             3 * contacts_of_dof.size() + 3 * m_);
  std::vector<int>& rows = pattern_.row_index;
  for (int j = 0; j < n_; ++j) {
    const int first = static_cast<int>(rows.size());
    for (SparseMatrix::InnerIterator it(M, j); it; ++it)
      rows.push_back(it.row());
    rows.push_back(j);  // explicit diagonal slot even if M stores none
    SortUnique(&rows, first);
    for (int q = contact_start[j]; q < contact_start[j + 1]; ++q) {
      for (int i = 0; i < 3; ++i)
        rows.push_back(n_ + 3 * contacts_of_dof[q] + i);
    }
    pattern_.col_ptr[j + 1] = static_cast<int>(rows.size());
  }
  for (int c = 0; c < m_; ++c) {
    const int first = static_cast<int>(rows.size());
    for (SparseMatrix::InnerIterator it(H, c); it; ++it)
      rows.push_back(it.row());
    SortUnique(&rows, first);
    const int a = c / 3;
    for (int i = 0; i < 3; ++i)
      rows.push_back(n_ + 3 * a + i);  // full 3 x 3 block B_a
    pattern_.col_ptr[n_ + c + 1] = static_cast<int>(rows.size());
  }
  SetBlocks();
  values_.assign(pattern_.row_index.size(), 0.0);
}

void NewtonSystem::SetBlocks() {
  // v in node triples, every contact unknown its own block (refine2_speed.md:
  // blocking a contact's three unknowns too gave more flops).
  pattern_.block_starts = UniformBlocks(n_, kDofsPerNode);
  for (int c = 0; c < m_; ++c) pattern_.block_starts.push_back(n_ + c);
}

void NewtonSystem::BuildSlotMaps(const GlobalProblem& problem) {
  const SparseMatrix& M = problem.M;
  const SparseMatrix& H = problem.H;
  const int nc = m_ / 3;
  ColumnSlots(M, pattern_, 0, &m_slots_);
  ColumnSlots(H, pattern_, n_, &h_slots_);
  contact_AHT_slots_.resize(3 * contact_dofs_.size());
  for (int a = 0; a < nc; ++a) {
    for (int t = contact_dof_begin_[a]; t < contact_dof_begin_[a + 1]; ++t) {
      for (int i = 0; i < 3; ++i) {
        contact_AHT_slots_[3 * t + i] =
            Slot(pattern_, n_ + 3 * a + i, contact_dofs_[t]);
      }
    }
  }
  B_slots_.resize(9 * nc);
  for (int a = 0; a < nc; ++a) {
    for (int k = 0; k < 3; ++k) {
      for (int i = 0; i < 3; ++i) {
        B_slots_[9 * a + 3 * k + i] =
            Slot(pattern_, n_ + 3 * a + i, n_ + 3 * a + k);
      }
    }
  }
  contact_diagonal_slots_.resize(m_);
  for (int c = 0; c < m_; ++c)
    contact_diagonal_slots_[c] = B_slots_[9 * (c / 3) + 4 * (c % 3)];
}

void NewtonSystem::ScaledValues(double row_eq,
                                double row_contact,
                                double column_v,
                                double column_r,
                                std::vector<double>* scaled) const {
  scaled->resize(values_.size());
  for (int j = 0; j < pattern_.n; ++j) {
    const double column = j < n_ ? column_v : column_r;
    for (int p = pattern_.col_ptr[j]; p < pattern_.col_ptr[j + 1]; ++p) {
      const double row = pattern_.row_index[p] < n_ ? row_eq : row_contact;
      (*scaled)[p] = values_[p] * (row * column);
    }
  }
  m_services_->AppendEntriesOutsideJ(row_eq * column_v, scaled);
}

void NewtonSystem::Multiply(const Eigen::VectorXd& x,
                            Eigen::VectorXd* y) const {
  y->setZero(pattern_.n);
  for (int j = 0; j < pattern_.n; ++j) {
    for (int p = pattern_.col_ptr[j]; p < pattern_.col_ptr[j + 1]; ++p) {
      (*y)[pattern_.row_index[p]] += values_[p] * x[j];
    }
  }
  m_services_->AddProductOutsideJ(x, y);
}

bool NewtonSystem::SamePattern(const GlobalProblem& problem) const {
  return problem.n() == n_ && problem.m() == m_ &&
         m_pattern_.Matches(problem.M) && h_pattern_.Matches(problem.H);
}

void NewtonSystem::SetMatrixValues(const GlobalProblem& problem,
                                   const MServices& m) {
  m_services_ = &m;
  const SparseMatrix& M = problem.M;
  const SparseMatrix& H = problem.H;
  std::fill(values_.begin(), values_.end(), 0.0);
  for (int k = 0; k < M.nonZeros(); ++k)
    values_[m_slots_[k]] += M.valuePtr()[k];
  for (int k = 0; k < H.nonZeros(); ++k)
    values_[h_slots_[k]] = -H.valuePtr()[k];
  // Dense H_a^T per contact, for the products A_a H_a^T.
  std::fill(contact_HT_.begin(), contact_HT_.end(), 0.0);
  const int nc = m_ / 3;
  for (int a = 0; a < nc; ++a) {
    const int begin = contact_dof_begin_[a];
    const int end = contact_dof_begin_[a + 1];
    for (int k = 0; k < 3; ++k) {
      for (SparseMatrix::InnerIterator it(H, 3 * a + k); it; ++it) {
        const int t =
            static_cast<int>(std::lower_bound(contact_dofs_.begin() + begin,
                                              contact_dofs_.begin() + end,
                                              it.row()) -
                             contact_dofs_.begin());
        contact_HT_[3 * t + k] += it.value();
      }
    }
  }
}

void NewtonSystem::Evaluate(const GlobalProblem& problem,
                            Formulation formulation,
                            const Eigen::VectorXd& rho,
                            const Eigen::VectorXd& v,
                            const Eigen::VectorXd& r,
                            bool with_jacobian,
                            const DiskPiece* pieces) {
  u_.noalias() = problem.H.transpose() * v;
  u_ += problem.w;
  m_services_->Multiply(problem, v, &Mv_);
  G_.head(n_) = Mv_;
  G_.head(n_).noalias() -= problem.H * r;
  G_.head(n_) -= problem.f;
  if (!with_jacobian) {
    EvaluateAll(
        formulation, u_, r, problem.mu, rho, &F_, nullptr, nullptr, pieces);
    G_.tail(m_) = F_;
    return;
  }
  EvaluateAll(
      formulation, u_, r, problem.mu, rho, &F_, A_.data(), B_.data(), pieces);
  G_.tail(m_) = F_;
  const int nc = m_ / 3;
  for (int a = 0; a < nc; ++a) {
    const Eigen::Matrix3d& A = A_[a];
    for (int t = contact_dof_begin_[a]; t < contact_dof_begin_[a + 1]; ++t) {
      const Eigen::Map<const Eigen::Vector3d> h(
          &contact_HT_[3 * t]);              // row j of H_a
      const Eigen::Vector3d column = A * h;  // column j of A_a H_a^T
      for (int i = 0; i < 3; ++i)
        values_[contact_AHT_slots_[3 * t + i]] = column[i];
    }
    const Eigen::Matrix3d& B = B_[a];
    for (int k = 0; k < 3; ++k) {
      for (int i = 0; i < 3; ++i)
        values_[B_slots_[9 * a + 3 * k + i]] = B(i, k);
    }
  }
}

}  // namespace fcsn::internal
